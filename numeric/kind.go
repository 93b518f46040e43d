package numeric

import (
	"fmt"
	"math"
)

// A Kind names a number format, with the PTX type spelling as its String.
type Kind uint8

// The kinds known to this package. The zero Kind is KindInvalid.
const (
	KindInvalid Kind = iota
	KindF16          // f16, IEEE binary16
	KindBF16         // bf16
	KindTF32         // tf32, 19 significant bits in a 32-bit container
	KindF32          // f32
	KindE4M3         // e4m3, OCP FP8 E4M3 "FN" (no infinities)
	KindE5M2         // e5m2, OCP FP8 E5M2
	KindS8           // s8
	KindU8           // u8
	KindS32          // s32
)

var kindNames = [...]string{
	KindInvalid: "invalid",
	KindF16:     "f16",
	KindBF16:    "bf16",
	KindTF32:    "tf32",
	KindF32:     "f32",
	KindE4M3:    "e4m3",
	KindE5M2:    "e5m2",
	KindS8:      "s8",
	KindU8:      "u8",
	KindS32:     "s32",
}

var kindBits = [...]int{KindF16: 16, KindBF16: 16, KindTF32: 32, KindF32: 32, KindE4M3: 8, KindE5M2: 8, KindS8: 8, KindU8: 8, KindS32: 32}

// String returns the PTX spelling of k ("f16", "bf16", "tf32", "f32", "e4m3",
// "e5m2", "s8", "u8", "s32"), or "invalid" / "Kind(N)".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Bits returns the storage width of k in bits (32 for tf32, which occupies a
// 32-bit container), or 0 for an invalid kind.
func (k Kind) Bits() int {
	if int(k) < len(kindBits) {
		return kindBits[k]
	}
	return 0
}

// Bytes returns the storage width of k in bytes.
func (k Kind) Bytes() int { return k.Bits() / 8 }

// IsFloat reports whether k is a floating-point kind.
func (k Kind) IsFloat() bool { return k >= KindF16 && k <= KindE5M2 }

// IsInteger reports whether k is an integer kind.
func (k Kind) IsInteger() bool { return k >= KindS8 && k <= KindS32 }

// ParseKind returns the Kind whose PTX spelling is s.
func ParseKind(s string) (Kind, error) {
	for k, n := range kindNames {
		if k != int(KindInvalid) && n == s {
			return Kind(k), nil
		}
	}
	return KindInvalid, fmt.Errorf("numeric.ParseKind: unknown kind %q (want one of f16 bf16 tf32 f32 e4m3 e5m2 s8 u8 s32)", s)
}

// Decode returns the exact value of an element of kind k stored in the low
// k.Bits() bits of b (tf32 reads the 32-bit pattern with its low 13 bits
// dropped, as the tensor cores do). An invalid kind decodes to NaN.
func (k Kind) Decode(b uint32) float64 {
	switch k {
	case KindF16:
		return Float16FromBits(uint16(b)).Float64()
	case KindBF16:
		return BFloat16FromBits(uint16(b)).Float64()
	case KindTF32:
		return TFloat32FromBits(b).Float64()
	case KindF32:
		return float64(math.Float32frombits(b))
	case KindE4M3:
		return E4M3FromBits(uint8(b)).Float64()
	case KindE5M2:
		return E5M2FromBits(uint8(b)).Float64()
	case KindS8:
		return float64(int8(b))
	case KindU8:
		return float64(uint8(b))
	case KindS32:
		return float64(int32(b))
	}
	return math.NaN()
}
