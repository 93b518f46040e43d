// Package replay re-executes hardware records (the H200 captures in
// testdata/hw and testdata/hw-copy, and the held-back ones of the same
// kinds) on the CPU model of the hardware, and answers each with the output
// fields the hardware measured, computed by the library.
//
// A record is one JSON object. Its kind is its "category" field (ldmatrix,
// stmatrix, cpasync, tma_load, tma_encode, tma_store, tma_reduce,
// tma_multicast); the wgmma and warp-level MMA records, which have none, are
// recognised by their "ptx" (wgmma.mma_async: "wgmma"; wgmma.mma_async.sp
// or an "sp_meta" field: "wgmma_sp"; mma.sync: "mma_sync"; mma.sp:
// "mma_sp"), and the WMMA records by their "kind" field (mma: "wmma",
// rawmma: "wmma_raw", and the capture's "device" line). The output fields
// are never read, so records with them removed replay the same.
package replay

import (
	"encoding/json"
	"fmt"
	"strings"
)

// handlers maps a record kind to the function that replays one record of
// it and returns the output fields, keyed by their dotted paths in the
// record and in the record's own form (hex strings, numbers, registers as
// 8-digit hex strings), or the error the hardware faulted with.
var handlers = map[string]func(rec json.RawMessage) (got map[string]any, err error){
	"ldmatrix": ldmatrix,
	"stmatrix": stmatrix,
	"cpasync":  cpasync,
	"wgmma":    wgmma,
	"wgmma_sp": wgmmaSparse,
	// TMA (tma.go)
	"tma_encode":    tmaEncode,
	"tma_load":      tmaLoad,
	"tma_store":     tmaStore,
	"tma_reduce":    tmaReduce,
	"tma_multicast": tmaMulticast,
	// warp-level MMA (mma.go)
	"mma_sync": mmaSync,
	"mma_sp":   mmaSp,
	"wmma":     wmma,
	"wmma_raw": wmmaRaw,
	"device":   device,
}

// wmmaKinds maps the "kind" field of the WMMA records to their record kind.
var wmmaKinds = map[string]string{"mma": "wmma", "rawmma": "wmma_raw", "device": "device"}

// An Answer is the reply to one record: its case_id (copied as written,
// null when absent) and either Got, the output fields, or Error, for a
// record the hardware faulted on or that cannot be replayed.
type Answer struct {
	CaseID json.RawMessage `json:"case_id"`
	Got    map[string]any  `json:"got,omitempty"`
	Error  string          `json:"error,omitempty"`
	// Malformed reports a line that is not a record of a known kind;
	// Internal one that met a bug of this module. Neither is written out.
	Malformed, Internal bool `json:"-"`
}

// header is the part of every record that picks its kind.
type header struct {
	CaseID   json.RawMessage `json:"case_id"`
	Category string          `json:"category"`
	PTX      string          `json:"ptx"`
	SpMeta   json.RawMessage `json:"sp_meta"`
	Kind     string          `json:"kind"`
}

// Kind returns the kind of record h: its category, or for the records
// that have none "wgmma" or "wgmma_sp", "mma_sync" or "mma_sp" (by their
// ptx), or "wmma", "wmma_raw" or "device" (by their kind field).
func (h header) kind() string {
	switch {
	case h.Category != "":
		return h.Category
	case strings.HasPrefix(h.PTX, "wgmma.mma_async.sp") || (len(h.SpMeta) > 0 && string(h.SpMeta) != "null"):
		return "wgmma_sp"
	case strings.HasPrefix(h.PTX, "wgmma.mma_async"):
		return "wgmma"
	case strings.HasPrefix(h.PTX, "mma.sp"):
		return "mma_sp"
	case strings.HasPrefix(h.PTX, "mma.sync"):
		return "mma_sync"
	case h.PTX == "":
		return wmmaKinds[h.Kind]
	}
	return ""
}

// Kinds returns the record kinds Replay knows.
func Kinds() []string {
	out := make([]string, 0, len(handlers))
	for k := range handlers {
		out = append(out, k)
	}
	return out
}

// Replay answers one record. Input that is not a JSON object, a record of
// an unknown kind, and any internal panic become the answer's Error.
func Replay(rec []byte) (a Answer) {
	a.CaseID = json.RawMessage("null")
	var h header
	if err := json.Unmarshal(rec, &h); err != nil {
		a.Error = fmt.Sprintf("replay: not a JSON object: %v", err)
		a.Malformed = true
		return a
	}
	if len(h.CaseID) > 0 {
		a.CaseID = h.CaseID
	}
	k := h.kind()
	f, ok := handlers[k]
	if !ok {
		a.Error = fmt.Sprintf("replay: record %s: unknown kind (category %q, ptx %q)", a.CaseID, h.Category, h.PTX)
		a.Malformed = true
		return a
	}
	defer func() {
		if r := recover(); r != nil {
			a.Got = nil
			a.Error = fmt.Sprintf("replay: record %s: internal error (please report): %v", a.CaseID, r)
			a.Internal = true
		}
	}()
	got, err := f(json.RawMessage(rec))
	if err != nil {
		a.Error = err.Error()
		return a
	}
	a.Got = got
	return a
}
