#!/usr/bin/env python3
"""The build targets one test suite needs, one path per line relative to the build directory, for
`ninja -C BUILDDIR $(suite_targets.py BUILDDIR SUITE)`: run-all.sh builds only these in its
sanitizer build, whose instrumented compiles are the slowest of the run and of which the other
suites' programs (examples, benchmarks, fuzzers, the game) are not needed.
    suite_targets.py BUILDDIR SUITE
"""
import json
import os
import subprocess
import sys


def introspect(builddir, what):
    out = subprocess.run(['meson', 'introspect', builddir, '--' + what],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def suite_targets(builddir, suite):
    """Files of every target a test of `suite` depends on (its program included)."""
    targets = {t['id']: t for t in introspect(builddir, 'targets')}
    ids = set()
    for test in introspect(builddir, 'tests'):
        if any(s == suite or s.endswith(':' + suite) for s in test['suite']):
            ids.update(test['depends'])
    root = os.path.abspath(builddir)
    return sorted(os.path.relpath(f, root) for i in ids for f in targets[i]['filename'])


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: suite_targets.py BUILDDIR SUITE')
    paths = suite_targets(sys.argv[1], sys.argv[2])
    if not paths:
        sys.exit('suite_targets.py: no test of suite %r in %s' % (sys.argv[2], sys.argv[1]))
    print('\n'.join(paths))


if __name__ == '__main__':
    main()
