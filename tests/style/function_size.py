#!/usr/bin/env python3
"""Function length and complexity of the generator (gen/**/*.c) and the runtime (runtime/threadlink,
every module implemented), measured with pmccabe: a report of the longest and most complex
functions, and a failure when more functions pass a bound than the ratchet below allows.

The goal (issue 32): none over 100 lines, none over a cyclomatic complexity of 40, fewer than 10
over 20. The ratchet holds today's counts, so a change may only lower them: lower the numbers as
functions are split.
    function_size.py SOURCE_ROOT
"""
import glob
import os
import re
import subprocess
import sys

# The counts as they stand: (over 100 lines, complexity over 40, complexity over 20), per part.
RATCHET = {'gen': (0, 0, 7), 'runtime': (0, 0, 4)}
GOAL = (0, 0, 9)


def pmccabe(paths):
    """Rows (complexity, lines, where) of every function in `paths`."""
    out = subprocess.run(['pmccabe'] + paths, capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        f = line.split('\t')
        if len(f) >= 6:
            rows.append((int(f[0]), int(f[4]), f[5]))
    return rows


def runtime_rows(root):
    """The runtime's functions: the umbrella header preprocessed with every implementation switch
    on, and content.h's development mode (TL_CONTENT_LIVE, content.h's live part) too (pmccabe does not
    follow the headers' #if blocks), its own lines kept, each function named by its header and
    line."""
    src = '#define _XOPEN_SOURCE 700\n#define TL_CONTENT_LIVE\n#define TL_IMPLEMENTATION\n#include <threadlink/threadlink.h>\n'
    pre = subprocess.run(['cc', '-std=gnu11', '-E', '-I' + os.path.join(root, 'runtime'), '-x', 'c', '-'],
                         input=src, capture_output=True, text=True, check=True).stdout
    kept, origin, cur, at = [], [], None, 0
    for line in pre.splitlines():
        m = re.match(r'# (\d+) "([^"]+)"', line)
        if m:
            at, cur = int(m.group(1)), m.group(2)
            continue
        if cur and '/runtime/threadlink/' in cur:
            kept.append(line)
            origin.append('%s:%d' % (os.path.relpath(cur, root), at))
        at += 1
    path = os.path.join(os.environ.get('TMPDIR', '/tmp'), 'tl-function-size-%d.c' % os.getpid())
    with open(path, 'w') as f:
        f.write('\n'.join(kept) + '\n')
    try:
        rows = pmccabe([path])
    finally:
        os.unlink(path)
    named = []
    for cx, n, where in rows:
        m = re.match(r'.*\((\d+)\): (.*)', where)
        named.append((cx, n, '%s %s' % (origin[int(m.group(1)) - 1], m.group(2))))
    return named


def report(part, rows, limit):
    counts = (sum(n > 100 for _, n, _ in rows), sum(cx > 40 for cx, _, _ in rows), sum(cx > 20 for cx, _, _ in rows))
    print('%s: %d functions; over 100 lines %d, complexity over 40 %d, over 20 %d '
          '(ratchet %d/%d/%d, goal %d/%d/at most %d)' % ((part, len(rows)) + counts + limit + GOAL))
    for cx, n, where in sorted(rows, key=lambda r: (-r[1], -r[0]))[:8]:
        print('  %4d lines  complexity %3d  %s' % (n, cx, where))
    over = [name for name, c, l in zip(('over 100 lines', 'over 40', 'over 20'), counts, limit) if c > l]
    for name in over:
        print('FAIL: %s: more functions %s than the ratchet allows: split the new one' % (part, name))
    return not over


def main():
    root = os.path.abspath(sys.argv[1])
    if subprocess.run(['sh', '-c', 'command -v pmccabe'], capture_output=True).returncode != 0:
        print('skip: pmccabe is not installed (Debian package pmccabe)')
        return 1 if os.environ.get('CI') == 'true' else 77
    gen = pmccabe(sorted(glob.glob(os.path.join(root, 'gen', '**', '*.c'), recursive=True)))
    gen = [(cx, n, os.path.relpath(w, root)) for cx, n, w in gen]
    ok = report('gen', gen, RATCHET['gen'])
    ok = report('runtime', runtime_rows(root), RATCHET['runtime']) and ok
    print('function sizes: %s' % ('within the ratchet' if ok else 'over the ratchet'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
