#!/usr/bin/env python3
"""Lays the generator's sources out by layer (issue 32): gen/base/, gen/core/, gen/content/ and
gen/vault/ under the commands on top (gen/main.c, the stage registry gen/stages.c, gen/watch.c).

  tools/layer_gen.py [--dry-run] [SOURCE_ROOT]

It moves each file named below from gen/ into its layer's folder (git mv), then rewrites
  - every include of a moved header, in gen/ and in the tests and examples, to name its layer
    ("diag.h" -> "base/diag.h"; one include directory, gen/, serves them all);
  - every path that names a moved file (gen/layout.c -> gen/core/layout.c, '../../gen/layout.c')
    in the build files, tests, schemas' notes and the generator's own comments (not in runtime/,
    whose headers other work owns: their two mentions of gen/layout.c are left as they are);
  - the bare source names in gen/meson.build ('util.c' -> 'base/util.c').
It also brings the names this branch retired just before (see RENAMED) up to date. Running it
again moves only what is still at the top (a file another branch added or changed
under its old name) and rewrites only includes and paths that do not name a layer yet, so after
a merge that brings files or includes back to the flat names, run it again and commit. A file it
does not know is refused: add it to LAYER (or let PREFIX place it) first.

Merging a branch cut before the move: git follows the renames, so most edits land in the layered
files by themselves. Where an include block conflicts (a file this branch changed only in its
include lines and gen/ paths: every gen/ .c file but the ones named below), take the other side
(`git checkout --theirs FILE`), add the other side's new source names to gen/meson.build's list
as they are, run this script, then build and run tests/style/include_layers.py. By hand: pack.h
(the command's API) against pack_internal.h (what the pack files share), content_write.{h,c},
gen/meson.build and gen/core/stage.h's comment.
The allowed include directions are checked by tests/style/include_layers.py.
"""
import os
import re
import subprocess
import sys

# The layer of every source, by what it includes (a file's layer may include only its own and
# lower layers; tests/style/include_layers.py has the table).
LAYER = {
    # base: nothing threadlink-specific
    'base': ['util.h', 'util.c', 'diag.h', 'diag.c', 'fsio.h', 'fsio.c', 'suggest.h', 'suggest.c',
             'args.h', 'args.c', 'json_check.h', 'json_check.c', 'lex_json.h', 'lex_json.re',
             'udiff.h', 'udiff.c', 'work_pool.h', 'work_pool.c', 'index_map.h', 'index_map.c',
             'stamp.h', 'stamp.c', 'output.h', 'output.c', 'depfile.h', 'depfile.c'],
    # core: the config, identifier domains and their identities, emitters, the pipeline
    'core': ['config.h', 'config.c', 'model.h', 'model.c', 'event_sig.h', 'event_sig.c',
             'lex_injector.h', 'lex_injector.re', 'identity.h', 'identity.c', 'manifest.h',
             'manifest_read.c', 'emit.h', 'emit_header.c', 'emit_manifest.c', 'layout.h', 'layout.c',
             'stage.h', 'diff.h', 'diff.c', 'generate.h', 'generate.c'],
    # content: content profiles, catalogs, the content formats' writer, the pack command
    'content': ['content_config.h', 'content_config.c', 'content_scan.h', 'content_scan.c',
                'content_stage.h', 'content_stage.c', 'content_write.h', 'content_write.c',
                'pack.h', 'pack_internal.h', 'pack.c', 'pack_archive.c', 'pack_hooks.c',
                'pack_inputs.c', 'pack_lock.h', 'pack_lock.c', 'pack_partition.c'],
    # vault: vault schemas and data
    'vault': ['vault_model.h', 'vault_types.c', 'vault_load.c', 'vault_resolve.c', 'vault_emit.c',
              'vault_fp.c', 'vault_bake.c', 'vault_image.c'],
}
# Files that stay in gen/ itself: the commands and the stage registry, and the build's scripts.
TOP = {'main.c', 'stages.c', 'watch.h', 'watch.c', 'meson.build', 'embed.py', 'build_id.py'}
# New files by name, when LAYER does not list them.
PREFIX = [('content_', 'content'), ('pack_', 'content'), ('vault_', 'vault')]
# Names this branch retired before the move (a branch cut earlier still uses them): the
# generator's content_format.{h,c} became content_write.{h,c}, and the pack files' shared
# declarations left pack.h (the command's API) for pack_internal.h.
RENAMED = {'content_format.h': 'content_write.h', 'content_format.c': 'content_write.c'}
PACK_FILE = re.compile(r'^gen/content/pack(_[a-z]+)?\.c$')
WRITER = re.compile(r'\btl_cf_(put_|archive_put_)')
SOURCE = re.compile(r'.*\.(c|h|re)$')
INCLUDE = re.compile(r'^(\s*#\s*include\s+")([^"/]+)(")', re.M)
# Text files whose paths naming gen files are rewritten (runtime/ is left alone, see above).
TEXT = re.compile(r'.*(\.(c|h|re|py|sh|md|txt|json)|meson\.build)$')


def git(root, *args):
    return subprocess.run(['git', '-C', root] + list(args), check=True, capture_output=True, text=True).stdout


def layer_of(name):
    for layer, names in LAYER.items():
        if name in names:
            return layer
    for prefix, layer in PREFIX:
        if name.startswith(prefix) and SOURCE.match(name):
            return layer
    return None


def move(root, dry):
    """git mv of every known file still at the top of gen/; the {name: layer} of all moved."""
    gen = os.path.join(root, 'gen')
    unknown = []
    for name in sorted(os.listdir(gen)):
        path = os.path.join(gen, name)
        if os.path.isdir(path) or name in TOP:
            continue
        if name in RENAMED:
            sys.exit('layer_gen: gen/%s was renamed %s: carry its changes over by hand' % (name, RENAMED[name]))
        layer = layer_of(name)
        if layer is None:
            unknown.append(name)
            continue
        dest = os.path.join(gen, layer, name)
        if os.path.exists(dest):
            sys.exit('layer_gen: both gen/%s and gen/%s/%s exist: merge them by hand first' % (name, layer, name))
        print('git mv gen/%s gen/%s/%s' % (name, layer, name))
        if not dry:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            git(root, 'mv', 'gen/' + name, 'gen/%s/%s' % (layer, name))
    if unknown:
        sys.exit('layer_gen: gen/%s: no layer known: add it to LAYER in tools/layer_gen.py' % ', gen/'.join(unknown))
    moved = {}
    for layer in LAYER:
        folder = os.path.join(gen, layer)
        for name in (os.listdir(folder) if os.path.isdir(folder) else []):
            moved[name] = layer
    return moved


def rewrite_retired(rel, text):
    """Includes of the retired names: content_format.h is the runtime's header where the file only
    reads the formats, else content_write.h; a pack file's pack.h is pack_internal.h."""
    writer = '"content/content_write.h"' if WRITER.search(text) else '<threadlink/content_format.h>'
    text = re.sub(r'^(\s*#\s*include\s+)"content_format\.h"', lambda m: m.group(1) + writer, text, flags=re.M)
    if PACK_FILE.match(rel) and rel != 'gen/content/pack_lock.c':
        text = re.sub(r'^(\s*#\s*include\s+)"pack\.h"', r'\1"content/pack_internal.h"', text, flags=re.M)
    return text


def rewrite_includes(root, rel, text, moved):
    """Includes of a moved header without its layer get it. Outside gen/, a header of that name
    beside the includer (a test's own) wins, as the compiler would pick it."""
    here = os.path.join(root, os.path.dirname(rel))
    local = not rel.startswith('gen/')

    def fix(m):
        name = m.group(2)
        if name not in moved or (local and os.path.exists(os.path.join(here, name))):
            return m.group(0)
        return m.group(1) + moved[name] + '/' + name + m.group(3)
    return INCLUDE.sub(fix, text)


def rewrite_paths(text, moved):
    """gen/NAME and ../gen/NAME of a moved file get the layer (tests/gen/... is another folder);
    a retired name becomes the new one."""
    names = '|'.join(re.escape(n) for n in sorted(moved, key=len, reverse=True))
    pattern = re.compile(r'(?<![\w/.-])((?:\.\./)*gen/)(%s)(?![\w.])' % names)
    return pattern.sub(lambda m: m.group(1) + moved[m.group(2)] + '/' + RENAMED.get(m.group(2), m.group(2)), text)


def rewrite_meson(text, moved):
    """The bare names in gen/meson.build's source lists."""
    names = '|'.join(re.escape(n) for n in sorted(moved, key=len, reverse=True))
    return re.sub(r"'(%s)'" % names, lambda m: "'%s/%s'" % (moved[m.group(1)], m.group(1)), text)


def main(argv):
    dry = '--dry-run' in argv
    rest = [a for a in argv[1:] if a != '--dry-run']
    root = os.path.abspath(rest[0] if rest else os.path.join(os.path.dirname(__file__), '..'))
    moved = move(root, dry)
    if dry:
        return 0
    changed = 0
    for rel in git(root, 'ls-files').splitlines():
        if rel.startswith('runtime/') or rel == 'tools/layer_gen.py' or not TEXT.match(rel):
            continue
        path = os.path.join(root, rel)
        try:
            with open(path, encoding='utf-8') as f:
                text = f.read()
        except (UnicodeDecodeError, IsADirectoryError):
            continue  # corpus bytes, a submodule
        new = text
        if SOURCE.match(rel) and (rel.startswith(('gen/', 'tests/', 'examples/'))):
            new = rewrite_includes(root, rel, rewrite_retired(rel, new), moved)
        new = rewrite_paths(new, dict(moved, **{old: moved[now] for old, now in RENAMED.items() if now in moved}))
        if rel == 'gen/meson.build':
            new = rewrite_meson(new, moved)
        if new != text:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(new)
            changed += 1
            print('rewrote %s' % rel)
    print('layer_gen: %d files in layers, %d files rewritten' % (len(moved), changed))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
