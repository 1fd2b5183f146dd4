#!/usr/bin/env python3
"""The generator's sources have one list, gen/sources.txt, that both builds read: gen/meson.build
(fs.read) and CMakeLists.txt (file(STRINGS)). A .c or .re file under gen/ that the list leaves out
would be built by neither; a listed file that does not exist breaks both. Likewise init's templates
and templates/init/files.txt, which both builds embed.

  gen_sources.py SOURCE_ROOT               check; one 'file: error: ...' per problem
  gen_sources.py --self-test SOURCE_ROOT   plant each problem in a copy and expect it reported
"""
import os
import shutil
import sys
import tempfile

LIST = 'gen/sources.txt'
# The program's own file: each build names it beside the library (it is not part of it).
PROGRAM = {'main.c'}
READERS = {'gen/meson.build': "fs.read('sources.txt')", 'CMakeLists.txt': 'gen/sources.txt'}
# So are init's templates, which both builds embed (gen/embed.py): templates/init/files.txt.
INIT_LIST = 'templates/init/files.txt'
INIT_READERS = {'gen/meson.build': "fs.read('../templates/init/files.txt')", 'CMakeLists.txt': INIT_LIST}


def listed(root, name=LIST):
    """A list's entries (relative to its folder), in order."""
    with open(os.path.join(root, name), encoding='utf-8') as f:
        lines = [line.strip() for line in f]
    return [line for line in lines if line and not line.startswith('#')]


def on_disk(root):
    """Every .c and .re file below gen/, relative to gen/."""
    found = set()
    for dirpath, _, names in os.walk(os.path.join(root, 'gen')):
        for name in names:
            if name.endswith(('.c', '.re')):
                found.add(os.path.relpath(os.path.join(dirpath, name), os.path.join(root, 'gen')))
    return found


def problems(root):
    out = []
    entries = listed(root)
    seen = set()
    for entry in entries:
        if entry in seen:
            out.append('%s: error: %s is listed twice' % (LIST, entry))
        seen.add(entry)
        if not os.path.isfile(os.path.join(root, 'gen', entry)):
            out.append('%s: error: %s does not exist' % (LIST, entry))
    for path in sorted(on_disk(root) - seen - PROGRAM):
        out.append('gen/%s: error: in neither build: add it to %s' % (path, LIST))
    for reader, needle in READERS.items():
        path = os.path.join(root, reader)
        if not os.path.exists(path) or needle not in open(path, encoding='utf-8').read():
            out.append('%s: error: does not read %s' % (reader, LIST))
    return out + init_problems(root)


def init_problems(root):
    """templates/init/: every file listed, every listed file there, and both builds reading it."""
    out = []
    folder = os.path.dirname(INIT_LIST)
    entries = listed(root, INIT_LIST)
    for entry in entries:
        if not os.path.isfile(os.path.join(root, folder, entry)):
            out.append('%s: error: %s does not exist' % (INIT_LIST, entry))
    for dirpath, _, names in os.walk(os.path.join(root, folder)):
        for name in names:
            rel = os.path.relpath(os.path.join(dirpath, name), os.path.join(root, folder))
            if rel != os.path.basename(INIT_LIST) and rel not in entries:
                out.append('%s/%s: error: not embedded: add it to %s' % (folder, rel, INIT_LIST))
    for reader, needle in INIT_READERS.items():
        path = os.path.join(root, reader)
        if not os.path.exists(path) or needle not in open(path, encoding='utf-8').read():
            out.append('%s: error: does not read %s' % (reader, INIT_LIST))
    return out


def self_test(root):
    plants = [
        (lambda t: open(os.path.join(t, 'gen/core/planted.c'), 'w').close(),
         'gen/core/planted.c: error: in neither build: add it to gen/sources.txt'),
        (lambda t: open(os.path.join(t, LIST), 'a').write('core/gone.c\n'),
         'gen/sources.txt: error: core/gone.c does not exist'),
        (lambda t: open(os.path.join(t, LIST), 'a').write('stages.c\n'),
         'gen/sources.txt: error: stages.c is listed twice'),
        (lambda t: open(os.path.join(t, 'CMakeLists.txt'), 'w').write('# templates/init/files.txt\n'),
         'CMakeLists.txt: error: does not read gen/sources.txt'),
        (lambda t: open(os.path.join(t, 'templates/init/extra.txt'), 'w').close(),
         'templates/init/extra.txt: error: not embedded: add it to templates/init/files.txt'),
    ]
    ok = True
    for plant, expected in [(lambda t: None, None)] + plants:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(root, 'gen'), os.path.join(tmp, 'gen'))
            shutil.copytree(os.path.join(root, 'templates'), os.path.join(tmp, 'templates'))
            shutil.copy(os.path.join(root, 'CMakeLists.txt'), tmp)
            plant(tmp)
            got = problems(tmp)
        want = [expected] if expected else []
        if got != want:
            print('self-test: expected %s, got %s' % (want, got))
            ok = False
    return ok


def main(argv):
    if len(argv) == 3 and argv[1] == '--self-test':
        return 0 if self_test(argv[2]) else 1
    if len(argv) != 2:
        print(__doc__)
        return 2
    found = problems(argv[1])
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
