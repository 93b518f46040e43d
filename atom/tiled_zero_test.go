package atom

import (
	"strings"
	"testing"
)

// make_tiled_mma of the zero MMA is a named error, not the algebra's.
func TestMakeTiledMMAZero(t *testing.T) {
	if _, err := MakeTiledMMA(MMA{}); err == nil || !strings.Contains(err.Error(), "zero MMA") {
		t.Errorf("MakeTiledMMA(MMA{}): %v", err)
	}
}
