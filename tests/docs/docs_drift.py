#!/usr/bin/env python3
# SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors)
"""Documentation that cannot drift (issue 43): every C block and shell recipe of README.md and
docs/*.md, and every runtime header's usage block, checked against the code.

  docs_drift.py --root SRC --gen THREADLINK_GEN --work DIR [--self-test] -- CC... [--cxx CXX...]

What it checks, each failure naming the file and line:
  1. ```c blocks (README.md, docs/*.md) are compiled as C11 with -Wall -Wextra -Wpedantic
     -Wconversion -Wsign-conversion -Werror, then as C++17 with the same flags (--cxx; but the
     blocks NOT_CXX lists, each with its reason), against the runtime and the headers generated
     from tests/docs/fixture/ (a project with the domains, vaults and content profile the blocks
     use; some of its entries are above INT_MAX, negative enumerators, so that a block passing
     one where a uint32_t is wanted fails as it would in a game whose names hash so). In C++ a
     block's `= {0}` is read `= {}`, as docs/runtime.md tells C++ to write it. A block with #include or a
     main is a file of its own; any other block is a function body, after its context: an HTML
     comment right above it, <!-- c-context: ... -->, whose text goes at file scope (the variables
     and callbacks the block names). A block that mentions TL_CONTENT_LIVE or TL_DEVELOPMENT is
     compiled with and without it. ```c fragment marks a block that is deliberately not C (a
     header's shape with `...`): it is not compiled, but every tl_/TL_ name it calls must be a
     runtime function or function-like macro (4.). A block whose info says excerpt=PATH (the
     tutorial's C, the build recipes) must be lines of PATH as they are, in its order (PATH's
     comments and blank lines may be left out); output=PATH, PATH's whole text.
  2. ```sh blocks: `sh -n` parses them, and every threadlink-gen command in them names a command
     and options that `threadlink-gen --help` (and `pack --help`) list.
  3. The implementation switches: the TL_*_IMPL names listed in docs/runtime.md (between
     <!-- switches --> and <!-- /switches -->) and in threadlink.h's top block equal the switches
     the runtime's headers test (#if defined / #ifdef TL_X_IMPL).
  4. Each runtime header's USE block (its top comment, from USE to the next heading): every
     tl_/TL_ name called in it (name followed by '(') must compile as a function or be a
     function-like macro (a type such as tl_level_hold_status does not: `(void)name;` fails), and
     every tl_/TL_ name in it exists (5.).
  5. Every public tl_/TL_ name the docs mention in `code` (README.md, docs/*.md) exists in the
     runtime's headers, backends or the generator's templates.
  6. README.md at most 300 lines; its module table: a row per header of runtime/threadlink/, each size within 10%
     of its `wc -l`; docs/runtime.md's (between <!-- modules --> and <!-- /modules -->) a row per
     header too.
--self-test plants a wrong function name in a copy of a C block, of a usage block and of a shell
recipe, drops a switch from the list, passes a negative enumerator as a uint32_t, converts a void *
implicitly (C, not C++), and expects each to be reported.
"""
import os
import re
import shutil
import subprocess
import sys

WARNINGS = ['-Wall', '-Wextra', '-Wpedantic', '-Wconversion', '-Wsign-conversion', '-Werror',
            '-Wno-unused-function', '-Wno-unused-variable', '-Wno-unused-but-set-variable',
            '-Wno-unused-parameter', '-D_POSIX_C_SOURCE=200809L', '-fsyntax-only']
CFLAGS = ['-std=c11'] + WARNINGS
CXXFLAGS = ['-x', 'c++', '-std=c++17'] + WARNINGS
# The C blocks that are not C++, by their file and a line of theirs, and why. A block listed
# here that no longer exists is reported, so the list cannot outlive its blocks.
NOT_CXX = {
}
# Fixture entries whose values are above INT_MAX (negative enumerators): the blocks pass them
# where the runtime takes a uint32_t, which -Wsign-conversion refuses unless converted.
ABOVE_INT_MAX = [('nexus_levels.h', 'Nexus_Levels_Farm'), ('nexus_levels.h', 'Nexus_Levels_Meadow'),
                 ('content_game.h', 'Content_Game_Music_meadow')]
PREAMBLE = ('#include <threadlink/threadlink.h>\n#include <stdio.h>\n#include <stdlib.h>\n'
            '#include <string.h>\n')
FIXTURE_HEADERS = ['iris_events.h', 'nexus_levels.h', 'vault_fields.h', 'enemies_data.h',
                   'world_vault.h', 'content_game.h', 'content_game_catalog.h', 'text_keys.h', 'text.h',
                   'content_text.h', 'content_text_catalog.h']
FENCE = re.compile(r'^```(\S*)(.*)$')
CALL = re.compile(r'\b((?:tl|TL)_[A-Za-z0-9_]*[A-Za-z0-9])\s*\(')
CODE_SPAN = re.compile(r'`([^`\n]+)`')
NAME = re.compile(r'\b((?:tl|TL)_[A-Za-z0-9_]+)\b')


class Checker:
    def __init__(self, root, gen, work, cc, cxx=None):
        self.root, self.gen, self.work, self.cc, self.cxx = root, gen, work, cc, cxx
        self.errors = []
        self.compiled = 0
        self.compiled_cxx = 0
        self.not_cxx_seen = set()
        self.probed = 0
        self.excerpts = 0

    def error(self, where, message):
        self.errors.append('%s: error: %s' % (where, message))

    def read(self, rel):
        with open(os.path.join(self.root, rel), encoding='utf-8') as f:
            return f.read()

    def doc_files(self):
        docs = sorted('docs/' + n for n in os.listdir(os.path.join(self.root, 'docs')) if n.endswith('.md'))
        return ['README.md'] + docs

    def headers(self):
        d = os.path.join(self.root, 'runtime', 'threadlink')
        return sorted(n for n in os.listdir(d) if n.endswith('.h'))

    # --- the fixture's generated headers ---------------------------------------------------------

    def generate_fixture(self):
        out = os.path.join(self.work, 'gen')
        r = subprocess.run([self.gen, 'headers', '-C', os.path.join(self.root, 'tests/docs/fixture'),
                            '-o', out, '--quiet'], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit('FAIL: threadlink-gen headers on tests/docs/fixture:\n' + r.stderr)
        for header, name in ABOVE_INT_MAX:
            with open(os.path.join(out, header), encoding='utf-8') as f:
                if not re.search(r'\b%s = -' % name, f.read()):
                    sys.exit('FAIL: the fixture\'s %s is no longer above INT_MAX: the blocks\' '
                             'sign conversions would go unchecked (give the fixture such an entry)' % name)
        return out

    # --- 1. C blocks -----------------------------------------------------------------------------

    def blocks(self, rel):
        """(language, info, first line number, text, context) for each fenced block."""
        lines = self.read(rel).split('\n')
        i = 0
        while i < len(lines):
            m = FENCE.match(lines[i])
            if not m or not m.group(1):
                i += 1
                continue
            lang, info, start = m.group(1), m.group(2).strip(), i + 1
            j = start
            while j < len(lines) and lines[j] != '```':
                j += 1
            yield lang, info, start + 1, '\n'.join(lines[start:j]) + '\n', self.context_above(lines, i)
            i = j + 1

    @staticmethod
    def context_above(lines, fence):
        k = fence - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k < 0 or not lines[k].rstrip().endswith('-->'):
            return None
        end = k
        while k >= 0 and '<!--' not in lines[k]:
            k -= 1
        text = '\n'.join(lines[k:end + 1])
        m = re.search(r'<!--\s*c-context(?:\s*\(([A-Z_ ,]+)\))?:(.*?)-->', text, re.S)
        return (tuple((m.group(1) or '').replace(',', ' ').split()), m.group(2)) if m else None

    def compile(self, source, where, defines=(), cxx=False):
        path = os.path.join(self.work, 'block_%d.c' % (self.compiled + self.compiled_cxx))
        with open(path, 'w', encoding='utf-8') as f:
            f.write(source)
        if cxx:
            self.compiled_cxx += 1
        else:
            self.compiled += 1
        cmd = (self.cxx + CXXFLAGS if cxx else self.cc + CFLAGS) + ['-D' + d for d in defines] + [
            '-I' + os.path.join(self.root, 'runtime'), '-I' + self.gen_dir, path]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            self.error(where, 'the block does not compile%s%s:\n%s' % (
                ' as C++' if cxx else '', ' with ' + ', '.join(defines) if defines else '', r.stderr.strip()))

    def cxx_reason(self, rel, text):
        """Why the block is not C++ (NOT_CXX), or None."""
        for (where, line), why in NOT_CXX.items():
            if where == rel and line in text:
                self.not_cxx_seen.add((where, line))
                return why
        return None

    def check_not_cxx(self):
        for where, line in sorted(set(NOT_CXX) - self.not_cxx_seen):
            self.error(where, 'NOT_CXX names a block with the line %r, which has no such block' % line)

    def c_block(self, rel, line, text, context):
        where = '%s:%d' % (rel, line)
        defines, context = context if context else ((), '')
        variants = [defines]
        for switch in ('TL_CONTENT_LIVE', 'TL_DEVELOPMENT'):
            if re.search(r'^\s*#\s*if.*\b%s\b' % switch, text, re.M) and switch not in defines:
                variants = [defines, defines + (switch,)]
        fixture = ''.join('#include "%s"\n' % h for h in FIXTURE_HEADERS)
        if re.search(r'^\s*#\s*include|\bmain\s*\(', text, re.M):
            source = '#line %d "%s"\n%s' % (line, rel, text)
        else:
            source = '%s%s\n%s\nvoid tl_doc_block(void);\nvoid tl_doc_block(void) {\n#line %d "%s"\n%s}\n' % (
                PREAMBLE, fixture, context, line, rel, text)
        for defines in variants:
            self.compile(source, where, defines)
        if self.cxx and not self.cxx_reason(rel, text):
            as_cxx = re.sub(r'=\s*\{\s*0\s*\}', '= {}', source)  # docs/runtime.md: C++ writes = {}
            for defines in variants:
                self.compile(as_cxx, where, defines, cxx=True)

    def excerpt(self, rel, line, text, info):
        m = re.match(r'(excerpt|output)=(\S+)$', info)
        if not m:
            self.error('%s:%d' % (rel, line), "unknown block marker '%s'" % info)
            return
        target = m.group(2)
        if not os.path.isfile(os.path.join(self.root, target)):
            self.error('%s:%d' % (rel, line), '%s does not exist' % target)
            return
        whole = self.read(target)
        self.excerpts += 1
        ok = self.is_excerpt(text, whole) if m.group(1) == 'excerpt' else text == whole
        if not ok:
            self.error('%s:%d' % (rel, line), 'the block is not %s as it is' % (
                'an excerpt of ' + target if m.group(1) == 'excerpt' else target))

    @staticmethod
    def is_excerpt(text, whole):
        """The block's non-blank lines are lines of the file, in its order (lines may be left out
        between them: comments, blank lines)."""
        lines = iter(line.rstrip() for line in whole.split('\n'))
        return all(any(line == wanted for line in lines) for wanted in
                   (w.rstrip() for w in text.split('\n') if w.strip()))

    # --- 2. shell recipes ------------------------------------------------------------------------

    def gen_vocabulary(self):
        text = ''
        for args in (['--help'], ['pack', '--help']):
            text += subprocess.run([self.gen] + args, capture_output=True, text=True).stdout
        commands = set(re.findall(r'^  ([a-z]+)\b', text.split('options:')[0], re.M))
        options = set(re.findall(r'(?<![\w-])(--[a-z][a-z0-9-]*|-[A-Za-z])\b', text))
        return commands | {'--help', '--version'}, options

    def sh_block(self, rel, line, text, vocabulary):
        where = '%s:%d' % (rel, line)
        r = subprocess.run(['sh', '-n'], input=text, capture_output=True, text=True)
        if r.returncode != 0:
            self.error(where, 'the recipe does not parse (sh -n): ' + r.stderr.strip())
        commands, options = vocabulary
        for k, cmdline in enumerate(text.split('\n')):
            cmdline = cmdline.split('#')[0]
            for m in re.finditer(r'threadlink-gen\s+(\S+)([^;&|]*)', cmdline):
                if m.group(1) not in commands:
                    self.error('%s:%d' % (rel, line + k), "threadlink-gen has no command '%s'" % m.group(1))
                for opt in re.findall(r'(?<!\S)(--?[A-Za-z][\w-]*)', m.group(2)):
                    if opt.split('=')[0] not in options:
                        self.error('%s:%d' % (rel, line + k), "threadlink-gen has no option '%s'" % opt)

    # --- 3. switches -----------------------------------------------------------------------------

    def header_switches(self):
        found = set()
        for h in self.headers():
            found |= set(re.findall(r'^#\s*(?:if\s+defined\s*\(?|ifdef\s+|if\s+!defined\s*\(?|ifndef\s+)'
                                    r'(TL_[A-Z_]+_IMPL)\b', self.read('runtime/threadlink/' + h), re.M))
        return found

    def check_switches(self):
        switches = self.header_switches()
        runtime = self.read('docs/runtime.md')
        m = re.search(r'<!-- switches[^>]*-->(.*?)<!-- /switches -->', runtime, re.S)
        if not m:
            self.error('docs/runtime.md', 'no <!-- switches --> list')
        else:
            self.compare_switches('docs/runtime.md', set(re.findall(r'\b(TL_[A-Z_]+_IMPL)\b', m.group(1))), switches)
        top = self.read('runtime/threadlink/threadlink.h').split('*/')[1]
        self.compare_switches('runtime/threadlink/threadlink.h', set(re.findall(r'\b(TL_[A-Z_]+_IMPL)\b', top)), switches)
        return switches

    def compare_switches(self, where, listed, switches):
        for s in sorted(switches - listed):
            self.error(where, 'the list of implementation switches leaves out %s' % s)
        for s in sorted(listed - switches):
            self.error(where, 'lists %s, which no header tests' % s)

    # --- 4. usage blocks and fragments: every call a function ---------------------------------------

    def use_blocks(self):
        for h in self.headers():
            rel = 'runtime/threadlink/' + h
            text = self.read(rel)
            parts = text.split('*/')
            top = parts[0] + '*/' + parts[1] if len(parts) > 2 else ''  # the SPDX line, the doc block
            m = re.search(r'^ *USE\n *-+\n', top, re.M)
            if not m:
                continue
            body = top[m.end():]
            end = re.search(r'^ *[A-Z][A-Z ,()/._-]*\n *-{3,}\n', body, re.M)
            body = body[:end.start()] if end else body
            yield rel, top[:m.end()].count('\n') + 1, body

    def probe_calls(self, items):
        """items: (file, line, text). Each called tl_/TL_ name must be a function (or a
        function-like macro)."""
        fixture = ''.join('#include "%s"\n' % h for h in FIXTURE_HEADERS)
        src = [PREAMBLE, fixture]
        n = 0
        for rel, first, text in items:
            for k, line in enumerate(text.split('\n')):
                for name in CALL.findall(line.split('//')[0]):
                    n += 1
                    src.append('#ifndef %s\nvoid tl_probe_%d(void);\nvoid tl_probe_%d(void) {\n#line %d "%s"\n'
                               '(void)%s;\n}\n#endif\n' % (name, n, n, first + k, rel, name))
        self.probed += n
        self.compile(''.join(src), 'usage blocks and fragments')

    # --- 5. names in prose -----------------------------------------------------------------------

    def known_names(self):
        names = set()
        for base in ('runtime', 'backends', 'templates', 'gen'):
            for dirpath, _, files in os.walk(os.path.join(self.root, base)):
                for n in files:
                    if n.endswith(('.h', '.c', '.re', '.txt')):
                        with open(os.path.join(dirpath, n), encoding='utf-8', errors='replace') as f:
                            names |= set(NAME.findall(f.read()))
                        names.add(n)
        return names

    def check_names(self, rel, known):
        """docs/changes.md and the README's Changes section name the old names on purpose."""
        if rel == 'docs/changes.md':
            return
        text = self.read(rel)
        fenced = changes = False
        for k, line in enumerate(text.split('\n')):
            if line.startswith('## '):
                changes = line.strip() == '## Changes'
            if line.startswith('```'):
                fenced = not fenced
            if fenced or changes:
                continue
            for span in CODE_SPAN.findall(line):
                for name in NAME.findall(span):
                    if name.startswith(('tl__', 'TL__')) or name.endswith('_') or name in known:
                        continue
                    if re.search(re.escape(name) + r'\*', span):
                        continue  # a prefix: TL_LAYOUT_*
                    self.error('%s:%d' % (rel, k + 1), "'%s' is no name of the runtime" % name)

    # --- 6. the README's module table --------------------------------------------------------------

    def check_module_table(self):
        readme_lines = self.read('README.md').count('\n')
        if readme_lines > 300:
            self.error('README.md', 'the front page has %d lines (at most 300: the reference goes in docs/)' % readme_lines)
        rows = {}
        for k, line in enumerate(self.read('README.md').split('\n')):
            m = re.match(r'^\|[^|]*\| `([a-z_0-9]+\.h)` \| ([0-9,]+) \|', line)
            if m:
                rows[m.group(1)] = (k + 1, int(m.group(2).replace(',', '')))
        for h in self.headers():
            if h not in rows:
                self.error('README.md', 'the module table has no row for %s' % h)
                continue
            with open(os.path.join(self.root, 'runtime/threadlink', h), encoding='utf-8') as f:
                actual = sum(1 for _ in f)
            line, said = rows[h]
            if abs(said - actual) > actual / 10:
                self.error('README.md:%d' % line, '%s has %d lines, not %d (more than 10%% off)' % (h, actual, said))
        for h in sorted(set(rows) - set(self.headers())):
            self.error('README.md:%d' % rows[h][0], 'the module table lists %s, which does not exist' % h)
        m = re.search(r'<!-- modules[^>]*-->(.*?)<!-- /modules -->', self.read('docs/runtime.md'), re.S)
        listed = set(re.findall(r'^\| `([a-z_0-9]+\.h)` \|', m.group(1), re.M)) if m else set()
        for h in self.headers():
            if h not in listed:
                self.error('docs/runtime.md', 'the module table (<!-- modules -->) has no row for %s' % h)

    # --- all of it -------------------------------------------------------------------------------

    def run(self):
        os.makedirs(self.work, exist_ok=True)
        self.gen_dir = self.generate_fixture()
        vocabulary = self.gen_vocabulary()
        fragments, sh_blocks, c_blocks = [], 0, 0
        for rel in self.doc_files():
            for lang, info, line, text, context in self.blocks(rel):
                if lang == 'c' and info == 'fragment':
                    fragments.append((rel, line, text))
                elif lang == 'c' and info:
                    self.excerpt(rel, line, text, info)
                elif lang == 'c':
                    c_blocks += 1
                    self.c_block(rel, line, text, context)
                elif info.startswith(('excerpt=', 'output=')):
                    self.excerpt(rel, line, text, info)
                elif lang == 'sh':
                    sh_blocks += 1
                    self.sh_block(rel, line, text, vocabulary)
        uses = list(self.use_blocks())
        self.probe_calls(uses + fragments)
        switches = self.check_switches()
        known = self.known_names()
        for rel, first, text in uses:
            for k, line in enumerate(text.split('\n')):
                for name in NAME.findall(line):
                    if name not in known and not name.endswith('_'):
                        self.error('%s:%d' % (rel, first + k), "'%s' is no name of the runtime" % name)
        for rel in self.doc_files():
            self.check_names(rel, known)
        self.check_module_table()
        if self.cxx:
            self.check_not_cxx()
        return ('%d C blocks compiled (%d compilations, %s), %d fragments and %d usage blocks probed '
                '(%d calls), %d excerpts and outputs compared, %d shell recipes, %d switches' % (
                    c_blocks, self.compiled,
                    '%d as C++, %d not C++' % (self.compiled_cxx, len(NOT_CXX)) if self.cxx else 'no C++ compiler',
                    len(fragments), len(uses), self.probed, self.excerpts, sh_blocks, len(switches)))


def self_test(root, gen, work, cc, cxx):
    """Plants one defect of each kind in a copy of the tree and expects each reported."""
    copy = os.path.join(work, 'tree')
    shutil.rmtree(copy, ignore_errors=True)
    for part in ('README.md', 'docs', 'runtime', 'backends', 'templates', 'gen', 'tests/docs/fixture',
                 'examples/tutorial'):
        src, dst = os.path.join(root, part), os.path.join(copy, part)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, dst)
    plant = [
        ('docs/runtime.md', 'tl_save_txn_commit(&txn)', 'tl_save_txn_comit(&txn)', 'tl_save_txn_comit'),
        ('runtime/threadlink/levels.h', 'tl_level_hold_status_of(farm)', 'tl_level_hold_status(farm)',
         'tl_level_hold_status'),
        ('docs/build-systems.md', 'meson install -C build', 'meson install -C build\nthreadlink-gen headres -o x',
         "no command 'headres'"),
        ('docs/runtime.md', '| `TL_AUDIO_IMPL` | `audio.h` |\n', '', 'leaves out TL_AUDIO_IMPL'),
        ('docs/tutorial.md', '    tl_events_discard(&events);', '    tl_events_discard(&event);',
         'is not an excerpt of'),
        # an enumerator above INT_MAX passed where a uint32_t is wanted: C refuses it under -Wsign-conversion
        ('docs/runtime.md', 'tl_levels_hold(levels, NEXUS_LEVELS_U32(Nexus_Levels_Farm))',
         'tl_levels_hold(levels, Nexus_Levels_Farm)', '[-Werror=sign-conversion]'),
    ]
    if cxx:  # C that is no C++: a void * converted implicitly
        plant.append(('docs/config.md', 'tl_l10n_add_table(text, tl_asset_object(table), tl_asset_size(table));',
                      'const unsigned char *bytes = tl_asset_object(table);\n'
                      'tl_l10n_add_table(text, bytes, tl_asset_size(table));', 'does not compile as C++'))
    for rel, old, new, _ in plant:
        path = os.path.join(copy, rel)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        if old not in text:
            sys.exit('FAIL: self-test: %s has no %r to plant a defect in' % (rel, old))
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text.replace(old, new, 1))
    checker = Checker(copy, gen, os.path.join(work, 'self'), cc, cxx)
    checker.run()
    report = '\n'.join(checker.errors)
    missed = [expect for _, _, _, expect in plant if expect not in report]
    if missed:
        sys.exit('FAIL: self-test: not reported: %s\n%s' % (', '.join(missed), report))
    others = [e for e in checker.errors if not any(expect in e or rel in e for rel, _, _, expect in plant)]
    if others:
        sys.exit('FAIL: self-test: reported what was not planted:\n' + '\n'.join(others))
    print('self-test: %d planted defects reported' % len(plant))


def main(argv):
    args = dict(root=None, gen=None, work=None)
    cc, cxx, selftest, i = None, None, False, 1
    while i < len(argv):
        a = argv[i]
        if a == '--':
            cc = argv[i + 1:]
            if '--cxx' in cc:
                cc, cxx = cc[:cc.index('--cxx')], cc[cc.index('--cxx') + 1:]
            break
        if a == '--self-test':
            selftest = True
        elif a in ('--root', '--gen', '--work'):
            args[a[2:]] = argv[i + 1]
            i += 1
        i += 1
    if not all(args.values()) or not cc:
        sys.exit(__doc__)
    if selftest:
        self_test(args['root'], args['gen'], args['work'], cc, cxx)
        return
    checker = Checker(args['root'], args['gen'], args['work'], cc, cxx)
    summary = checker.run()
    for e in checker.errors:
        print(e)
    if checker.errors:
        sys.exit('FAIL: %d documentation errors (%s)' % (len(checker.errors), summary))
    print('docs in step with the code: ' + summary)


if __name__ == '__main__':
    main(sys.argv)
