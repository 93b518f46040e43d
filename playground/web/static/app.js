// The playground page: plain JavaScript, no framework. Every answer comes
// from cuteRender, the Go library compiled to WebAssembly (playground/wasm).

const $ = (id) => document.getElementById(id);
// The options under the expression, in page order: id, label, the views that
// show it, and the input's size and placeholder, or the choices of a select.
const OPTIONS = [
  ["color", "colour", "layout gmma banks mma copy", ["offset", "chunk", "bank"]],
  ["bits", "elem bits", "layout banks", 4, "16"],
  ["atoms", "atoms", "mma copy", 12, "(_2,_2,_1)"],
  ["perm", "perm", "mma copy", 16, "<_32,_32,_16>"],
  ["thr", "thr", "copy", 16, "(_32,_1):(_1,_0)"],
  ["val", "val", "copy", 16, "(_1,_8):(_0,_1)"],
  ["mma", "mma", "copy", 30, "SM80_16x8x16_F32F16F16F32_TN"],
  ["operand", "operand", "mma copy", 6, "A|B|C"],
  ["type", "type", "gmma tma", 10, "half_t"],
  ["gmem", "gmem", "tma", 26, "(5120,4096):(_1,5120)"],
  ["tiler", "CTA tiler", "tma", 12, "shape of smem"],
  ["target", "target", "gmma", 10, "(64,64,1)"],
  ["tile", "tile", "gmma", 8, "(64,16)"],
  ["coord", "coord", "gmma", 8, "(0,0,0)"],
  ["addr", "addr", "gmma", 8, "0x400"],
  ["access", "access", "banks", 28, "ldsm:x4 | wgmma | tv:(_32,_1):(_1,_0)"],
];
const OPTS = OPTIONS.map((o) => o[0]);

// buildOptions writes the OPTIONS into #opts: a label per option, shown in
// its views (setView), holding an input, or a select whose first choice is
// the empty default.
function buildOptions() {
  for (const [id, text, views, size, placeholder] of OPTIONS) {
    let el;
    if (Array.isArray(size)) {
      el = document.createElement("select");
      for (const [value, label] of [["", "default"], ...size.map((c) => [c, c])]) el.add(new Option(label, value));
    } else {
      el = document.createElement("input");
      el.size = size;
      el.placeholder = placeholder;
    }
    el.id = id;
    const l = document.createElement("label");
    l.dataset.for = views;
    l.append(text + " ", el);
    $("opts").append(l);
  }
}

const EXAMPLES = {
  layout: [
    "(_4,_8):(_8,_1)",
    "logical_divide((_32,_24):(_1,_32), _8:_1)",
    "composition((_4,_3):(_3,_1), (_6,_2):(_2,_1))",
    "blocked_product((_2,_2):(_1,_2), (_3,_4):(_1,_3))",
    "raked_product((_2,_2):(_1,_2), (_3,_4):(_1,_3))",
    "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
    "Sw<3,3,3> o smem_ptr[16b](unset) o (_64,_64):(_64,_1)",
    "complement(_4:_2, _24)",
  ],
  mma: ["SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F16F16F16F16_TN", "SM70_8x8x4_F32F16F16F32_NT", "UniversalFMA<float,float,float,float>"],
  copy: ["Copy_Atom<SM75_U32x4_LDSM_N,half_t>", "Copy_Atom<UniversalCopy<uint128_t>,half_t>", "Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t>"],
  gmma: ["Layout_K_SW128_Atom", "Layout_K_SW64_Atom", "Layout_K_SW32_Atom", "Layout_MN_SW128_Atom", "Layout_K_INTER_Atom"],
  banks: ["(_8,_64):(_64,_1)", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_64):(_64,_1)"],
  tma: ["Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_64):(_1,_64)", "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_64):(_64,_1)", "Sw<2,4,3> o smem_ptr[16b](unset) o (_32,_64):(_1,_32)", "(_64,_32):(_1,_64)"],
};
const DEFAULT = { layout: "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", mma: "SM80_16x8x16_F32F16F16F32_TN", copy: "Copy_Atom<SM75_U32x4_LDSM_N,half_t>", gmma: "Layout_K_SW128_Atom", banks: "(_8,_64):(_64,_1)", tma: "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_64):(_1,_64)" };
const LABEL = { layout: "Expression", mma: "MMA atom", copy: "Copy atom", gmma: "GMMA smem atom", banks: "Shared-memory tile", tma: "TMA smem layout" };

let view = "layout";
let last = null; // the last request and response
window.cuteTimings = {};

function request(latex) {
  const r = { view, expr: $("expr").value };
  for (const o of OPTS) {
    const el = $(o);
    if (el.closest("label").style.display !== "none" && el.value.trim() !== "") r[o] = el.value.trim();
  }
  if (latex) r.latex = true;
  return r;
}

function call(req) {
  return JSON.parse(globalThis.cuteRender(JSON.stringify(req)));
}

function setView(v, keepExpr) {
  if (!(v in EXAMPLES)) v = "layout";
  view = v;
  for (const b of document.querySelectorAll("#views button")) b.classList.toggle("active", b.dataset.view === v);
  for (const l of document.querySelectorAll("#opts label")) l.style.display = l.dataset.for.split(" ").includes(v) ? "" : "none";
  $("exprlabel").textContent = LABEL[v];
  const ex = $("examples");
  ex.innerHTML = '<option value="">examples…</option>';
  for (const e of EXAMPLES[v]) { const o = document.createElement("option"); o.textContent = e; ex.appendChild(o); }
  if (!keepExpr) $("expr").value = DEFAULT[v];
}

function saveURL() {
  const p = new URLSearchParams();
  p.set("view", view);
  p.set("expr", $("expr").value);
  for (const o of OPTS) {
    const el = $(o);
    if (el.closest("label").style.display !== "none" && el.value.trim() !== "") p.set(o, el.value.trim());
  }
  history.replaceState(null, "", "?" + p.toString());
}

function loadURL() {
  const p = new URLSearchParams(location.search);
  setView(p.get("view") || "layout", p.has("expr"));
  if (p.has("expr")) $("expr").value = p.get("expr");
  for (const o of OPTS) $(o).value = p.get(o) || "";
}

function render() {
  const t0 = performance.now();
  const req = request(false);
  const resp = call(req);
  const t1 = performance.now();
  last = { req, resp };
  window.cuteLast = last;
  const err = resp.error || "";
  $("error").textContent = err;
  $("expr").classList.toggle("bad", err !== "");
  $("result").textContent = resp.result || "";
  $("text").textContent = resp.text || "";
  $("table").textContent = resp.table || "";
  $("explain").textContent = resp.explain || "";
  $("explainbox").style.display = resp.explain ? "" : "none";
  $("svg").innerHTML = resp.svg || "";
  const notes = $("notes");
  notes.innerHTML = "";
  for (const n of resp.notes || []) { const li = document.createElement("li"); li.textContent = n; notes.appendChild(li); }
  saveURL();
  const t2 = performance.now();
  const ms = t2 - t0;
  window.cuteTimings.call = t1 - t0;
  window.cuteTimings.dom = t2 - t1;
  window.cuteTimings.lastRender = ms;
  if (window.cuteTimings.firstRender === undefined) window.cuteTimings.firstRender = performance.now();
  $("status").textContent = `rendered in ${ms.toFixed(1)} ms`;
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
}

async function copy(kind) {
  if (!last) return;
  let s = "";
  if (kind === "text") s = [last.resp.result, last.resp.text, last.resp.table].filter(Boolean).join("\n");
  if (kind === "svg") s = last.resp.svg || "";
  if (kind === "latex") { const r = call({ ...last.req, latex: true }); s = r.latex || r.error || (r.notes || []).join("\n"); }
  window.cuteCopied = s;
  try { await navigator.clipboard.writeText(s); $("status").textContent = `copied ${kind} (${s.length} bytes)`; }
  catch (e) { $("status").textContent = `copy ${kind}: ${e}`; }
}

let timer = 0;
function later() { clearTimeout(timer); timer = setTimeout(render, 250); }

async function start() {
  const t0 = performance.now();
  const go = new Go();
  const res = await WebAssembly.instantiateStreaming(fetch("cute.wasm"), go.importObject);
  go.run(res.instance);
  window.cuteTimings.wasmLoaded = performance.now() - t0;
  loadURL();
  for (const b of document.querySelectorAll("#views button")) b.onclick = () => { setView(b.dataset.view, false); for (const o of OPTS) $(o).value = ""; render(); };
  $("go").onclick = render;
  $("expr").addEventListener("keydown", (e) => { if (e.key === "Enter") { clearTimeout(timer); render(); } });
  $("expr").addEventListener("input", later);
  for (const o of OPTS) $(o).addEventListener("input", later);
  $("examples").onchange = () => { if ($("examples").value) { $("expr").value = $("examples").value; render(); } };
  for (const b of document.querySelectorAll("button.copy")) b.onclick = () => copy(b.dataset.copy);
  render();
  window.cuteRerender = render;
  document.body.dataset.ready = "1";
}

buildOptions();
start().catch((e) => { $("error").textContent = "could not start the WebAssembly module: " + e; });
