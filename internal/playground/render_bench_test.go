package playground

import "testing"

func BenchmarkRender128x64(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r := Render(Request{Expr: "Sw<3,4,3> o _0 o (_128,_64):(_64,_1)", Color: "bank"})
		if r.Error != "" {
			b.Fatal(r.Error)
		}
	}
}
