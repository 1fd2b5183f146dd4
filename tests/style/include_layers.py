#!/usr/bin/env python3
"""The generator's include directions (issue 32): gen/ is laid out by layer, and a file may
include only its own layer and the layers ALLOWED lists for it. A file's layer is its folder
under gen/ (gen/base/diag.c is in base); the files in gen/ itself (main.c, the stage registry
stages.c, watch.c) are the top. Every include of a generator header names its layer
("base/diag.h"): one include directory, gen/, serves them all.

  include_layers.py SOURCE_ROOT               check; one 'file:line: error: ...' per problem
  include_layers.py --self-test SOURCE_ROOT   plant bad includes in a copy and expect each reported
"""
import os
import re
import shutil
import sys
import tempfile

LAYERS = ('base', 'core', 'content', 'vault', 'l10n', 'pack', 'input')
# Who may include whom (each row: the layers the file's layer may include).
ALLOWED = {
    'base': {'base'},                              # nothing threadlink-specific
    'core': {'base', 'core'},                      # config, domains, identity, emitters, pipeline
    'content': {'base', 'core', 'content'},        # content profiles and catalogs: the content stage
    'vault': {'base', 'core', 'vault'},            # vaults need nothing of content today
    'l10n': {'base', 'core', 'l10n'},              # localised text (its tables reach content through the project)
    'pack': {'base', 'core', 'content', 'pack'},   # threadlink-gen pack, a client of generate
    'input': {'base', 'core', 'input'},            # the action map (issue 44)
    'top': {'base', 'core', 'content', 'vault', 'l10n', 'pack', 'input', 'top'},  # the commands and the stage registry
}
# The only sources in gen/ itself: every other one is in a layer.
TOP = {'main.c', 'stages.c', 'watch.c', 'watch.h'}
# Headers the build makes in gen/'s build folder, by who may include them.
GENERATED = {
    'tlg_version.h': set(ALLOWED),  # the version macro, for banners: any layer
    'tlg_build_id.h': {'top'},      # made from the library's objects, so only main.c may
}
# Headers private to some files, wherever the includer is (tests and examples too).
PACK_FILES = re.compile(r'^gen/pack/pack[a-z_]*\.[ch]$')
PRIVATE = {
    'pack/pack_internal.h': (PACK_FILES, 'the pack files, gen/pack/pack*.c'),
    'pack/pack_lock.h': (PACK_FILES, 'the pack files, gen/pack/pack*.c'),
}
# Outside gen/, where the private headers are looked for.
OUTSIDE = ('tests', 'examples', 'tools')
SOURCE = re.compile(r'.*\.(c|h|re|cc|cpp)$')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(root, top):
    for folder, dirs, files in os.walk(os.path.join(root, top)):
        dirs[:] = sorted(d for d in dirs if not d.startswith(('build', '.')))
        for name in sorted(files):
            if SOURCE.match(name):
                yield os.path.relpath(os.path.join(folder, name), root)


def layer_of(rel):
    """'base' for gen/base/x.c, 'top' for gen/x.c, None for files deeper than a layer."""
    parts = rel.split('/')
    if len(parts) == 2:
        return 'top'
    return parts[1] if len(parts) == 3 and parts[1] in LAYERS else None


def includes(root, rel):
    with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1)


def target_layer(root, name):
    """The layer of an included generator header ('top' for gen/watch.h), or None when gen/ has
    no such file."""
    parts = name.split('/')
    if len(parts) == 2 and parts[0] in LAYERS and os.path.isfile(os.path.join(root, 'gen', name)):
        return parts[0]
    if len(parts) == 1 and os.path.isfile(os.path.join(root, 'gen', name)):
        return 'top'
    return None


def check_gen_include(root, rel, layer, name):
    """The problem with `rel` (in `layer`) including `name`, or None."""
    if name in GENERATED:
        return None if layer in GENERATED[name] else '%s may not include %s' % (layer, name)
    if name in PRIVATE:
        allowed, who = PRIVATE[name]
        if not allowed.match(rel):
            return '%s may not include %s (private to %s)' % (layer, name, who)
    target = target_layer(root, name)
    if target is None:
        beside = [d for d in LAYERS if os.path.isfile(os.path.join(root, 'gen', d, os.path.basename(name)))]
        if beside:
            return 'include %s with its layer: "%s/%s"' % (name, beside[0], os.path.basename(name))
        return 'no generator header %s (gen/<layer>/<file>, or gen/<file> for the top)' % name
    if target not in ALLOWED[layer]:
        return '%s may not include %s' % (layer, name)
    return None


def check(root):
    """Every problem as 'file:line: error: message', in file and line order."""
    problems = []
    for rel in sources(root, 'gen'):
        layer = layer_of(rel)
        if layer is None or (layer == 'top' and os.path.basename(rel) not in TOP):
            problems.append('%s:1: error: not in a layer: move it to gen/<layer>/ (%s)'
                            % (rel, ', '.join(LAYERS)))
            continue
        for number, name in includes(root, rel):
            why = check_gen_include(root, rel, layer, name)
            if why:
                problems.append('%s:%d: error: %s' % (rel, number, why))
    for top in OUTSIDE:
        for rel in sources(root, top):
            for number, name in includes(root, rel):
                for private, (allowed, who) in PRIVATE.items():
                    if name == private or os.path.basename(name) == os.path.basename(private):
                        problems.append('%s:%d: error: %s may not include %s (private to %s)' % (rel, number, top, private, who))
    return problems


# --- self-test: each planted include is reported, exactly, and the clean copy has no problem ----
PLANTS = [
    ('gen/base/diag.c', 'core/model.h', 'base may not include core/model.h'),
    ('gen/core/generate.c', 'pack/pack.h', 'core may not include pack/pack.h'),
    ('gen/content/content_stage.c', 'pack/pack.h', 'content may not include pack/pack.h'),
    ('gen/core/model.c', 'watch.h', 'core may not include watch.h'),
    ('gen/vault/vault_fp.c', 'content/content_scan.h', 'vault may not include content/content_scan.h'),
    ('gen/pack/pack.c', 'tlg_build_id.h', 'pack may not include tlg_build_id.h'),
    ('gen/main.c', 'pack/pack_internal.h',
     'top may not include pack/pack_internal.h (private to the pack files, gen/pack/pack*.c)'),
    ('tests/planted/test_planted.c', 'pack/pack_internal.h',
     'tests may not include pack/pack_internal.h (private to the pack files, gen/pack/pack*.c)'),
    ('gen/core/config.c', 'diag.h', 'include diag.h with its layer: "base/diag.h"'),
    ('gen/pack_flat.c', 'pack/pack.h',
     'not in a layer: move it to gen/<layer>/ (%s)' % ', '.join(LAYERS)),
]


def plant(copy, rel, name):
    path = os.path.join(copy, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    text = open(path).read() if os.path.exists(path) else ''
    with open(path, 'w') as f:
        f.write('#include "%s"\n' % name + text)


def self_test(root):
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'tree')
        shutil.copytree(os.path.join(root, 'gen'), os.path.join(copy, 'gen'),
                        ignore=lambda d, names: [n for n in names if not (SOURCE.match(n) or os.path.isdir(os.path.join(d, n)))])
        clean = check(copy)
        if clean:
            print('FAIL: self-test: the copy of gen/ has problems before any is planted: %r' % clean)
            return 1
        for rel, name, _ in PLANTS:
            plant(copy, rel, name)
        found = check(copy)
        expected = ['%s:1: error: %s' % (rel, why) for rel, _, why in PLANTS]
        for line in expected:
            if line not in found:
                print('FAIL: self-test: not reported: %s' % line)
                ok = False
        for line in found:
            if line not in expected:
                print('FAIL: self-test: reported though not planted: %s' % line)
                ok = False
    if ok:
        print('include layers self-test: %d planted problems reported, nothing else' % len(PLANTS))
    return 0 if ok else 1


def main(argv):
    if len(argv) == 3 and argv[1] == '--self-test':
        return self_test(os.path.abspath(argv[2]))
    if len(argv) != 2:
        print(__doc__)
        return 2
    root = os.path.abspath(argv[1])
    problems = check(root)
    for line in problems:
        print(line)
    count = len(list(sources(root, 'gen')))
    found = '%d problem%s' % (len(problems), '' if len(problems) == 1 else 's')
    print('include layers: %d generator files, %s' % (count, found if problems else 'every include in its direction'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
