package tensor

import (
	"testing"

	"github.com/gocute/cute/layout"
)

// Issue 20: Make of a layout with a huge codomain does not allocate it.
func TestMakeHugeCosize(t *testing.T) {
	l := layout.MustParse("(2,2):(1,1099511627776)")
	x := Make[int32](l)
	x.Set(3, 7)
	if x.Get(3) != 7 || x.Get(1) != 0 || x.Len() != 4 {
		t.Errorf("sparse tensor: %d %d %d", x.Get(3), x.Get(1), x.Len())
	}
}
