"""What gen*.py and compare*.py share: the program around the generated cases,
reading back each case's output, and running `cute golden` on the lines."""
import json, re, subprocess

HEADER = ['#include <cute/tensor.hpp>', '#include <cute/atom/copy_traits_sm90_tma.hpp>',
          '#include <cute/atom/mma_traits_sm90_gmma.hpp>', 'using namespace cute;']


def write_program(seed, cases, bodies):
    """Writes rnd/r{seed}.cpp (one case_i() per body, main() running case argv[1]) and rnd/r{seed}.json."""
    src = HEADER + bodies
    src.append('int main(int argc, char** argv) { int i = atoi(argv[1]); switch(i) {')
    src += [f'case {i}: case_{i}(); break;' for i in range(len(cases))]
    src.append('} }')
    open(f'rnd/r{seed}.cpp', 'w').write('\n'.join(src))
    json.dump(cases, open(f'rnd/r{seed}.json', 'w'))


def outputs(seed):
    """Yields (i, case, rc, sections) for every case that ran: its '@@'-separated printed sections."""
    cases = json.load(open(f'rnd/r{seed}.json'))
    for i, c in enumerate(cases):
        try:
            out = open(f'rnd/r{seed}.{i}.out').read().replace('\0', '')
        except FileNotFoundError:
            continue
        rc = int(re.search(r'rc=(\d+)', out).group(1))
        out = out[:out.rindex('rc=')]
        yield i, c, rc, out.split('\n@@\n')


def golden(lines):
    """The answers of `cute golden` (/tmp/cute) to the cases lines."""
    r = subprocess.run(['/tmp/cute', 'golden'], input='\n'.join(json.dumps(l) for l in lines), capture_output=True, text=True)
    return [json.loads(x) for x in r.stdout.splitlines()]
