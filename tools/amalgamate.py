#!/usr/bin/env python3
"""Assembles runtime headers developed as several files into the one file users include (flecs'
distr/flecs.h and SQLite's amalgamation are the models): runtime/threadlink/content.h from the
parts in runtime/src/content/, in the order below.

  tools/amalgamate.py           write the assembled headers
  tools/amalgamate.py --check   exit 1 (naming the file) when an assembled header differs from
                                its parts (a test runs this)

Between two parts it writes one line naming the next one's file, so a reader of content.h knows
where to edit. Nothing else is added or changed: the parts are the source.
"""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
HEADERS = {
    'runtime/threadlink/content.h': ('runtime/src/content', [
        'api.h', 'live_api.h',                     # declarations (the live part's under TL_CONTENT_LIVE)
        'impl.h', 'io.h', 'directories.h', 'slots.h', 'loading.h', 'context.h', 'scopes.h',
        'shutdown.h', 'live.h', 'end.h',           # the implementation, by concern
    ]),
}


def assemble(folder, parts):
    out = []
    for i, name in enumerate(parts):
        with open(os.path.join(ROOT, folder, name), encoding='utf-8') as f:
            text = f.read()
        if i:
            out.append('/* ---- %s/%s ---- */\n' % (folder, name))
        out.append(text if text.endswith('\n') else text + '\n')
    return ''.join(out)


def main(argv):
    check = '--check' in argv
    stale = 0
    for target, (folder, parts) in HEADERS.items():
        text = assemble(folder, parts)
        path = os.path.join(ROOT, target)
        with open(path, encoding='utf-8') as f:
            current = f.read()
        if current == text:
            continue
        if check:
            print('amalgamate: %s differs from its parts in %s: run tools/amalgamate.py' % (target, folder))
            stale += 1
        else:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
            print('amalgamate: wrote %s' % target)
    return 1 if stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
