// Package house states the floors of the module: every package has a floor,
// and no package imports one on a higher floor. The test of this package
// reads the imports of every package of the module and checks the rule, so
// the picture below is the import graph's, not a wish.
//
//	8  cmd/cute, examples/..., tools/...            the command and the programs
//	7  internal/golden, internal/replay,            vectors and records answered;
//	   internal/eval, internal/playground,          the evaluator and the playground's
//	   internal/copyspec, playground/web            views and page; copy-argument reading
//	6  hw, atom/warp, atom/sparse, atom/wmma,       the CPU model of the hardware
//	   banks, viz                                   and what analyses or draws it
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
// The rule binds library code; tests may reach up (gmma's tests compare the
// sparse wgmma with mma.sp of atom/sparse). The wgmma executor still lives in gmma (floor 5) beside the CuTe API it
// serves; moving it, and the warp-level executors, into hw is open work.
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
	"atom/warp":             6,
	"atom/sparse":           6,
	"atom/wmma":             6,
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
