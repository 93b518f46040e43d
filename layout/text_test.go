package layout_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gocute/cute/layout"
)

func TestJSONRoundTrip(t *testing.T) {
	type doc struct {
		L layout.Layout
		T layout.IntTuple
		I layout.Int
		D layout.Tiler
	}
	in := doc{
		L: layout.MustParse("((_4,2),_3):((_1,8),4)"),
		T: layout.MustParseTuple("(_4,(2,_3))"),
		I: layout.D(7),
		D: layout.MustParseTiler("<_8:_1,_>"),
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"L":"((_4,2),_3):((_1,8),4)","T":"(_4,(2,_3))","I":"7","D":"` // the tiler's print follows
	if string(b[:len(want)]) != want {
		t.Fatalf("json.Marshal = %s, want prefix %s", b, want)
	}
	var out doc
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.L.String() != in.L.String() || out.T.String() != in.T.String() || out.I.String() != in.I.String() || out.D.String() != in.D.String() {
		t.Fatalf("round trip: got %+v, want %+v", out, in)
	}
	if err := json.Unmarshal([]byte(`{"L":"(_4,_8):(_1"}`), &out); err == nil {
		t.Fatal("unmarshal of a malformed layout: no error")
	}
}

func ExampleLayout_MarshalText() {
	b, _ := json.Marshal(map[string]layout.Layout{"sA": layout.MustParse("(_128,_8):(_1,_129)")})
	fmt.Println(string(b))
	var back map[string]layout.Layout
	_ = json.Unmarshal(b, &back)
	fmt.Println(back["sA"].Cosize())
	// Output:
	// {"sA":"(_128,_8):(_1,_129)"}
	// _1031
}
