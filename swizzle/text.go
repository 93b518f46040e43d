package swizzle

// Text encoding: Swizzle and ComposedLayout marshal to their CuTe prints
// ("Sw<3,4,3>", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)") and unmarshal from them.

// AppendText appends the CuTe print of sw to b.
func (sw Swizzle) AppendText(b []byte) ([]byte, error) { return append(b, sw.String()...), nil }

// MarshalText returns the CuTe print of sw, e.g. "Sw<3,4,3>".
func (sw Swizzle) MarshalText() ([]byte, error) { return sw.AppendText(nil) }

// UnmarshalText parses "Sw<B,M,S>".
func (sw *Swizzle) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*sw = v
	return nil
}

// AppendText appends the CuTe print of c to b.
func (c ComposedLayout) AppendText(b []byte) ([]byte, error) { return append(b, c.String()...), nil }

// MarshalText returns the CuTe print of c.
func (c ComposedLayout) MarshalText() ([]byte, error) { return c.AppendText(nil) }

// UnmarshalText parses a composed layout "Sw<B,M,S> o OFFSET o LAYOUT".
func (c *ComposedLayout) UnmarshalText(text []byte) error {
	v, err := ParseComposed(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}
