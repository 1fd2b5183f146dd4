#!/usr/bin/env python3
"""Renames the runtime's modules to names that say their job (issue 42), in this tree or in a
game's own sources:

    scribe.h -> log.h          (logging)            tl_log_* already
    iris.h -> events.h         (the seed's Iris)    tl_iris_* -> tl_events_*, tl_iris_registry -> tl_events
    initium.h -> lifecycle.h   (the seed's Initium) tl_core* -> tl_lifecycle*, tl_batch* ->
                                                    tl_lifecycle_batch*, tl_subsystem -> tl_lifecycle_subsystem
    nexus.h -> levels.h        (the seed's Nexus)   tl_nexus* -> tl_levels*, tl_nexus_level* -> tl_level*,
                                                    tl_hold* -> tl_level_hold*

  tools/rename_modules.py [--dry-run] PATH...

Each PATH is a file or a folder (searched for C sources, headers, build files, scripts and
Markdown). Identifiers are replaced whole (tl_iris_subscribe, TL_IRIS_PUBLISH, tl__nexus_log),
includes by file name (<threadlink/iris.h>), and the module names the runtime logs with ("Iris:
error: ..." -> "Events: error: ..."). Prose is left alone: read the diff. Running it again
changes nothing; after a merge that brings old names back, run it again.
"""
import os
import re
import sys

# Whole identifiers, checked before the prefixes below.
EXACT = {
    'tl_iris_registry': 'tl_events',
    'tl_iris_event_info': 'tl_events_info',
    'tl_core': 'tl_lifecycle',
    'tl_subsystem': 'tl_lifecycle_subsystem',
    'TL_SUBSYSTEM_SINGLETON': 'TL_LIFECYCLE_SINGLETON',
    'tl_batch': 'tl_lifecycle_batch',
    'tl_batch_object': 'tl_lifecycle_object',
    'tl_object_vtable': 'tl_lifecycle_object_vtable',
    'tl_object_fn': 'tl_lifecycle_object_fn',
    'tl_deploy_status': 'tl_lifecycle_deploy_status',
    'tl_preload_status': 'tl_lifecycle_status',
    'tl_initium_log_item': 'tl_lifecycle_log_item',
    'tl_register': 'tl_lifecycle_register',
    'tl_linker': 'tl_lifecycle_linker',
    'tl_weaver': 'tl_lifecycle_weaver',
    'tl_playtime_mode': 'tl_time_playtime_mode',
    'tl_nexus': 'tl_levels',
    'tl_nexus_level': 'tl_level',
    'tl_nexus_level_state': 'tl_levels_level_state',
    'tl_nexus_log_item': 'tl_levels_log_item',
    'tl_hold': 'tl_level_hold',
    'tl_hold_status': 'tl_level_hold_status',
    'TL_SCRIBE_H': 'TL_LOG_H',
    'TL_SCRIBE_IMPL': 'TL__SCRIBE_IMPL_RETIRED',
    'TL_IRIS_IMPL': 'TL__IRIS_IMPL_RETIRED',
}

# Prefixes, longest first.
PREFIXES = [
    ('tl_nexus_level_', 'tl_level_'),
    ('tl_nexus_', 'tl_levels_'),
    ('tl__nexus_', 'tl__levels_'),
    ('TL_NEXUS_', 'TL_LEVELS_'),
    ('TL__NEXUS_', 'TL__LEVELS_'),
    ('tl_hold_', 'tl_level_hold_'),
    ('TL_HOLD_', 'TL_LEVEL_HOLD_'),
    ('tl_iris_', 'tl_events_'),
    ('tl__iris_', 'tl__events_'),
    ('TL_IRIS_', 'TL_EVENTS_'),
    ('TL__IRIS_', 'TL__EVENTS_'),
    ('tl_core_', 'tl_lifecycle_'),
    ('tl__core_', 'tl__lifecycle_'),
    ('TL_CORE_', 'TL_LIFECYCLE_'),
    ('TL__CORE_', 'TL__LIFECYCLE_'),
    ('tl_batch_', 'tl_lifecycle_batch_'),
    ('tl__batch_', 'tl__lifecycle_batch_'),
    ('TL_BATCH_', 'TL_LIFECYCLE_BATCH_'),
    ('TL__BATCH_', 'TL__LIFECYCLE_BATCH_'),
    ('TL_DEPLOY_', 'TL_LIFECYCLE_DEPLOY_'),
    ('TL_PRELOAD_', 'TL_LIFECYCLE_'),
    ('tl_register_', 'tl_lifecycle_register_'),
    ('tl_linker_', 'tl_lifecycle_linker_'),
    ('tl_weaver_', 'tl_lifecycle_weaver_'),
    ('TL_REGISTER_', 'TL_LIFECYCLE_REGISTER_'),
    ('TL_LINKER_', 'TL_LIFECYCLE_LINKER_'),
    ('TL_WEAVER_', 'TL_LIFECYCLE_WEAVER_'),
    ('tl__initium_', 'tl__lifecycle_'),
    ('TL_INITIUM_', 'TL_LIFECYCLE_'),
    ('TL__INITIUM_', 'TL__LIFECYCLE_'),
    ('TL_PLAYTIME_', 'TL_TIME_PLAYTIME_'),
    ('tl__scribe_', 'tl__log_'),
    ('TL__SCRIBE_', 'TL__LOG_'),
]

HEADERS = {'scribe.h': 'log.h', 'iris.h': 'events.h', 'initium.h': 'lifecycle.h', 'nexus.h': 'levels.h'}
# The module name in log lines ("Nexus: error: ...").
MODULE_NAMES = {'"Iris"': '"Events"', '"Initium"': '"Lifecycle"', '"Nexus"': '"Levels"'}

IDENT = re.compile(r'\b[A-Za-z_][A-Za-z0-9_]*\b')
HEADER = re.compile(r'(?<![A-Za-z0-9_])(scribe|iris|initium|nexus)\.h\b')
SUFFIXES = ('.c', '.h', '.re', '.build', '.txt', '.sh', '.py', '.md', '.cmake', '.in', '.json',
            '.ini', 'Makefile', 'CMakeLists.txt')
SKIP_DIRS = {'.git', 'build', 'build-sanitize', 'build-clang', 'subprojects'}


def rename_ident(m):
    word = m.group(0)
    if word in EXACT:
        return EXACT[word]
    for old, new in PREFIXES:
        if word.startswith(old):
            return new + word[len(old):]
    return word


def rewrite(text):
    text = IDENT.sub(rename_ident, text)
    text = HEADER.sub(lambda m: HEADERS[m.group(0)], text)
    for old, new in MODULE_NAMES.items():
        text = text.replace(old, new)
    return text


def files_under(path):
    if os.path.isfile(path):
        yield path
        return
    for root, dirs, names in os.walk(path):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        for name in names:
            if name.endswith(SUFFIXES) and name != os.path.basename(__file__):
                yield os.path.join(root, name)


def main(argv):
    dry = '--dry-run' in argv
    paths = [a for a in argv if a != '--dry-run']
    if not paths:
        print(__doc__.strip())
        return 2
    changed = 0
    for path in paths:
        for f in files_under(path):
            try:
                with open(f, encoding='utf-8') as h:
                    old = h.read()
            except (UnicodeDecodeError, OSError):
                continue
            new = rewrite(old)
            if new != old:
                changed += 1
                print(('would rewrite ' if dry else 'rewrote ') + f)
                if not dry:
                    with open(f, 'w', encoding='utf-8') as h:
                        h.write(new)
    print('%d file(s) %s' % (changed, 'to rewrite' if dry else 'rewritten'))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
