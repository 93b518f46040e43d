package replay

import (
	"encoding/hex"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/internal/jsonl"
)

// tmaEncodeCase is a TMA record of testdata/hw-copy as TestEncodeRecords
// reads it: the cuTensorMapEncodeTiled arguments and the driver's answer.
type tmaEncodeCase struct {
	CaseID int    `json:"case_id"`
	Note   string `json:"note"`
	Encode struct {
		tmaEncodeRec
		Result       *int    `json:"result"`
		TensorMapHex *string `json:"tensor_map_hex"`
	} `json:"encode"`
}

// TestEncodeRecords checks hw.EncodeTiled against every driver call of the
// public TMA records: the result, and the 128 bytes of each accepted map;
// hw.DecodeTensorMap must read each map back to the same arguments.
func TestEncodeRecords(t *testing.T) {
	var accepted, rejected int
	for _, f := range []string{"tma_encode", "tma_load", "tma_store", "tma_reduce", "tma_multicast"} {
		recs, err := jsonl.Read[tmaEncodeCase]("../../testdata/hw-copy/" + f + ".jsonl.gz")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Encode.Result == nil || r.Encode.GlobalAddress == nil {
				continue // a faulted case: the record lost the driver call
			}
			m, a, err := r.Encode.encode()
			if *r.Encode.Result != 0 {
				rejected++
				if err == nil {
					t.Errorf("%s case %d (%s): the driver rejected %v, the model accepted it", f, r.CaseID, r.Note, a)
				} else if hw.RuleOf(err) == "" {
					t.Errorf("%s case %d: error %v names no rule", f, r.CaseID, err)
				}
				continue
			}
			accepted++
			if err != nil {
				t.Errorf("%s case %d (%s): the driver accepted %v, the model says %v", f, r.CaseID, r.Note, a, err)
				continue
			}
			b := m.Bytes()
			if got := hex.EncodeToString(b[:]); got != *r.Encode.TensorMapHex {
				t.Errorf("%s case %d (%s): map\n got %s\nwant %s", f, r.CaseID, r.Note, got, *r.Encode.TensorMapHex)
			}
			back, err := hw.DecodeTensorMap(b)
			if err != nil {
				t.Errorf("%s case %d: DecodeTensorMap: %v", f, r.CaseID, err)
			} else if diff := cmp.Diff(a, back.Args()); diff != "" {
				t.Errorf("%s case %d: DecodeTensorMap(Bytes) args differ (-want +got):\n%s", f, r.CaseID, diff)
			}
		}
	}
	t.Logf("%d accepted maps bit-exact, %d rejections reproduced", accepted, rejected)
}
