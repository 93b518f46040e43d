// Package house states the floors of the module: every package has a floor,
// and no package imports one on a higher floor. The test of this package
// reads the imports of every package of the module and checks the rule, so
// the picture below is the import graph's, not a wish.
//
//	8  cmd/cute, examples/..., tools/...            the command and the programs
//	7  internal/golden, internal/replay,            vectors and records answered;
//	   internal/eval, internal/playground,          the evaluator and the playground's
//	   internal/copyspec, playground/web            views and page; copy-argument reading
//	6  hw, banks, viz                               the CPU model of the hardware (memories,
//	                                                proxies, warps, ldmatrix, cp.async, TMA,
//	                                                wgmma, mma.sync, mma.sp, WMMA) and what
//	                                                analyses or draws it
//	5  gmma, tma                                    Hopper's CuTe API
//	4  atom                                         MMA and copy atoms, TiledMMA, TiledCopy
//	3  tensor                                       tensors, coordinate tensors
//	2  swizzle, layout/explain                      swizzles, composed layouts
//	1  layout, layout/internal/trace,               IntTuple, Layout, the algebra;
//	   internal/tensorcore, internal/jsonl,         the tensor cores' arithmetic; JSON Lines
//	   internal/mmarec                              (and the mma.sync records read with it)
//	0  numeric, internal/errs, internal/raise,      element types; the one error type;
//	   internal/rapidseed                           the raise plumbing; test support
//
// The rule binds library code; tests may reach up. The executors (wgmma,
// mma.sync, mma.sp, WMMA) live in hw (floor 6), above the CuTe API (gmma,
// floor 5) whose descriptors they execute; the WMMA fragment maps, as data,
// live in atom.
package house

// Floors maps each package path, relative to the module, to its floor.
// Packages under cmd/, examples/, tools/ and playground/wasm are on floor 8.
var Floors = map[string]int{
	"numeric":               0,
	"internal/raise":        0,
	"internal/jsonl":        1,
	"internal/mmarec":       1,
	"internal/rapidseed":    0,
	"internal/errs":         0,
	"layout":                1,
	"layout/internal/trace": 1,
	"internal/tensorcore":   1,
	"swizzle":               2,
	"layout/explain":        2,
	"tensor":                3,
	"atom":                  4,
	"gmma":                  5,
	"tma":                   5,
	"hw":                    6,
	"banks":                 6,
	"viz":                   6,
	"internal/golden":       7,
	"internal/replay":       7,
	"internal/eval":         7,
	"internal/playground":   7,
	"internal/copyspec":     7,
	"playground/web":        7,
	"internal/house":        8,
}
