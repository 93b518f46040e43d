// Package browsertest drives the playground in headless Chromium: it builds
// cute, writes the page with `cute serve -out`, serves it, types
// expressions into every view and compares what the page shows (the DOM)
// with what the cute command prints for the same input. It is a module of
// its own so that chromedp stays out of the library's imports.
//
// Chromium is found as $CUTE_CHROMIUM, chromium, chromium-browser or
// google-chrome; without one the tests skip, saying so. Set
// CUTE_SCREENSHOTS=DIR to keep one PNG per view.
package browsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var (
	cuteBin  string
	baseURL  string
	allocCtx context.Context
	skipMsg  string
)

func findChromium() string {
	if p := os.Getenv("CUTE_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	chrome := findChromium()
	if chrome == "" {
		skipMsg = "no Chromium found (apt-get install -y chromium, or set CUTE_CHROMIUM): browser tests skipped"
		fmt.Println("browsertest:", skipMsg)
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "cute-browsertest")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(tmp)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Println(err)
		return 1
	}
	cuteBin = filepath.Join(tmp, "cute")
	build := exec.Command("go", "build", "-o", cuteBin, "./cmd/cute")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		fmt.Printf("building cute: %v\n%s", err, b)
		return 1
	}
	site := filepath.Join(tmp, "site")
	t0 := time.Now()
	serve := exec.Command(cuteBin, "serve", "-out", site)
	serve.Dir = root
	if b, err := serve.CombinedOutput(); err != nil {
		fmt.Printf("cute serve -out: %v\n%s", err, b)
		return 1
	}
	fmt.Printf("browsertest: cute serve -out took %v\n", time.Since(t0).Round(time.Millisecond))
	srv := httptest.NewServer(http.FileServer(http.Dir(site)))
	defer srv.Close()
	baseURL = srv.URL + "/"
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.WindowSize(1400, 1000),
		chromedp.Flag("disable-dev-shm-usage", true))
	ctx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	allocCtx = ctx
	return m.Run()
}

// tab opens a browser tab on the page with the query q and waits for the
// first render.
func tab(t *testing.T, q string) context.Context {
	t.Helper()
	if skipMsg != "" {
		t.Skip(skipMsg)
	}
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancel2 := context.WithTimeout(ctx, 120*time.Second)
	t.Cleanup(cancel2)
	if err := chromedp.Run(ctx, chromedp.Navigate(baseURL+q), chromedp.WaitVisible(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	return ctx
}

// cli runs the cute command; out is stdout, or for a failure stderr
// without the "cute CMD: " prefix.
func cli(t *testing.T, args ...string) (out string, ok bool) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(cuteBin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		line, _, _ := strings.Cut(e.String(), "\n")
		_, msg, _ := strings.Cut(line, ": ")
		return msg, false
	}
	return o.String(), true
}

// state is what the page shows, read from the DOM.
type state struct {
	Result, Text, Table, Explain, Error string
	Notes                               string
	SVG                                 string // the SVG the page inserted (as the module returned it)
	SVGElems                            int    // elements under #svg in the DOM
	SVGTexts                            string // the <text> contents in the DOM, joined by |
	URL                                 string
	Renders                             int
}

const readState = `(() => {
  const t = (id) => document.getElementById(id).textContent;
  return {
    Result: t("result"), Text: t("text"), Table: t("table"), Explain: t("explain"), Error: t("error"),
    Notes: [...document.querySelectorAll("#notes li")].map(e => e.textContent).join("\n"),
    SVG: (window.cuteLast && window.cuteLast.resp.svg) || "",
    SVGElems: document.querySelectorAll("#svg svg, #svg svg *").length,
    SVGTexts: [...document.querySelectorAll("#svg svg text")].map(e => e.textContent).join("|"),
    URL: location.href,
    Renders: Number(document.body.dataset.renders || 0),
  };
})()`

func read(t *testing.T, ctx context.Context) state {
	t.Helper()
	var s state
	if err := chromedp.Run(ctx, chromedp.Evaluate(readState, &s)); err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	return s
}

var optionIDs = []string{"color", "bits", "atoms", "perm", "thr", "val", "mma", "operand", "type", "access", "target", "tile", "coord", "addr"}

// typeIn switches to view, fills the options, types expr and Enter, and
// waits for the render it causes.
func typeIn(t *testing.T, ctx context.Context, view, expr string, opts map[string]string) state {
	t.Helper()
	before := read(t, ctx).Renders
	var acts []chromedp.Action
	acts = append(acts, chromedp.Evaluate(fmt.Sprintf(`(() => { const b = document.querySelector('#views button[data-view=%q]'); if (!b.classList.contains("active")) b.click(); })()`, view), nil))
	vals := map[string]string{"expr": ""}
	for _, id := range optionIDs {
		vals[id] = opts[id]
	}
	js, _ := json.Marshal(vals)
	acts = append(acts, chromedp.Evaluate(fmt.Sprintf(`(() => { const v = %s; for (const k in v) document.getElementById(k).value = v[k]; })()`, js), nil),
		chromedp.SendKeys("#expr", expr+"\r", chromedp.ByID))
	var n int
	acts = append(acts, chromedp.Poll(fmt.Sprintf(`Number(document.body.dataset.renders) > %d && document.getElementById("expr").value === %q ? Number(document.body.dataset.renders) : 0`, before, expr), &n))
	if err := chromedp.Run(ctx, acts...); err != nil {
		t.Fatalf("typing %q: %v", expr, err)
	}
	// Wait for any debounced render of the typed keys to settle.
	time.Sleep(20 * time.Millisecond)
	return read(t, ctx)
}

// svgShape counts the elements of an SVG document and joins its <text>
// contents, as the DOM shows them.
func svgShape(t *testing.T, s string) (int, string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	n, inText := 0, 0
	var texts []string
	var cur strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("parsing the cute svg output: %v", err)
		}
		switch v := tok.(type) {
		case xml.StartElement:
			n++
			if v.Name.Local == "text" {
				inText++
				cur.Reset()
			}
		case xml.EndElement:
			if v.Name.Local == "text" {
				inText--
				texts = append(texts, cur.String())
			}
		case xml.CharData:
			if inText > 0 {
				cur.Write(v)
			}
		}
	}
	return n, strings.Join(texts, "|")
}

func checkSVG(t *testing.T, what string, got state, args ...string) {
	t.Helper()
	want, ok := cli(t, append([]string{"svg"}, args...)...)
	if !ok {
		t.Errorf("%s: cute svg %q failed: %s", what, args, want)
		return
	}
	if got.SVG != want {
		t.Errorf("%s: the page's SVG (%d bytes) differs from cute svg %q (%d bytes)", what, len(got.SVG), args, len(want))
		return
	}
	n, texts := svgShape(t, want)
	if got.SVGElems != n || got.SVGTexts != texts {
		t.Errorf("%s: the DOM holds %d SVG elements, texts %.80q; cute svg has %d, %.80q", what, got.SVGElems, got.SVGTexts, n, texts)
	}
}

func eq(t *testing.T, what, got, want string) {
	t.Helper()
	if strings.TrimRight(got, "\n") != strings.TrimRight(want, "\n") {
		t.Errorf("%s:\n page: %q\n cute: %q", what, got, want)
	}
}

var explainable = []string{"composition", "complement", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product"}

func TestLayoutView(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "")
	cases := []struct{ expr, color string }{
		{"(_4,_8):(_8,_1)", ""},
		{"(_2,(_3,_4)):(_12,(_4,_1))", ""},
		{"logical_divide((_32,_24):(_1,_32), _8:_1)", ""},
		{"coalesce((_2,(_1,_6)):(_1,(_6,_2)))", ""},
		{"composition((_4,_3):(_3,_1), (_6,_2):(_2,_1))", ""},
		{"composition((12,(4,8)):(59,(13,1)), <_3:_4,_8:_2>)", ""},
		{"complement(_4:_2, _24)", ""},
		{"complement((_2,_2):(_1,_6), _24)", ""},
		{"tile_to_shape((_2,_2):(_1,_2), (_4,_4), LayoutRight)", ""},
		{"blocked_product((_2,_2):(_1,_2), (_3,_4):(_1,_3))", ""},
		{"raked_product((_2,_2):(_1,_2), (_3,_4):(_1,_3))", "chunk"},
		{"logical_product((_2,_2):(_1,_2), (_3,_4):(_1,_3))", ""},
		{"zipped_product((_2,_2):(_1,_2), (_3,_4):(_1,_3))", ""},
		{"zipped_divide((_8,_8):(_1,_8), <_2:_1,_4:_1>)", ""},
		{"tiled_divide((_8,_8):(_1,_8), <_2:_1,_4:_1>)", ""},
		{"flat_divide((_8,_8):(_1,_8), <_2:_1,_4:_1>)", ""},
		{"right_inverse((_4,_8):(_8,_1))", ""},
		{"left_inverse((_4,_8):(_8,_1))", ""},
		{"make_layout((_4,_8))", ""},
		{"filter((_4,_8):(_0,_1))", ""},
		{"size(coalesce((_2,(_1,_6)):(_1,(_6,_2))))", ""},
		{"cosize((_4,_8):(_8,_1))", ""},
		{"shape((_4,_8):(_8,_1))", ""},
		{"max_common_vector((_4,_8):(_8,_1), (_4,_8):(_8,_1))", ""},
		{"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", ""},
		{"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "chunk"},
		{"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "bank"},
		{"Sw<2,3,3> o _0 o (_8,_32):(_32,_1)", "bank"},
		{"Sw<3,3,3> o smem_ptr[16b](unset) o (_64,_64):(_64,_1)", "bank"},
		{"composition(Sw<3,4,3> o _0 o (_8,_64):(_64,_1), (_8,_8):(_1,_8))", "chunk"},
		{"tile_to_shape(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), (_64,_64))", "bank"},
		{"logical_divide(Sw<3,3,3> o _0 o (_64,_64):(_64,_1), <_8:_1,_16:_1>)", ""},
	}
	for _, c := range cases {
		got := typeIn(t, ctx, "layout", c.expr, map[string]string{"color": c.color})
		want, ok := cli(t, "eval", c.expr)
		if !ok {
			t.Errorf("%s: cute eval failed: %s", c.expr, want)
			continue
		}
		if got.Error != "" {
			t.Errorf("%s: page error %q", c.expr, got.Error)
			continue
		}
		eq(t, c.expr+": result", got.Result, want)
		res := strings.TrimSpace(want)
		if table, ok := cli(t, "table", res); ok && !strings.Contains(res, " o ") {
			eq(t, c.expr+": print_layout", got.Table, table)
		} else if got.Table != "" {
			t.Errorf("%s: page shows a table, cute table refuses: %s", c.expr, table)
		}
		name, _, _ := strings.Cut(c.expr, "(")
		for _, e := range explainable {
			if name != e {
				continue
			}
			if ex, ok := cli(t, "explain", c.expr); ok {
				eq(t, c.expr+": explain", got.Explain, ex)
			} else if got.Explain != "" || !strings.Contains(got.Notes, "explain: "+ex) {
				t.Errorf("%s: cute explain refuses (%s); the page shows %q, notes %q", c.expr, ex, got.Explain, got.Notes)
			}
		}
		if strings.Contains(res, ":") {
			args := []string{res}
			if c.color != "" {
				args = append(args, "--color", c.color)
			}
			if msg, ok := cli(t, append([]string{"svg"}, args...)...); !ok {
				if got.SVG != "" || !strings.Contains(got.Notes, msg) {
					t.Errorf("%s: cute svg refuses (%s); the page shows %d bytes, notes %q", c.expr, msg, len(got.SVG), got.Notes)
				}
				continue
			}
			checkSVG(t, c.expr, got, args...)
		}
	}
	shot(t, ctx, "layout", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", map[string]string{"color": "bank"})
}

func TestMMAView(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "?view=mma")
	cases := []struct{ name, atoms, perm, operand string }{
		{"SM80_16x8x16_F32F16F16F32_TN", "", "", ""},
		{"SM80_16x8x8_F16F16F16F16_TN", "", "", ""},
		{"SM70_8x8x4_F32F16F16F32_NT", "", "", ""},
		{"SM80_16x8x16_F32F16F16F32_TN", "", "", "A"},
		{"SM80_16x8x16_F32F16F16F32_TN", "(_2,_2,_1)", "", ""},
		{"SM80_16x8x16_F32F16F16F32_TN", "(_2,_2,_1)", "<_32,_32,_16>", ""},
		{"SM80_16x8x16_F32F16F16F32_TN", "(_2,_2,_1)", "", "B"},
		{"SM80_8x8x4_F64F64F64F64_TN", "", "", ""},
	}
	for _, c := range cases {
		got := typeIn(t, ctx, "mma", c.name, map[string]string{"atoms": c.atoms, "perm": c.perm, "operand": c.operand})
		if got.Error != "" {
			t.Errorf("%+v: page error %q", c, got.Error)
			continue
		}
		// The printed atom carries the TV layouts the golden op lists.
		if obj, ok := cli(t, "eval", "mma_atom("+c.name+")"); ok && c.atoms == "" {
			var m map[string]any
			if err := json.Unmarshal([]byte(obj), &m); err == nil {
				for _, k := range []string{"LayoutA_TV", "LayoutB_TV", "LayoutC_TV"} {
					if v, _ := m[k].(string); !strings.Contains(got.Result, v) {
						t.Errorf("%s: the printed atom lacks %s %s:\n%s", c.name, k, v, got.Result)
					}
				}
			}
		}
		args := []string{c.name}
		for _, f := range [][2]string{{"--atoms", c.atoms}, {"--perm", c.perm}, {"--operand", c.operand}} {
			if f[1] != "" {
				args = append(args, f[0], f[1])
			}
		}
		checkSVG(t, fmt.Sprint(c), got, args...)
	}
	shot(t, ctx, "mma", "SM80_16x8x16_F32F16F16F32_TN", nil)
	shot(t, ctx, "mma-tiled", "SM80_16x8x16_F32F16F16F32_TN", map[string]string{"atoms": "(_2,_2,_1)", "operand": "C"})
}

func TestCopyView(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "?view=copy")
	cases := []struct{ atom, thr, val, mma, operand string }{
		{"Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "(_32,_1):(_1,_0)", "(_1,_8):(_0,_1)", "", ""},
		{"Copy_Atom<UniversalCopy<uint128_t>,half_t>", "(_16,_8):(_8,_1)", "(_1,_8):(_0,_1)", "", ""},
		{"Copy_Atom<UniversalCopy<uint32_t>,float>", "(_32,_4):(_4,_1)", "(_1,_1):(_0,_0)", "", ""},
		{"Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>", "(_16,_8):(_8,_1)", "(_1,_8):(_0,_1)", "", ""},
		{"Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "", "", "SM80_16x8x16_F32F16F16F32_TN", "A"},
		{"Copy_Atom<SM75_U32x2_LDSM_N,half_t>", "", "", "SM80_16x8x16_F32F16F16F32_TN", "B"},
		{"Copy_Atom<UniversalCopy<uint32_t>,float>", "", "", "SM80_16x8x16_F32F16F16F32_TN", "C"},
	}
	for _, c := range cases {
		got := typeIn(t, ctx, "copy", c.atom, map[string]string{"thr": c.thr, "val": c.val, "mma": c.mma, "operand": c.operand})
		if got.Error != "" {
			t.Errorf("%+v: page error %q", c, got.Error)
			continue
		}
		var cargs, sargs []string
		if c.mma == "" {
			cargs = []string{"copy", c.atom, c.thr, c.val, "--no-picture"}
			sargs = []string{c.atom, "--thr", c.thr, "--val", c.val}
		} else {
			cargs = []string{"copy", c.atom, "--mma", c.mma, "--operand", c.operand, "--no-picture"}
			sargs = []string{c.atom, "--mma", c.mma, "--operand", c.operand}
		}
		want, ok := cli(t, cargs...)
		if !ok {
			t.Errorf("%+v: cute copy failed: %s", c, want)
			continue
		}
		eq(t, c.atom+": TiledCopy", got.Result, want)
		checkSVG(t, fmt.Sprint(c), got, sargs...)
	}
	shot(t, ctx, "copy", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", map[string]string{"thr": "(_32,_1):(_1,_0)", "val": "(_1,_8):(_0,_1)"})
}

func TestGMMAView(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "?view=gmma")
	cases := []struct{ kind, typ string }{
		{"Layout_K_SW128_Atom", ""}, {"Layout_K_SW64_Atom", ""}, {"Layout_K_SW32_Atom", ""}, {"Layout_K_INTER_Atom", ""},
		{"Layout_MN_SW128_Atom", ""}, {"Layout_MN_SW64_Atom", "bfloat16_t"}, {"Layout_K_SW128_Atom", "float"}, {"Layout_K_SW128_Atom", "uint8_t"},
	}
	for _, c := range cases {
		got := typeIn(t, ctx, "gmma", c.kind, map[string]string{"type": c.typ})
		if got.Error != "" {
			t.Errorf("%+v: page error %q", c, got.Error)
			continue
		}
		typ := c.typ
		if typ == "" {
			typ = "half_t"
		}
		obj, ok := cli(t, "eval", fmt.Sprintf("gmma_atom(%s, %s)", c.kind, typ))
		var m map[string]any
		if !ok || json.Unmarshal([]byte(obj), &m) != nil {
			t.Errorf("%+v: cute eval gmma_atom: %s", c, obj)
			continue
		}
		eq(t, c.kind+": atom", got.Result, m["print"].(string))
		// The text starts with the gmma_desc call it answers.
		call, rest, _ := strings.Cut(got.Text, "\n")
		if !strings.HasPrefix(call, "gmma_desc("+c.kind+", "+typ+", ") {
			t.Errorf("%+v: the descriptor text starts %q", c, call)
		}
		d, ok := cli(t, "eval", call)
		var dm map[string]any
		if !ok || json.Unmarshal([]byte(d), &dm) != nil {
			t.Errorf("%+v: cute eval %s: %s", c, call, d)
			continue
		}
		eq(t, c.kind+": descriptor", rest, dm["print"].(string)+"slice: "+dm["slice"].(string))
		checkSVG(t, c.kind, got, m["print"].(string), "--color", "bank")
	}
	shot(t, ctx, "gmma", "Layout_K_SW128_Atom", nil)
}

func TestBanksView(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "?view=banks")
	cases := []struct{ smem, access string }{
		{"(_8,_64):(_64,_1)", "tv:(_32,_1):(_1,_0)"},
		{"Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "tv:(_32,_1):(_1,_0)"},
		{"(_8,_64):(_64,_1)", "ldsm:x4"},
		{"Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "ldsm:x4"},
		{"Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_64):(_64,_1)", "wgmma"},
		{"(_64,_64):(_64,_1)", "wgmma"},
	}
	for _, c := range cases {
		got := typeIn(t, ctx, "banks", c.smem, map[string]string{"access": c.access})
		if got.Error != "" {
			t.Errorf("%+v: page error %q", c, got.Error)
			continue
		}
		kind, arg, _ := strings.Cut(c.access, ":")
		args := []string{"banks", c.smem}
		switch kind {
		case "tv":
			args = append(args, "--tv", arg)
		case "ldsm":
			args = append(args, "--ldsm", arg)
		default:
			args = append(args, "--wgmma")
		}
		want, ok := cli(t, args...)
		if !ok {
			t.Errorf("%+v: cute banks failed: %s", c, want)
			continue
		}
		eq(t, c.smem+" "+c.access, got.Text, want)
		checkSVG(t, c.smem, got, c.smem, "--color", "bank")
	}
	shot(t, ctx, "banks", "(_8,_64):(_64,_1)", map[string]string{"access": "tv:(_32,_1):(_1,_0)"})
}

// TestLaTeX checks the copy button's LaTeX against cute latex.
func TestLaTeX(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "")
	cases := []struct {
		view, expr string
		opts       map[string]string
		cli        []string
	}{
		{"layout", "(_4,_8):(_8,_1)", nil, []string{"(_4,_8):(_8,_1)"}},
		{"layout", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", nil, []string{"Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"}},
		{"mma", "SM80_16x8x16_F32F16F16F32_TN", nil, []string{"SM80_16x8x16_F32F16F16F32_TN"}},
		{"copy", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", map[string]string{"thr": "(_32,_1):(_1,_0)", "val": "(_1,_8):(_0,_1)"},
			[]string{"Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "--thr", "(_32,_1):(_1,_0)", "--val", "(_1,_8):(_0,_1)"}},
	}
	for _, c := range cases {
		typeIn(t, ctx, c.view, c.expr, c.opts)
		var s string
		if err := chromedp.Run(ctx, chromedp.Evaluate(`window.cuteCopied = null`, nil), chromedp.Click(`button[data-copy="latex"]`, chromedp.ByQuery),
			chromedp.Poll(`window.cuteCopied`, &s)); err != nil {
			t.Fatalf("%s: copy LaTeX: %v", c.expr, err)
		}
		want, ok := cli(t, append([]string{"latex"}, c.cli...)...)
		if !ok || s != want {
			t.Errorf("%s: copied LaTeX (%d bytes) differs from cute latex (%d bytes, ok %v)", c.expr, len(s), len(want), ok)
		}
	}
}

// TestURLRoundTrip opens the URL a render left and checks the new tab
// shows the same thing.
func TestURLRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "")
	for _, c := range []struct {
		view, expr string
		opts       map[string]string
	}{
		{"layout", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", map[string]string{"color": "bank"}},
		{"copy", "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", map[string]string{"mma": "SM80_16x8x16_F32F16F16F32_TN", "operand": "B"}},
		{"layout", "logical_divide((_32,_24):(_1,_32), _8:_1) & more", nil},
	} {
		a := typeIn(t, ctx, c.view, c.expr, c.opts)
		i := strings.IndexByte(a.URL, '?')
		ctx2 := tab(t, a.URL[i:])
		b := read(t, ctx2)
		if a.Result != b.Result || a.SVG != b.SVG || a.Error != b.Error || a.Text != b.Text || a.URL != b.URL {
			t.Errorf("%s: the URL %s does not reproduce the page:\n first %+v\n again %+v", c.expr, a.URL, a, b)
		}
		var vals []string
		if err := chromedp.Run(ctx2, chromedp.Evaluate(`[document.getElementById("expr").value, document.querySelector("#views .active").dataset.view]`, &vals)); err != nil {
			t.Fatal(err)
		}
		if vals[0] != c.expr || vals[1] != c.view {
			t.Errorf("the URL reloads as %q, want %q in view %s", vals, c.expr, c.view)
		}
	}
}

// TestErrors checks errors are the library's message beside the input,
// and a huge layout is refused with the size limit, not drawn.
func TestErrors(t *testing.T) {
	t.Parallel()
	ctx := tab(t, "")
	for _, expr := range []string{"(_4,", "composition((_8,_8):(_8,_1), _2:_3)", "no_such_op(_4:_1)"} {
		got := typeIn(t, ctx, "layout", expr, nil)
		want, ok := cli(t, "eval", expr)
		if ok {
			t.Fatalf("%s: cute eval succeeded", expr)
		}
		eq(t, expr+": error", got.Error, want)
		if got.SVG != "" || got.Result != "" {
			t.Errorf("%s: an error still shows a result %q or picture", expr, got.Result)
		}
		var bad bool
		chromedp.Run(ctx, chromedp.Evaluate(`document.getElementById("expr").classList.contains("bad")`, &bad))
		if !bad {
			t.Errorf("%s: the input is not marked", expr)
		}
	}
	start := time.Now()
	got := typeIn(t, ctx, "layout", "(_4096,_4096):(_1,_4096)", nil)
	tableErr, _ := cli(t, "table", "(_4096,_4096):(_1,_4096)")
	svgErr, _ := cli(t, "svg", "(_4096,_4096):(_1,_4096)")
	if !strings.Contains(got.Notes, tableErr) || !strings.Contains(got.Notes, svgErr) || got.SVG != "" {
		t.Errorf("huge layout: notes %q, want %q and %q", got.Notes, tableErr, svgErr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("huge layout took %v", d)
	}
	got = typeIn(t, ctx, "tma", "anything", nil)
	if !strings.Contains(got.Error, "TMA") {
		t.Errorf("tma view: %q", got.Error)
	}
	shot(t, ctx, "error", "composition((_8,_8):(_8,_1), _2:_3)", nil)
}

// TestTimings logs the first-render time and the re-render time of a
// 128x64 swizzled layout.
func TestTimings(t *testing.T) {
	// Not parallel: it runs alone, before the parallel tests resume.
	ctx := tab(t, "?view=layout&expr="+strings.NewReplacer("<", "%3C", ">", "%3E", " ", "+", ",", "%2C").Replace("Sw<3,4,3> o _0 o (_128,_64):(_64,_1)")+"&color=bank")
	var tm map[string]float64
	if err := chromedp.Run(ctx, chromedp.Evaluate(`window.cuteTimings`, &tm)); err != nil {
		t.Fatal(err)
	}
	var ms []float64
	for range 3 {
		var v float64
		if err := chromedp.Run(ctx, chromedp.Evaluate(`(() => { window.cuteRerender(); return window.cuteTimings.lastRender; })()`, &v)); err != nil {
			t.Fatal(err)
		}
		ms = append(ms, v)
	}
	sort.Float64s(ms)
	s := read(t, ctx)
	if s.Error != "" || !strings.Contains(s.Result, "(_128,_64)") || s.SVGElems < 128*64 {
		t.Fatalf("128x64: %q %q, %d SVG elements", s.Result, s.Error, s.SVGElems)
	}
	var split map[string]float64
	chromedp.Run(ctx, chromedp.Evaluate(`window.cuteTimings`, &split))
	t.Logf("last re-render: %.1f ms in the module (Go + JSON), %.1f ms in the DOM", split["call"], split["dom"])
	var big state
	big = typeIn(t, ctx, "layout", "(_256,_256):(_256,_1)", nil)
	if big.SVG != "" || !strings.Contains(big.Notes, "at most 32768 cells") {
		t.Errorf("256x256: drawn, or notes %q", big.Notes)
	}
	t.Logf("wasm fetch+instantiate %.0f ms; first render done %.0f ms after navigation start; re-render of Sw<3,4,3> o _0 o (_128,_64):(_64,_1) (bank colours, %d SVG elements, %d bytes): median %.1f ms (min %.1f, max %.1f)",
		tm["wasmLoaded"], tm["firstRender"], s.SVGElems, len(s.SVG), ms[len(ms)/2], ms[0], ms[len(ms)-1])
}

// shot renders one view and keeps a screenshot in $CUTE_SCREENSHOTS.
func shot(t *testing.T, ctx context.Context, name, expr string, opts map[string]string) {
	t.Helper()
	dir := os.Getenv("CUTE_SCREENSHOTS")
	if dir == "" {
		return
	}
	view, _, _ := strings.Cut(name, "-")
	if view == "error" {
		view = "layout"
	}
	typeIn(t, ctx, view, expr, opts)
	var png []byte
	if err := chromedp.Run(ctx, chromedp.FullScreenshot(&png, 100)); err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
