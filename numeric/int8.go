package numeric

import "math"

// Int8FromFloat64 rounds x to the nearest integer, ties to even, and
// saturates it to [-128, 127]; NaN gives 0. This is PTX cvt.rni.sat.s8.f64.
func Int8FromFloat64(x float64) int8 { return int8(satRound(x, -128, 127)) }

// Uint8FromFloat64 rounds x to the nearest integer, ties to even, and
// saturates it to [0, 255]; NaN gives 0. This is PTX cvt.rni.sat.u8.f64.
func Uint8FromFloat64(x float64) uint8 { return uint8(satRound(x, 0, 255)) }

// Int8FromInt saturates i to [-128, 127].
func Int8FromInt(i int64) int8 { return int8(max(-128, min(127, i))) }

// Uint8FromInt saturates i to [0, 255].
func Uint8FromInt(i int64) uint8 { return uint8(max(0, min(255, i))) }

func satRound(x, lo, hi float64) int64 {
	if math.IsNaN(x) {
		return 0
	}
	return int64(math.Max(lo, math.Min(hi, math.RoundToEven(x))))
}
