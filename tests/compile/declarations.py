#!/usr/bin/env python3
"""Counts the declaration lines of preprocessed C (`cc -E -P` output on stdin): every non-blank
line except the bodies of function definitions, which a header's static inline functions carry
and sokol_gfx.h's declarations (the yardstick) do not. A body starts at a line, outside any
body, that ends a declarator `... ) {` (attributes allowed, not a struct, union or enum, not an
initialiser), and ends at its matching brace. Braces inside string or character literals would
confuse it: the core headers have none in their bodies."""
import re
import sys

OPENS_BODY = re.compile(r'\)\s*(?:__attribute__\s*\(\(.*\)\)\s*)*\{')


def declaration_lines(text):
    count, depth = 0, 0
    for line in text.split('\n'):
        if depth:
            depth += line.count('{') - line.count('}')
            continue
        if not line.strip():
            continue
        count += 1
        head = line.split('{', 1)[0]
        if (OPENS_BODY.search(line) and '=' not in head and
                not re.match(r'\s*(typedef\s+)?(struct|union|enum)\b', line)):
            depth = line.count('{') - line.count('}')
    return count


if __name__ == '__main__':
    print(declaration_lines(sys.stdin.read()))
