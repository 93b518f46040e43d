package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/gocute/cute/internal/golden"
	"github.com/gocute/cute/internal/replay"
)

// wgmmaOut is one answer line: the record's case_id and either the
// accumulator registers after wgmma.wait_group 0 (per thread, 8 lower-case
// hex digits each) or the error, e.g. for an operand outside shared memory.
type wgmmaOut struct {
	CaseID json.RawMessage `json:"case_id"`
	AccOut [][]string      `json:"acc_out,omitempty"`
	Error  string          `json:"error,omitempty"`

	internal bool // the record met a bug of this module
}

// runWGMMA reads hardware records in the format of testdata/hw (the answer
// fields acc_out and status may be absent and are never used) and writes
// one line per record. It exits 0 unless stdin is not JSON Lines (exit 2).
func runWGMMA(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: cute wgmma < records.jsonl[.gz]")
		return 2
	}
	return serveLines("wgmma", stdin, stdout, stderr, func(n int, line []byte) (any, lineStatus) {
		if !json.Valid(line) {
			return wgmmaOut{CaseID: json.RawMessage("null"), Error: fmt.Sprintf("line %d is not JSON", n)}, lineBad
		}
		out := answerWGMMA(line)
		out.clipError()
		if out.internal {
			return out, lineInternal
		}
		return out, lineOK
	})
}

// answerWGMMA executes one record. A record that is not an object of the
// expected shape, and any internal panic, become the line's error.
func answerWGMMA(b []byte) (out wgmmaOut) {
	var id struct {
		CaseID json.RawMessage `json:"case_id"`
	}
	_ = json.Unmarshal(b, &id) // b is valid JSON; a non-object leaves CaseID empty
	out.CaseID = id.CaseID
	if len(out.CaseID) == 0 {
		out.CaseID = json.RawMessage("null")
	}
	defer func() {
		if r := recover(); r != nil {
			out.AccOut = nil
			out.internal = true
			out.Error = golden.InternalError("wgmma record "+string(out.CaseID), r)
		}
	}()
	rec, err := replay.ParseRecord(b)
	if err != nil {
		out.Error = fmt.Sprintf("cute wgmma: record %s: %v", out.CaseID, err)
		return out
	}
	// The hardware's answer is never an input.
	rec.AccOut, rec.Status = nil, ""
	regs, err := rec.Execute()
	if err != nil {
		out.Error = err.Error()
		return out
	}
	out.AccOut = replay.FormatRegs(regs)
	return out
}

// clipError bounds the error of an answer.
func (o *wgmmaOut) clipError() { o.Error = golden.ClipMessage(o.Error) }
