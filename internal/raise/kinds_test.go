package raise_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gocute/cute/atom"
	"github.com/gocute/cute/gmma"
	"github.com/gocute/cute/hw"
	"github.com/gocute/cute/internal/eval"
	"github.com/gocute/cute/internal/jsonl"
	"github.com/gocute/cute/internal/playground"
	"github.com/gocute/cute/internal/raise"
	"github.com/gocute/cute/layout"
	"github.com/gocute/cute/numeric"
	"github.com/gocute/cute/swizzle"
	"github.com/gocute/cute/tensor"
	"github.com/gocute/cute/tma"
)

func second[T any](_ T, err error) error { return err }

// TestErrorKinds calls a failing function of every package: each error is,
// or wraps, a *layout.Error, and errors.Is matches its kind.
func TestErrorKinds(t *testing.T) {
	smem, err := hw.NewSharedMemory(0, 1024)
	if err != nil {
		t.Fatal(err)
	}
	t4 := tensor.Make[float32](layout.MustParse("(4,6):(1,4)"))
	for _, c := range []struct {
		name string
		err  error
		kind layout.Kind
	}{
		{"layout.Parse", second(layout.Parse("(2,3")), layout.ErrParse},
		{"layout.Make", second(layout.Make(layout.MustParseTuple("(2,3)"), layout.MustParseTuple("(1,2,3)"))), layout.ErrRank},
		{"layout.Composition", second(layout.Composition(layout.MustParse("(4,6):(1,4)"), layout.MustParse("6:3"))), layout.ErrDivisibility},
		{"swizzle.Parse", second(swizzle.Parse("Sw<1,2")), layout.ErrParse},
		{"swizzle.New", second(swizzle.New(-1, 0, 0)), layout.ErrInvalid},
		{"tensor.LogicalDivide", second(tensor.LogicalDivide(t4, layout.MustParseTiler("3:3"))), layout.ErrDivisibility},
		{"atom.Lookup", second(atom.Lookup("no such atom")), layout.ErrInvalid},
		{"gmma.ParseMajor", second(gmma.ParseMajor("KM")), layout.ErrParse},
		{"gmma.NewDescriptorBytes", second(gmma.NewDescriptorBytes(8, 0, 0, 0, gmma.Interleave)), layout.ErrDivisibility},
		{"tma.ParseOp", second(tma.ParseOp("SM90_TMA_NOPE")), layout.ErrInvalid},
		{"hw.SharedMemory.Read", smem.Read(4096, make([]byte, 4)), layout.ErrIllegalAddress},
		{"layout.Int.Add", raise.Try(func() { layout.D(math.MaxInt).Add(layout.D(1)) }), layout.ErrOverflow},
		{"layout.shape_div", raise.Try(func() { layout.S(4).ShapeDiv(layout.S(6)) }), layout.ErrDivisibility},
		{"numeric.ParseKind", second(numeric.ParseKind("half")), layout.ErrParse},
		{"numeric.Kind.EncodeExact", second(numeric.KindF16.EncodeExact(0.1)), layout.ErrInvalid},
		{"eval.Expr", second(eval.Expr("composition((4,6):(1,4), 6:3)")), layout.ErrDivisibility},
		{"eval.Expr/parse", second(eval.Expr("size(4:1")), layout.ErrParse},
		{"eval.Expr/depth", second(eval.Expr(strings.Repeat("size(", 70) + "4:1" + strings.Repeat(")", 70))), layout.ErrOverflow},
		{"eval.Call", second(eval.Call("no_such_op", nil)), layout.ErrUnsupported},
		{"playground.ParseGmem", second(playground.ParseGmem("gmem_ptr[8b](0x0) o 4:1", "half_t", "type", 0)), layout.ErrInvalid},
		{"playground.ParseTMASmem", second(playground.ParseTMASmem("Sw<3,4,3> o (8,")), layout.ErrParse},
		{"jsonl.Decode", second(jsonl.Decode[int](strings.NewReader("{x\n"))), layout.ErrParse},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("no error")
			}
			var e *layout.Error
			if !errors.As(c.err, &e) {
				t.Errorf("%v (%T): errors.As finds no *layout.Error", c.err, c.err)
			}
			if !errors.Is(c.err, c.kind) {
				t.Errorf("%v: errors.Is(err, %v) is false (kind %v)", c.err, c.kind, e.Kind)
			}
			if errors.Is(c.err, layout.ErrHazard) && c.kind != layout.ErrHazard {
				t.Errorf("%v matches ErrHazard too", c.err)
			}
		})
	}
}

func TestHWSentinels(t *testing.T) {
	if hw.ErrMisaligned != layout.ErrMisaligned || hw.ErrHazard != layout.ErrHazard ||
		hw.ErrIllegalAddress != layout.ErrIllegalAddress || hw.ErrUnsupported != layout.ErrUnsupported {
		t.Error("hw's fault sentinels are not layout kinds")
	}
}

func TestParseErrorKind(t *testing.T) {
	_, err := layout.Parse("(1,")
	var pe *layout.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, layout.ErrParse) || errors.Is(err, layout.ErrRank) {
		t.Errorf("%v: want a *ParseError of kind ErrParse", err)
	}
}

func TestTry(t *testing.T) {
	want := layout.Errorf("op", "a divide", 3).WithKind(layout.ErrDivisibility)
	err := raise.Try(func() { raise.Throw(want) })
	if err != want || !errors.Is(err, layout.ErrDivisibility) {
		t.Errorf("Try = %v, want %v", err, want)
	}
	if err := raise.Try(func() {}); err != nil {
		t.Errorf("Try of a func that returns = %v", err)
	}
	defer func() {
		if r := recover(); r != "bug" {
			t.Errorf("recovered %v, want the non-error panic to propagate", r)
		}
	}()
	_ = raise.Try(func() { panic("bug") })
}
