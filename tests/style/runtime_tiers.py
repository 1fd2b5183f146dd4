#!/usr/bin/env python3
"""The runtime's tiers (issue 42): which header may include which, and no include loop; and each
module's diagnostics numbered from a base of its own (a log record's item names one row of one
module: a game reacts to TL_SAVE_LOG_NOT_FOUND without parsing text).

  core      what generated headers need; static inline, no implementation switch
  formats   the content formats' readers and name rules (static inline), for services and the
            generator
  service   one job each, its own switch; includes the core (and the formats) only, never
            another service, an engine or platform library (SDL, libcurl) or a generated header
  glue      joins services (sokol_glue.h's model): may include any runtime header
  umbrella  threadlink.h: everything

  runtime_tiers.py SOURCE_ROOT               check; one 'file:line: error: ...' per problem
  runtime_tiers.py --self-test SOURCE_ROOT   plant each kind of defect in a copy and expect it
                                             reported
A header in runtime/threadlink/ that this table does not name is an error too, so a new module
is placed in a tier on purpose.
"""
import os
import re
import shutil
import sys
import tempfile

TIERS = {
    'core': {'api.h', 'cast.h', 'log.h', 'events.h', 'hash.h', 'mem.h', 'collections.h', 'fp.h',
             'rng.h'},
    'formats': {'text.h', 'content_format.h'},
    'service': {'time.h', 'lifecycle.h', 'levels.h', 'vault.h', 'content.h', 'save.h',
                'platform.h', 'patch.h', 'audio.h', 'input.h', 'interface.h', 'l10n.h'},
    'glue': {'glue.h', 'platform_local.h'},
    'umbrella': {'threadlink.h'},
}
MAY_INCLUDE = {
    'core': {'core'},
    'formats': {'core', 'formats'},
    'service': {'core', 'formats'},
    'glue': {'core', 'formats', 'service', 'glue'},
    'umbrella': {'core', 'formats', 'service', 'glue'},
}
FOREIGN = re.compile(r'#\s*include\s*<(SDL2?/|SDL\.h|SDL_|curl/)')
# A runtime header: "name.h" (beside the includer) or <threadlink/name.h>; <name.h> is the system's
# (time.h's own name is also the C library's).
LOCAL = re.compile(r'^\s*#\s*include\s*(?:"([A-Za-z0-9_]+\.h)"|<threadlink/([A-Za-z0-9_]+\.h)>)')


def tier_of(name):
    for tier, names in TIERS.items():
        if name in names:
            return tier
    return None


def includes(path):
    """(line number, included runtime header) for each include of a header in the same folder."""
    here = set(os.listdir(os.path.dirname(path)))
    found = []
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith(('*', '/*', '//')):
                continue
            m = LOCAL.match(line)
            name = m and (m.group(1) or m.group(2))
            if name and name in here:
                found.append((n, name))
            if FOREIGN.search(line):
                found.append((n, '<' + line.strip() + '>'))
    return found


def check(root):
    folder = os.path.join(root, 'runtime', 'threadlink')
    problems, graph = [], {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith('.h'):
            continue
        rel = 'runtime/threadlink/' + name
        tier = tier_of(name)
        if tier is None:
            problems.append('%s:1: error: no tier for %s (add it to TIERS in %s)' % (rel, name, __file__))
            continue
        graph[name] = set()
        for line, inc in includes(os.path.join(folder, name)):
            if inc.startswith('<'):
                problems.append('%s:%d: error: a runtime header includes an engine or platform '
                                'library %s' % (rel, line, inc))
                continue
            if inc == name:
                continue
            graph[name].add(inc)
            other = tier_of(inc)
            if other is not None and other not in MAY_INCLUDE[tier]:
                problems.append('%s:%d: error: %s (%s) includes %s (%s)' % (rel, line, name, tier, inc, other))
    problems += cycles(graph)
    problems += shared_log_bases(folder)
    return problems


LOG_BASE = re.compile(r'^\s*#\s*define\s+(TL_[A-Z0-9_]+_LOG_BASE)\s+(0[xX][0-9a-fA-F]+|[0-9]+)[uU]?\b')


def shared_log_bases(folder):
    seen, found = {}, []
    for name in sorted(os.listdir(folder)):
        if not name.endswith('.h'):
            continue
        with open(os.path.join(folder, name)) as f:
            for number, text in enumerate(f, 1):
                m = LOG_BASE.match(text)
                if not m:
                    continue
                value = int(m.group(2), 0)
                if value in seen and seen[value][0] != m.group(1):
                    found.append('runtime/threadlink/%s:%d: error: %s is 0x%x, as %s (%s)' %
                                 (name, number, m.group(1), value, seen[value][0], seen[value][1]))
                seen.setdefault(value, (m.group(1), name))
    return found


def cycles(graph):
    found, state = [], {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                loop = path[path.index(nxt):] + [nxt]
                found.append('runtime/threadlink/%s:1: error: include loop %s' % (nxt, ' -> '.join(loop)))
            elif nxt in graph and nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def self_test(root):
    defects = [
        ('levels.h', '#include "content.h"\n', 'levels.h (service) includes content.h (service)'),
        ('log.h', '#include "events.h"\n', 'include loop'),
        ('audio_probe.h', '/* a new header */\n', 'no tier for audio_probe.h'),
        ('save.h', '#include <SDL2/SDL.h>\n', 'engine or platform library'),
        ('patch.h', '#define TL_PROBE_LOG_BASE 0x500u\n', 'TL_SAVE_LOG_BASE is 0x500, as TL_PROBE_LOG_BASE'),
    ]
    failed = 0
    for name, line, expected in defects:
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(root, 'runtime'), os.path.join(tmp, 'runtime'))
            path = os.path.join(tmp, 'runtime', 'threadlink', name)
            old = open(path).read() if os.path.exists(path) else ''
            with open(path, 'w') as f:
                f.write(line + old)
            if not any(expected in p for p in check(tmp)):
                print('FAIL: self-test: %s planted in %s was not reported' % (line.strip(), name))
                failed += 1
    if check(root):
        print('FAIL: self-test: the tree itself has problems')
        failed += 1
    print('runtime tiers self-test: %d defects planted, %d missed' % (len(defects), failed))
    return 1 if failed else 0


def main(argv):
    if argv and argv[0] == '--self-test':
        return self_test(argv[1])
    problems = check(argv[0])
    for p in problems:
        print(p)
    if not problems:
        print('runtime tiers: every header in its tier, no include loop')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
