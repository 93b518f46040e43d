package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/gocute/cute/gmma"
)

func init() {
	commands["wgmma"] = command{
		summary: "run H200 wgmma records (JSON Lines, optionally gzipped) on stdin through the software executor",
		run:     runWGMMA,
	}
}

// wgmmaOut is one answer line: the record's case_id and either the
// accumulator registers after wgmma.wait_group 0 (per thread, 8 lower-case
// hex digits each) or the error, e.g. for an operand outside shared memory.
type wgmmaOut struct {
	CaseID json.RawMessage `json:"case_id"`
	AccOut [][]string      `json:"acc_out,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// runWGMMA reads hardware records in the format of testdata/hw (the answer
// fields acc_out and status may be absent and are never used) and writes
// one line per record. It exits 0 unless stdin is not JSON Lines (exit 2).
func runWGMMA(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: cute wgmma < records.jsonl[.gz]")
		return 2
	}
	br := bufio.NewReaderSize(stdin, 1<<16)
	var in io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			fmt.Fprintf(stderr, "cute wgmma: reading gzip input: %v\n", err)
			return 2
		}
		defer zr.Close()
		in = zr
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if !json.Valid(b) {
			w.Flush()
			fmt.Fprintf(stderr, "cute wgmma: line %d is not JSON\n", line)
			return 2
		}
		if err := enc.Encode(answerWGMMA(b)); err != nil {
			fmt.Fprintf(stderr, "cute wgmma: %v\n", err)
			return 1
		}
	}
	if err := sc.Err(); err != nil {
		w.Flush()
		fmt.Fprintf(stderr, "cute wgmma: reading stdin: %v\n", err)
		return 2
	}
	return 0
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
			out.Error = fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())
		}
	}()
	var rec gmma.Record
	if err := json.Unmarshal(b, &rec); err != nil {
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
	out.AccOut = gmma.FormatRegs(regs)
	return out
}
