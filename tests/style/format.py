#!/usr/bin/env python3
"""The runtime headers (runtime/threadlink/*.h) in the house style (issue 27), and the generator's
C (gen/**/*.{c,h}, issue 42) laid out by the same formatter, checked:

  layout     each header is exactly what clang-format 14 makes of it with the repository's
             .clang-format, and each generator file what it makes of it with gen/.clang-format
             (--fix formats them in place); the rules below are the runtime headers' alone;
  top block  line 1 the SPDX line; line 2 opens the doc block '/* threadlink/<file> -- summary';
             the block is prose indented 3 spaces (no ' * ' column) and closes with '*/' alone;
             headings are UPPERCASE words underlined with as many dashes (or the whole heading);
             a module's block starts with WHAT then INCLUDE;
  guard      '#ifndef TL_<FILE>_H' / '#define TL_<FILE>_H' right after the top block (and the
             umbrella lines), closed by '#endif /* TL_<FILE>_H */';
  switch     a module with an implementation (TL_<MODULE>_IMPL) turns it on from TL_IMPLEMENTATION
             before its guard, and guards the implementation with
             '#if defined(TL_<MODULE>_IMPL) && ... !defined(TL__<MODULE>_IMPLEMENTED)',
             '#define TL__<MODULE>_IMPLEMENTED', closed by '#endif /* TL_<MODULE>_IMPL */';
  names      private names are tl__<module>_* / TL__<MODULE>_*: none spelled tl_<module>__*, none
             with a leading underscore (reserved at file scope in C).

  format.py SOURCE_ROOT           check; exit 1 and one line per problem when any
  format.py --fix SOURCE_ROOT     format every header and generator file with clang-format, then check
  format.py --self-test SOURCE_ROOT
                                  check that each rule catches a defect put into a copy
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CLANG_FORMAT_MAJOR = 14
SPDX = '/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */'
# Headers without a module doc block of their own: the API macro, the casts, the umbrella.
INTERNAL = {'api.h', 'cast.h', 'threadlink.h'}
# The umbrella includes the modules again after TL_IMPLEMENTATION, so it has no guard.
UNGUARDED = {'threadlink.h'}
# Modules whose implementation only their own switch turns on: mem.h's live-block list is the
# process's state, placed once (TL_MEM_IMPL), never by the umbrella's TL_IMPLEMENTATION.
OWN_SWITCH = {'mem.h'}
# Headers whose types come first under a guard of their own, so that another header's declarations
# can take the types alone (fp.h: vault.h names tl_fp without its functions); the main guard
# follows, skipped in that mode.
TYPES_FIRST = {'fp.h': 'TL__FP_TYPES_ONLY'}
OTHER_PRIVATE = re.compile(r'\b(?:tl|TL)_[A-Za-z0-9]+__[A-Za-z0-9_]*')
RESERVED = re.compile(r'(?<![A-Za-z0-9_])_+(?:tl|TL)_[A-Za-z0-9_]*')
HEADING_WORDS = re.compile(r'[A-Z][A-Z ]*[A-Z]|[A-Z]')


def clang_format():
    """The clang-format 14 command, or None with the reason printed."""
    for name in ('clang-format-%d' % CLANG_FORMAT_MAJOR, 'clang-format'):
        path = shutil.which(name)
        if not path:
            continue
        version = subprocess.run([path, '--version'], capture_output=True, text=True).stdout
        match = re.search(r'version (\d+)\.', version)
        if match and int(match.group(1)) == CLANG_FORMAT_MAJOR:
            return path
    print('FAIL: clang-format %d not found (Debian 12: apt-get install clang-format); another '
          'version lays the headers out differently' % CLANG_FORMAT_MAJOR)
    return None


def style_file(root, path):
    """The .clang-format that lays out `path`: gen/'s for the generator, the repository's else."""
    if os.path.relpath(path, root).startswith('gen' + os.sep):
        return os.path.join(root, 'gen', '.clang-format')
    return os.path.join(root, '.clang-format')


def formatted(tool, root, path):
    return subprocess.run([tool, '--style=file:' + style_file(root, path), path],
                          capture_output=True, text=True, check=True).stdout


def check_layout(tool, root, path, text, problems):
    """Formatting problems: the first line clang-format would change, and how many."""
    want = formatted(tool, root, path).split('\n')
    have = text.split('\n')
    if want == have:
        return
    changed = sum(1 for a, b in zip(have, want) if a != b) + abs(len(have) - len(want))
    first = next((i for i, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
    problems.append('%d: not clang-format clean (about %d lines differ; run tests/style/format.py '
                    '--fix): clang-format writes %r' % (first + 1, changed,
                                                       want[first] if first < len(want) else ''))


def top_block_end(lines):
    """Index of the '*/' line closing the doc block that opens on line 2, or None."""
    for i in range(1, len(lines)):
        if lines[i].rstrip().endswith('*/'):
            return i
    return None


def check_top_block(name, lines, problems):
    if not lines or lines[0] != SPDX:
        problems.append('1: the first line is not the SPDX line %r' % SPDX)
    if len(lines) < 2 or not lines[1].startswith('/* threadlink/%s -- ' % name):
        problems.append("2: the doc block does not open with '/* threadlink/%s -- <summary>'" % name)
        return None
    end = top_block_end(lines)
    if end is None or lines[end] != '*/':
        problems.append("%d: the doc block does not close with '*/' alone on its line"
                        % ((end or 1) + 1))
        return end
    headings = []
    for i in range(2, end):
        line = lines[i]
        if line.startswith(' *'):
            problems.append("%d: the doc block has a ' * ' column (prose is indented 3 spaces)"
                            % (i + 1))
            break
        if re.fullmatch(r'   -+', line) and i > 2:
            title = lines[i - 1][3:]
            words = HEADING_WORDS.match(title)
            if not words or len(line) - 3 not in (len(words.group(0)), len(title)):
                problems.append('%d: a heading is UPPERCASE words underlined with as many dashes '
                                '(or as many as the whole heading)' % i)
            else:
                headings.append(words.group(0))
    if name not in INTERNAL and headings[:2] != ['WHAT', 'INCLUDE']:
        problems.append('3: the doc block does not start with the headings WHAT then INCLUDE '
                        '(it has %s)' % (', '.join(headings) or 'none'))
    return end


def check_guard(name, lines, start, problems):
    """The include guard and, for a module with an implementation, its switch lines."""
    stem = name[:-2].upper()
    guard = 'TL_%s_H' % stem
    switch = 'TL_%s_IMPL' % stem
    done = 'TL__%s_IMPLEMENTED' % stem
    body = [line for line in lines[start:]]
    code = [i for i, line in enumerate(lines) if i >= start and line.startswith('#')]
    has_impl = any(re.match(r'#if defined\(%s\)' % switch, lines[i]) for i in code)
    umbrella = ['#if defined(TL_IMPLEMENTATION) && !defined(%s)' % switch,
                '#define %s' % switch, '#endif']
    first = code[0] if code else len(lines)
    if has_impl and name not in OWN_SWITCH:
        if lines[first:first + 3] != umbrella:
            problems.append("%d: the first directive is not the TL_IMPLEMENTATION umbrella "
                            "'%s' / '#define %s' / '#endif'" % (first + 1, umbrella[0], switch))
        else:
            first += 3
    if name in UNGUARDED:
        return
    if name in TYPES_FIRST:
        types_guard = 'TL_%s_TYPES_H' % stem
        if lines[first:first + 2] != ['#ifndef ' + types_guard, '#define ' + types_guard]:
            problems.append("%d: the types' guard is not '#ifndef %s' / '#define %s'"
                            % (first + 1, types_guard, types_guard))
        opening = '#if !defined(%s) && !defined(%s)' % (guard, TYPES_FIRST[name])
        at = [i for i in code if lines[i] == opening]
        if not at or lines[at[0] + 1] != '#define ' + guard:
            problems.append("the functions' guard is not '%s' / '#define %s'" % (opening, guard))
        first = at[0] if at else first
    elif lines[first:first + 2] != ['#ifndef ' + guard, '#define ' + guard]:
        problems.append("%d: the include guard is not '#ifndef %s' / '#define %s' (right after "
                        'the top block)' % (first + 1, guard, guard))
    if '#endif /* %s */' % guard not in body:
        problems.append("the include guard is not closed by '#endif /* %s */'" % guard)
    for i in code:
        if 'defined(TL_IMPLEMENTATION)' in lines[i] and lines[i] != umbrella[0]:
            problems.append('%d: TL_IMPLEMENTATION is tested outside the umbrella line (test %s)'
                            % (i + 1, switch))
    if not has_impl:
        return
    opens = [i for i in code if re.match(r'#if defined\(%s\)' % switch, lines[i])]
    i = opens[0]
    condition = lines[i]
    while condition.endswith('\\') and i + 1 < len(lines):
        i += 1
        condition = condition[:-1] + lines[i].strip()
    if not condition.endswith('!defined(%s)' % done) or lines[i + 1] != '#define ' + done:
        problems.append("%d: the implementation is not guarded by '... && !defined(%s)' / "
                        "'#define %s'" % (opens[0] + 1, done, done))
    if '#endif /* %s */' % switch not in body:
        problems.append("the implementation is not closed by '#endif /* %s */'" % switch)


def check_names(lines, problems):
    for i, line in enumerate(lines):
        for pattern, what in ((OTHER_PRIVATE, 'private names are tl__<module>_*, not'),
                              (RESERVED, 'a leading underscore is reserved:')):
            match = pattern.search(line)
            if match:
                problems.append('%d: %s %s' % (i + 1, what, match.group(0)))


def check_header(tool, root, path):
    name = os.path.basename(path)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    lines = text.split('\n')
    problems = []
    check_layout(tool, root, path, text, problems)
    end = check_top_block(name, lines, problems)
    check_guard(name, lines, (end or 0) + 1, problems)
    check_names(lines, problems)
    return ['%s:%s' % (os.path.relpath(path, root), p) for p in problems]


def check_gen_source(tool, root, path):
    """A generator file: its layout only."""
    with open(path, encoding='utf-8') as f:
        text = f.read()
    problems = []
    check_layout(tool, root, path, text, problems)
    return ['%s:%s' % (os.path.relpath(path, root), p) for p in problems]


def headers(root):
    folder = os.path.join(root, 'runtime', 'threadlink')
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith('.h'))


def gen_sources(root):
    """The generator's C files, gen/**/*.{c,h} (the re2c lexers, *.re, are not C; build folders
    inside gen/ are skipped)."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(root, 'gen')):
        dirs[:] = sorted(d for d in dirs if not d.startswith(('build', '.')))
        found += [os.path.join(folder, f) for f in files if f.endswith(('.c', '.h'))]
    return sorted(found)


def check(tool, root, quiet=False):
    problems = []
    for path in headers(root):
        problems += check_header(tool, root, path)
    for path in gen_sources(root):
        problems += check_gen_source(tool, root, path)
    if not quiet:
        for p in problems:
            print('FAIL: ' + p)
        if not problems:
            print('format: %d runtime headers in the house style, %d generator files laid out'
                  % (len(headers(root)), len(gen_sources(root))))
    return problems


def fix(tool, root):
    for files in (headers(root), gen_sources(root)):
        if files:
            style = '--style=file:' + style_file(root, files[0])
            subprocess.run([tool, '-i', style] + files, check=True)


# --- self-test: every rule catches a defect put into a copy of the tree -------------------------

def copy_tree(root, into):
    os.makedirs(os.path.join(into, 'runtime', 'threadlink'))
    shutil.copy(os.path.join(root, '.clang-format'), into)
    for path in headers(root):
        shutil.copy(path, os.path.join(into, 'runtime', 'threadlink'))
    for path in gen_sources(root) + [os.path.join(root, 'gen', '.clang-format')]:
        copy = os.path.join(into, os.path.relpath(path, root))
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copy(path, copy)


def spoil(into, name, old, new):
    """Puts a defect into a runtime header (`name`) or a generator file ('gen/...')."""
    path = os.path.join(into, name) if name.startswith('gen/') else os.path.join(into, 'runtime', 'threadlink', name)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if old not in text:
        raise SystemExit('self-test: %r is not in %s' % (old, name))
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text.replace(old, new, 1))


# (header, text replaced, replacement, a part of the message expected)
DEFECTS = [
    ('rng.h', '\n    return ', '\n  return ', 'not clang-format clean'),
    ('log.h', '#ifndef TL_LOG_H\n#define TL_LOG_H', '#ifndef THREADLINK_SCRIBE_H\n'
     '#define THREADLINK_SCRIBE_H', "the include guard is not '#ifndef TL_LOG_H'"),
    ('log.h', '#endif /* TL_LOG_H */', '#endif', "not closed by '#endif /* TL_LOG_H */'"),
    ('events.h', 'tl__events_mark(', 'tl_events__mark(', 'not tl_events__mark'),
    ('events.h', 'tl__events_mark(', '_tl_iris_mark(', 'reserved: _tl_iris_mark'),
    ('fp.h', '\n   WHAT\n', '\n * WHAT\n', "has a ' * ' column"),
    ('fp.h', '   INCLUDE\n   -------', '   INCLUDE\n   ----', 'underlined with as many dashes'),
    ('rng.h', '   WHAT\n   ----', '   ABOUT\n   -----', 'WHAT then INCLUDE'),
    ('vault.h', '/* threadlink/vault.h -- ', '/* threadlink/vault.h - ', '/* threadlink/vault.h --'),
    ('levels.h', '#if defined(TL_LEVELS_IMPL) && !defined(TL__LEVELS_IMPLEMENTED)',
     '#if (defined(TL_LEVELS_IMPL) || defined(TL_IMPLEMENTATION)) && '
     '!defined(TL__LEVELS_IMPLEMENTED)', 'TL_IMPLEMENTATION is tested outside the umbrella'),
    ('save.h', '#define TL__SAVE_IMPLEMENTED', '#define TL__SAVE_IMPLEMENTATION_DONE',
     "guarded by '... && !defined(TL__SAVE_IMPLEMENTED)'"),
    ('content.h', '#if defined(TL_IMPLEMENTATION) && !defined(TL_CONTENT_IMPL)\n',
     '#if defined(TL_IMPLEMENTATION) && !defined(TL_CONTENT_IMP)\n', 'umbrella'),
    # The generator's files: laid out by gen/.clang-format (the runtime's would attach the brace).
    ('gen/base/util.c', '\n    return ', '\n  return ', 'not clang-format clean'),
    ('gen/core/generate.c', 'int gen_run(const gen_options *opt, gen_result *result)\n{',
     'int gen_run(const gen_options *opt, gen_result *result) {', 'not clang-format clean'),
    ('gen/pack/pack.h', '    bool quiet;', '    bool\tquiet;', 'not clang-format clean'),
]


def self_test(tool, root):
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        # The copy is formatted first when it is not clang-format clean, so that the test also
        # holds on a tree not yet formatted (on a clean tree, formatting would change nothing).
        clean = os.path.join(work, 'clean')
        copy_tree(root, clean)
        found = check(tool, clean, quiet=True)
        if any('not clang-format clean' in p for p in found):
            fix(tool, clean)
            found = check(tool, clean, quiet=True)
        if found:
            print('FAIL: self-test: the formatted copy of the tree breaks other rules: %r' % found)
            return 1
        for n, (name, old, new, expect) in enumerate(DEFECTS):
            tree = os.path.join(work, str(n))
            copy_tree(clean, tree)
            spoil(tree, name, old, new)
            if name.startswith('gen/'):
                found = check_gen_source(tool, tree, os.path.join(tree, name))
            else:
                found = check_header(tool, tree, os.path.join(tree, 'runtime', 'threadlink', name))
            if not any(name in p and expect in p for p in found):
                print('FAIL: self-test: %s with %r instead of %r: expected %r, got %r'
                      % (name, new, old, expect, found))
                failed += 1
        # --fix repairs a layout defect and leaves the file as it was before the defect.
        tree = os.path.join(work, 'fix')
        copy_tree(clean, tree)
        spoil(tree, 'collections.h', '\n    return ', '\n        return ')
        spoil(tree, 'gen/core/identity.c', '\n    return ', '\n        return ')
        fix(tool, tree)
        for rel in (os.path.join('runtime', 'threadlink', 'collections.h'), os.path.join('gen', 'core', 'identity.c')):
            with open(os.path.join(tree, rel)) as a, open(os.path.join(clean, rel)) as b:
                if a.read() != b.read():
                    print('FAIL: self-test: --fix did not restore a mis-indented %s' % rel)
                    failed += 1
    if not failed:
        print('format self-test: %d defects caught (runtime headers and generator files), --fix '
              'restores the layout' % len(DEFECTS))
    return 1 if failed else 0


def main(argv):
    mode = argv[1] if len(argv) == 3 and argv[1] in ('--fix', '--self-test') else None
    if len(argv) != (3 if mode else 2):
        print(__doc__.strip().split('\n\n')[-1])
        return 2
    root = os.path.abspath(argv[-1])
    tool = clang_format()
    if not tool:
        return 1
    if mode == '--self-test':
        return self_test(tool, root)
    if mode == '--fix':
        fix(tool, root)
    return 1 if check(tool, root) else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
