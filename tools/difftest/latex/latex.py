#!/usr/bin/env python3
"""Differential test of the print_latex family against the real CuTe 3.5.1 headers.

Generates print_latex cases of the latex golden vectors' ops (MMA atoms,
TiledMMAs, layouts, (layout, thrid) pairs), prints each with CuTe compiled
host-only, answers each with `cute golden`, and compares the texts byte for
byte. Development tool, not run by CI.

    go build -o /tmp/cute ./cmd/cute
    python3 tools/difftest/latex/latex.py --include CUTLASS/include --stub STUB [--cute /tmp/cute]

STUB holds the CUDA stub headers of tools/difftest (plus an empty cuda.h).
"""
import argparse, json, os, random, re, subprocess, sys, tempfile

def cpp_atom(name):
    m = re.match(r'^(.*)<(K|MN),(K|MN)>$', name)
    if m:
        return '%s<GMMA::Major::%s,GMMA::Major::%s>' % m.groups()
    return name

def cases(cute, rng, gmma, ncopy):
    names = subprocess.run(['go', 'run', './tools/difftest/mma/listatoms'], capture_output=True, text=True, check=True).stdout.split()
    plain = [n for n in names if not n.startswith('SM90_64x')]
    big = [n for n in names if n.startswith('SM90_64x')]
    out = [('print_latex_mma_atom', [n]) for n in plain]
    out += [('print_latex_mma_atom', [n]) for n in rng.sample(big, min(gmma, len(big)))]
    layouts = ['default', 'Layout<Shape<_2,_1,_1>>', 'Layout<Shape<_1,_2,_1>>', 'Layout<Shape<_2,_2,_1>>',
               'Layout<Shape<_2,_2>,Stride<_2,_1>>', 'Layout<Shape<_4,_1,_1>>', 'Layout<Shape<_1,_1,_2>>']
    for n in rng.sample(plain, 25):
        for al in rng.sample(layouts, 2):
            out.append(('print_latex_tiled_mma', [n, al, 'default']))
    out += [('print_latex_tiled_mma', a) for a in [
        ['SM70_8x8x4_F32F16F16F32_NT', 'default', 'Tile<_8,_8,_4>'],
        ['SM70_8x8x4_F32F16F16F32_TN', 'default', 'Tile<_8,_8,_4>'],
        ['SM70_8x8x4_F16F16F16F16_NT', 'Layout<Shape<_2,_1,_1>>', 'Tile<_16,_8,_4>'],
        ['SM70_8x8x4_F32F16F16F32_NT', 'Layout<Shape<_2,_2>,Stride<_2,_1>>', 'Tile<_32,_32,_4>'],
        ['SM80_16x8x16_F32F16F16F32_TN', 'Layout<Shape<_2,_2,_1>>', 'Tile<_32,Layout<Shape<_8,_2,_2>,Stride<_1,_16,_8>>,_16>'],
        ['SM80_16x8x8_F32TF32TF32F32_TN', 'Layout<Shape<_2,_2,_1>>', 'Tile<_32,_32,_8>'],
        ['SM90_64x64x16_F16F16F16_SS<K,K>', 'Layout<Shape<_2,_1,_1>>', 'default'],
        ['UniversalFMA<float,float,float>', 'Layout<Shape<_16,_8,_1>>', 'default'],
        ['UniversalFMA<float,float,float>', 'Layout<Shape<_8,_2,_1>,Stride<_2,_1,_0>>', 'default'],
    ]]
    for _ in range(20):
        m, n = rng.choice([2, 3, 4, 8]), rng.choice([1, 2, 4, 8])
        st = rng.choice([(1, m), (n, 1), (2, 2*m), (0, 1)])
        out.append(('print_latex', ['(_%d,_%d):(_%d,_%d)' % (m, n, st[0], st[1])]))
    for sw in ['Sw<1,4,3> o smem_ptr[16b](unset) o (_8,_16):(_16,_1)', 'Sw<2,4,3> o smem_ptr[32b](unset) o (_8,_32):(_32,_1)',
               'Sw<3,4,3> o smem_ptr[8b](unset) o (_8,_128):(_128,_1)', 'Sw<2,2,3> o _0 o (_16,_8):(_1,_16)',
               'Sw<1,1,1> o _0 o _8:_1', 'Sw<1,1,1> o _0 o (_8):(_1)', 'Sw<1,4,3> o smem_ptr[16b](unset) o _16:_1',
               '(4,(2,2)):(1,(4,8))', '_6:_2']:
        out.append(('print_latex', [sw]))
    for tv, thr in [('(_4,_8):(_1,_4)', '_2:_1'), ('((_2,_2),(_2,_2)):((_1,_4),(_2,_8))', '_4:_1'),
                    ('(_8,_4):(_4,_1)', '(_4,_2):(_1,_16)'), ('(_2,_8):(_8,_1)', '_4:_2')]:
        out.append(('print_latex_tv', [tv, thr]))
    specs = []
    for l in open('testdata/golden/copy/tiledcopy.jsonl'):
        d = json.loads(l)
        if d['op'].startswith('make_tiled_copy'):
            tl = re.sub(r':\([^)]*\)|:_\d+', '', d['out']['Tiler_MN'])
            cells = 1
            for x in re.findall(r'\d+', tl):
                cells *= int(x)
            depth, commas = 0, 0
            for ch in tl:
                depth += ch == '('
                depth -= ch == ')'
                commas += ch == ',' and depth == 1
            if cells <= 4096 and commas == 1:  # print_latex_copy static_asserts rank 2
                specs.append([d['op']] + d['args'])
    out += [('print_latex_tiled_copy', a) for a in rng.sample(specs, min(ncopy, len(specs)))]
    return out

def cpp_copy(spec):
    b = spec[0]
    atom = 'Copy_Atom<%s,%s>{}' % (spec[1], spec[2])
    if b == 'make_tiled_copy':
        return 'make_tiled_copy(%s, %s, %s)' % (atom, cpp_layout(spec[3]), cpp_layout(spec[4]))
    if b in ('make_tiled_copy_S', 'make_tiled_copy_D'):
        return '%s(%s, %s)' % (b, atom, cpp_copy(spec[3:]))
    a, al, perm = spec[3:6]
    s = 'make_tiled_mma(%s{}' % cpp_atom(a)
    if al != 'default' or perm != 'default':
        s += ', %s{}' % (al if al != 'default' else 'Layout<Shape<_1,_1,_1>>')
    if perm != 'default':
        s += ', %s{}' % perm
    return '%s(%s, %s)' % (b, atom, s + ')')

def cpp_expr(op, args):
    def tiled(a, al, perm):
        s = 'make_tiled_mma(%s{}' % cpp_atom(a)
        if al != 'default' or perm != 'default':
            s += ', %s{}' % (al if al != 'default' else 'Layout<Shape<_1,_1,_1>>')
        if perm != 'default':
            s += ', %s{}' % perm
        return s + ')'
    if op == 'print_latex_mma_atom':
        return 'print_latex(MMA_Atom<%s>{})' % cpp_atom(args[0])
    if op == 'print_latex_tiled_mma':
        return 'print_latex(%s)' % tiled(*args)
    if op == 'print_latex':
        return 'print_latex(%s)' % cpp_value(args[0])
    if op == 'print_latex_tiled_copy':
        return 'print_latex(%s)' % cpp_copy(args)
    if op == 'print_latex_tv':
        return 'print_latex(%s, %s)' % (cpp_value(args[0]), cpp_value(args[1]))
    raise ValueError(op)

def cpp_tuple(s):
    s = s.strip()
    if s.startswith('('):
        depth, parts, cur = 0, [], ''
        for c in s[1:-1]:
            if c == ',' and depth == 0:
                parts.append(cur); cur = ''
                continue
            depth += c == '('
            depth -= c == ')'
            cur += c
        parts.append(cur)
        return 'make_shape(%s)' % ','.join(cpp_tuple(p) for p in parts)
    return 'Int<%s>{}' % s[1:] if s.startswith('_') else 'int(%s)' % s

def cpp_layout(s):
    sh, st = s.split(':')
    return 'make_layout(%s, %s)' % (cpp_tuple(sh), cpp_tuple(st))

def cpp_value(s):
    m = re.match(r'^Sw<(\d+),(\d+),(\d+)> o smem_ptr\[(\d+)b\]\(unset\) o (.*)$', s)
    if m:
        return 'composition(Swizzle<%s,%s,%s>{}, smem_ptr_flag_bits<%s>{}, %s)' % (m[1], m[2], m[3], m[4], cpp_layout(m[5]))
    m = re.match(r'^Sw<(\d+),(\d+),(\d+)> o _0 o (.*)$', s)
    if m:
        return 'composition(Swizzle<%s,%s,%s>{}, Int<0>{}, %s)' % (m[1], m[2], m[3], cpp_layout(m[4]))
    return cpp_layout(s)

PRELUDE = '#include <cstdio>\n#include <cute/tensor.hpp>\n#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/copy_atom.hpp>\nusing namespace cute;\n'

def run_cpp(cs, inc, stub, work):
    src = PRELUDE + 'int main() {\n' + ''.join(
        '  printf("@@CASE %d\\n"); %s;\n' % (i, cpp_expr(op, a)) for i, (op, a) in cs) + '}\n'
    cpp, exe = os.path.join(work, 'b.cpp'), os.path.join(work, 'b')
    open(cpp, 'w').write(src)
    r = subprocess.run(['g++', '-std=c++17', '-O0', '-w', '-I' + inc, '-I' + stub,
                        '-DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED', cpp, '-o', exe], capture_output=True, text=True)
    if r.returncode != 0:
        if len(cs) == 1:
            return {cs[0][0]: None}
        h = len(cs) // 2
        return {**run_cpp(cs[:h], inc, stub, work), **run_cpp(cs[h:], inc, stub, work)}
    out = subprocess.run([exe], capture_output=True).stdout.replace(b'\0', b'').decode()
    res = {}
    for chunk in out.split('@@CASE ')[1:]:
        i, _, text = chunk.partition('\n')
        res[int(i)] = text
    return res

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--include', required=True)
    ap.add_argument('--stub', required=True)
    ap.add_argument('--cute', default='/tmp/cute')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--gmma', type=int, default=12)
    ap.add_argument('--copies', type=int, default=120)
    ap.add_argument('--only', default='', help='comma-separated ops to run')
    ap.add_argument('--batch', type=int, default=40)
    a = ap.parse_args()
    cs = cases(a.cute, random.Random(a.seed), a.gmma, a.copies)
    if a.only:
        cs = [c for c in cs if c[0] in a.only.split(',')]
    cs = list(enumerate(cs))
    work = tempfile.mkdtemp()
    want = {}
    for b in range(0, len(cs), a.batch):
        want.update(run_cpp(cs[b:b + a.batch], a.include, a.stub, work))
    lines = '\n'.join(json.dumps({'op': op, 'args': args}) for _, (op, args) in cs) + '\n'
    got = subprocess.run([a.cute, 'golden'], input=lines, capture_output=True, text=True).stdout.splitlines()
    counts = {}
    for (i, (op, args)), g in zip(cs, got):
        g = json.loads(g)
        w = want.get(i)
        if w is None:
            st = 'cute_rejects' if 'error' not in g else 'both_reject'
        elif 'error' in g:
            st = 'we_error'
        else:
            st = 'match' if g['got']['latex'] == w else 'mismatch'
        counts[(op, st)] = counts.get((op, st), 0) + 1
        if st not in ('match', 'both_reject'):
            print(st, op, args, g.get('error', ''), file=sys.stderr)
    for k in sorted(counts):
        print('%-24s %-14s %d' % (k[0], k[1], counts[k]))

main()
