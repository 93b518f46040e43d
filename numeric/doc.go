// Package numeric implements the narrow number formats that NVIDIA tensor
// cores read and write: IEEE binary16 ([Float16]), bfloat16 ([BFloat16]),
// TensorFloat-32 ([TFloat32]) and the two OCP 8-bit floating-point formats
// ([E4M3], the "FN" variant without infinities, and [E5M2]), plus saturating
// conversions to the 8-bit integers.
//
// Every format is a small immutable value type holding its bit pattern.
// Conversions from float32 and float64 round to nearest, ties to even, with
// correct handling of subnormals, infinities and NaNs; a conversion performs a
// single rounding (a float32 is first widened exactly to float64). Conversions
// to float32 and float64 are exact, since every value of these formats is a
// float32.
//
// [Kind] names a format and is what instruction descriptions (such as the
// dtype/atype/btype of a wgmma) use.
package numeric
