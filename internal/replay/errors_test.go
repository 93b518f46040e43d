package replay

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gocute/cute/layout"
)

// TestErrorKind: a record replay cannot run fails with a *layout.Error.
func TestErrorKind(t *testing.T) {
	_, err := ldmatrix(json.RawMessage(`{"ptx":"ldmatrix.sync.aligned.m8n8.x1.shared.b16","lane_offsets":[0]}`))
	var e *layout.Error
	if err == nil || !errors.As(err, &e) || !errors.Is(err, layout.ErrInvalid) {
		t.Errorf("ldmatrix of a record with 1 lane offset: %v, want a *layout.Error of kind ErrInvalid", err)
	}
}
