package swizzle_test

import (
	"encoding/json"
	"testing"

	"github.com/gocute/cute/swizzle"
)

func TestJSONRoundTrip(t *testing.T) {
	type doc struct {
		S swizzle.Swizzle
		C swizzle.ComposedLayout
	}
	in := doc{S: swizzle.Must(3, 4, 3), C: swizzle.MustParseComposed("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var strs map[string]string // encoding/json escapes < and >; compare the decoded strings
	if err := json.Unmarshal(b, &strs); err != nil {
		t.Fatal(err)
	}
	if strs["S"] != "Sw<3,4,3>" || strs["C"] != "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)" {
		t.Fatalf("json.Marshal = %s", b)
	}
	var out doc
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.S != in.S || out.C.String() != in.C.String() {
		t.Fatalf("round trip: got %v, want %v", out, in)
	}
	if err := json.Unmarshal([]byte(`{"S":"Sw<3,4>"}`), &out); err == nil {
		t.Fatal("unmarshal of a malformed swizzle: no error")
	}
}
