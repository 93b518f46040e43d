package swizzle

import (
	"testing"

	"github.com/gocute/cute/internal/rapidseed"
)

// TestMain makes the rapid properties deterministic (see package rapidseed).
func TestMain(m *testing.M) { rapidseed.Main(m) }
