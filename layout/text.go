package layout

// Text encoding: every value of this package marshals to its CuTe print and
// unmarshals from it, so layouts travel through encoding/json, flag and
// friends in the syntax CuTe users read. A value decodes to exactly the value
// that printed it (static and dynamic integers included).

// AppendText appends the CuTe print of a to b.
func (a Int) AppendText(b []byte) ([]byte, error) { return append(b, a.String()...), nil }

// MarshalText returns the CuTe print of a, e.g. "_4" or "4".
func (a Int) MarshalText() ([]byte, error) { return a.AppendText(nil) }

// UnmarshalText parses a CuTe integer, static ("_4") or dynamic ("4").
func (a *Int) UnmarshalText(text []byte) error {
	v, err := ParseInt(string(text))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// AppendText appends the CuTe print of t to b.
func (t IntTuple) AppendText(b []byte) ([]byte, error) { return append(b, t.String()...), nil }

// MarshalText returns the CuTe print of t, e.g. "(_4,(2,_3))".
func (t IntTuple) MarshalText() ([]byte, error) { return t.AppendText(nil) }

// UnmarshalText parses a CuTe IntTuple.
func (t *IntTuple) UnmarshalText(text []byte) error {
	v, err := ParseTuple(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// AppendText appends the CuTe print of l to b.
func (l Layout) AppendText(b []byte) ([]byte, error) { return append(b, l.String()...), nil }

// MarshalText returns the CuTe print of l, e.g. "(_4,_8):(_8,_1)".
func (l Layout) MarshalText() ([]byte, error) { return l.AppendText(nil) }

// UnmarshalText parses a layout in CuTe's shape:stride syntax.
func (l *Layout) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// AppendText appends the print of t to b, in the syntax ParseTiler reads
// ("<_8:_1,_>" for a by-mode tiler).
func (t Tiler) AppendText(b []byte) ([]byte, error) { return append(b, t.String()...), nil }

// MarshalText returns the print of t in the syntax ParseTiler reads.
func (t Tiler) MarshalText() ([]byte, error) { return t.AppendText(nil) }

// UnmarshalText parses a tiler.
func (t *Tiler) UnmarshalText(text []byte) error {
	v, err := ParseTiler(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
