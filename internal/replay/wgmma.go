package replay

import (
	"encoding/json"
	"math"

	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
)

// wgmma replays an H200 wgmma record (testdata/hw/wgmma_hw.jsonl.gz, see
// Record): acc_out, the accumulator registers after wgmma.wait_group 0
// ([128][nacc] hex), and acc_out_values, their decoded values.
func wgmma(rec json.RawMessage) (map[string]any, error) {
	var r Record
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, layout.Newf(0, "", "replay wgmma: %w", err)
	}
	r.AccOut, r.Status = nil, "" // the hardware's answer is never an input
	regs, err := r.Execute()
	if err != nil {
		return nil, err
	}
	return accOut(r.AccType, regs), nil
}

// wgmmaSparse replays an H200 sparse wgmma record (SparseRecord), with
// the output fields of wgmma.
func wgmmaSparse(rec json.RawMessage) (map[string]any, error) {
	var r SparseRecord
	if err := json.Unmarshal(rec, &r); err != nil {
		return nil, layout.Newf(0, "", "replay wgmma_sp: %w", err)
	}
	r.AccOut, r.Status = nil, ""
	regs, err := r.Execute()
	if err != nil {
		return nil, err
	}
	return accOut(r.AccType, regs), nil
}

// accOut returns the output fields of a wgmma record: the registers as hex
// and their values as the records decode them: f32 a number ("nan", "inf",
// "-inf" as strings), f16x2 [low half, high half], s32 a signed integer.
func accOut(accType string, regs [][]uint32) map[string]any {
	vals := make([][]any, len(regs))
	for t, row := range regs {
		vals[t] = make([]any, len(row))
		for i, v := range row {
			switch accType {
			case "f16x2":
				vals[t][i] = []any{
					floatValue(numeric.Float16FromBits(uint16(v)).Float64()),
					floatValue(numeric.Float16FromBits(uint16(v >> 16)).Float64()),
				}
			case "s32":
				vals[t][i] = int32(v)
			default:
				vals[t][i] = floatValue(float64(math.Float32frombits(v)))
			}
		}
	}
	return map[string]any{"acc_out": FormatRegs(regs), "acc_out_values": vals}
}

// floatValue is x as the records write it: a number, or "nan", "inf", "-inf".
func floatValue(x float64) any {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return x
}
