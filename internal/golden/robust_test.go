package golden

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// robustPool holds argument strings of every kind the ops take, with the
// extreme values of issue 20 among them.
var robustPool = []string{
	"(_4,_8):(_8,_1)", "(0,5):(1,1)", "(5,0):(1,1)", "-5:1", "(_2,_0,_4):(_1,_4,_8)", "(1,1,-1,-4):(_1,1,1,-1)",
	"(4611686018427387904,1):(1,4611686018427387904)", "(2,2):(4294967296,1)", "(12,(4,8)):(59,(13,1))",
	"_4:_1", "0:0", "(_4):(_-1)", "(-4,-4)", "(_4,7)", "-4", "0", "2", "3", "_", "<_3:_4,_8:_2>", "<_,_>",
	"Sw<3,3,3>", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "Sw<2,1,5> o _4 o (_8,_8,_8):(_8,_1,_64)", "Sw<3,4,3> o 9223372036854775000 o _4:_1",
	"-9223372036854775808", "9223372036854775807", "_-9223372036854775808", "uint8_t", "uint64_t", "LayoutRight", "(_2,_1,_3)", "half_t", "Layout_K_SW128_Atom", "Layout_MN_SW128_Atom<half_t>(-128,64,3)@0x400",
	"SM90_64x64x16_F16F16F16_SS<MN,MN>", "SM80_16x8x16_F32F16F16F32_TN", "Layout<Shape<_1,_1,_1>>", "(65536,65536,1)", "x", "",
}

// TestEveryOpNeverPanics feeds every registered op one and two arguments
// from the pool: no case may meet an internal error or take long.
func TestEveryOpNeverPanics(t *testing.T) {
	names := make([]string, 0, len(ops.byOp))
	for op := range ops.byOp {
		names = append(names, op)
	}
	sort.Strings(names)
	var argSets [][]string
	argSets = append(argSets, nil)
	for _, a := range robustPool {
		argSets = append(argSets, []string{a})
	}
	for _, a := range robustPool {
		for _, b := range robustPool {
			argSets = append(argSets, []string{a, b})
		}
	}
	if testing.Short() {
		argSets = argSets[:len(robustPool)+1]
	}
	start := time.Now()
	for _, op := range names {
		for _, args := range argSets {
			raw := make([]json.RawMessage, len(args))
			for i, a := range args {
				raw[i], _ = json.Marshal(a)
			}
			t0 := time.Now()
			a := Solve(Case{Op: op, Args: raw})
			if a.Internal {
				t.Errorf("%s(%s): %s", op, strings.Join(args, ", "), a.Error)
			}
			if d := time.Since(t0); d > time.Second {
				t.Errorf("%s(%s) took %v", op, strings.Join(args, ", "), d)
			}
		}
	}
	t.Logf("%d ops x %d argument lists in %v", len(names), len(argSets), time.Since(start))
}

// TestMutatedVectorsNeverPanic takes a few vendored cases of every op and
// replaces one argument at a time by each pool value: no internal error.
func TestMutatedVectorsNeverPanic(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/golden/*/*.jsonl*")
	perOp := map[string]int{}
	var cases [][]json.RawMessage
	var opsOf []string
	for _, f := range files {
		for _, v := range readVectors(t, f) {
			if perOp[v.Op] >= 1 {
				continue
			}
			perOp[v.Op]++
			cases, opsOf = append(cases, v.Args), append(opsOf, v.Op)
		}
	}
	n := 0
	for k, args := range cases {
		for i := range args {
			for _, p := range robustPool {
				mut := append([]json.RawMessage(nil), args...)
				mut[i], _ = json.Marshal(p)
				t0 := time.Now()
				a := Solve(Case{Op: opsOf[k], Args: mut})
				n++
				if a.Internal {
					t.Errorf("%s%s: %s", opsOf[k], mut, a.Error)
				}
				if d := time.Since(t0); d > time.Second {
					t.Errorf("%s%s took %v", opsOf[k], mut, d)
				}
			}
		}
	}
	t.Logf("%d mutated cases of %d ops", n, len(perOp))
}
