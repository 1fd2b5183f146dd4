#!/usr/bin/env python3
"""Writes the Unicode tables of runtime/threadlink/text.h (issue 41): what tl_text_name_key needs
to give a name's canonical decomposition (NFD) in canonical order, from Python's unicodedata.

  tools/make_unicode_tables.py [--check] [TEXT_H]     (TEXT_H: runtime/threadlink/text.h)

It replaces the part of TEXT_H between the BEGIN and END lines of the Unicode tables with:
  - every canonical decomposition, one level (a code point and the one or two it maps to; the
    runtime applies them again to their parts), Hangul syllables left to arithmetic;
  - every canonical combining class other than 0, as runs of code points of one class;
  - the Unicode version, and the most code points one code point decomposes to.
Before writing, it checks the tables the way the runtime uses them against
unicodedata.normalize('NFD') for every code point. --check writes nothing and exits 1 when TEXT_H
differs from what it would write, 77 (skipped) when this Python's Unicode version is not the
tables' (another version's tables differ by the characters it added).
"""
import os
import re
import sys
import unicodedata

BEGIN = "/* ---- BEGIN Unicode tables"
END = "/* ---- END Unicode tables ---- */"
HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3
PER_LINE_DECOMPOSITIONS = 4
PER_LINE_CLASSES = 4


def decompositions():
    """[(code point, [parts])] of every canonical decomposition, one level, ascending."""
    rows = []
    for cp in range(0x110000):
        d = unicodedata.decomposition(chr(cp))
        if d and not d.startswith("<"):
            rows.append((cp, [int(x, 16) for x in d.split()]))
    return rows


def class_runs():
    """[[first, last, class]] of the code points whose canonical combining class is not 0."""
    runs = []
    for cp in range(0x110000):
        k = unicodedata.combining(chr(cp))
        if not k:
            continue
        if runs and runs[-1][1] == cp - 1 and runs[-1][2] == k:
            runs[-1][1] = cp
        else:
            runs.append([cp, cp, k])
    return runs


def hangul(cp):
    """A Hangul syllable's jamo (Unicode's arithmetic), or None."""
    if not HANGUL_FIRST <= cp <= HANGUL_LAST:
        return None
    s = cp - HANGUL_FIRST
    parts = [0x1100 + s // 588, 0x1161 + (s % 588) // 28]
    if s % 28:
        parts.append(0x11A7 + s % 28)
    return parts


def full(cp, table):
    """cp decomposed all the way, as the runtime does it."""
    parts = hangul(cp) or table.get(cp)
    if not parts:
        return [cp]
    return [x for p in parts for x in full(p, table)]


def ordered(parts, ccc):
    """Canonical order as the runtime makes it: each mark placed after the marks of its run whose
    class is not above its own; a starter (class 0) ends a run."""
    out, run = [], 0
    for p in parts:
        k = ccc.get(p, 0)
        if not k:
            out.append(p)
            run = len(out)
            continue
        at = run
        while at < len(out) and ccc.get(out[at], 0) <= k:
            at += 1
        out.insert(at, p)
    return out


def check(rows, runs):
    """The tables, applied as the runtime applies them, agree with unicodedata for every code
    point; returns the most code points one decomposes to."""
    table = dict(rows)
    ccc = {}
    for first, last, k in runs:
        for cp in range(first, last + 1):
            ccc[cp] = k
    longest = 1
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        parts = full(cp, table)
        longest = max(longest, len(parts))
        if "".join(map(chr, ordered(parts, ccc))) != unicodedata.normalize("NFD", chr(cp)):
            sys.exit("make_unicode_tables: U+%04X decomposes differently from unicodedata" % cp)
        if len("".join(map(chr, parts)).encode()) > 3 * len(chr(cp).encode()):
            sys.exit("make_unicode_tables: U+%04X more than triples its UTF-8 length" % cp)
    return longest


def rows_text(items, per_line, fmt):
    lines = []
    for i in range(0, len(items), per_line):
        lines.append("    " + " ".join(fmt(x) for x in items[i:i + per_line]))
    return "\n".join(lines)


def tables_text(rows, runs, longest):
    version = unicodedata.unidata_version

    def decomposition(row):
        cp, parts = row
        return "{ 0x%x, 0x%x, 0x%x }," % (cp, parts[0], parts[1] if len(parts) > 1 else 0)

    def run(r):
        return "{ 0x%x, 0x%x, %d }," % tuple(r)

    return "\n".join([
        BEGIN + ": tools/make_unicode_tables.py writes this part from Python's unicodedata",
        "   (Unicode %s); do not edit it by hand ---- */" % version,
        "/* clang-format off */",
        '#define TL__TEXT_UNICODE_VERSION "%s"' % version,
        "/* The most code points one code point decomposes to, all the way. */",
        "#define TL__TEXT_DECOMPOSITION_MAX %d" % longest,
        "/* Canonical decompositions, one level: a code point, then the one or two it maps to (the",
        "   second 0 for one), ascending. Hangul syllables decompose by arithmetic instead. */",
        "static const uint32_t tl__text_decompositions[%d][3] = {" % len(rows),
        rows_text(rows, PER_LINE_DECOMPOSITIONS, decomposition),
        "};",
        "/* Canonical combining classes other than 0: runs of code points of one class (first, last,",
        "   class), ascending. */",
        "static const uint32_t tl__text_combining[%d][3] = {" % len(runs),
        rows_text(runs, PER_LINE_CLASSES, run),
        "};",
        "/* clang-format on */",
        END,
    ])


def main(argv):
    check_only = "--check" in argv
    args = [a for a in argv if a != "--check"]
    path = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "runtime", "threadlink", "text.h")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        sys.exit("make_unicode_tables: %s has no Unicode tables section to replace" % path)
    if check_only:
        found = re.search(r"TL__TEXT_UNICODE_VERSION \"([0-9.]+)\"", text[start:end])
        if not found or found.group(1) != unicodedata.unidata_version:
            print("make_unicode_tables: the tables are Unicode %s, this Python's unicodedata %s: skipped"
                  % (found.group(1) if found else "?", unicodedata.unidata_version))
            return 77
    rows, runs = decompositions(), class_runs()
    written = text[:start] + tables_text(rows, runs, check(rows, runs)) + text[end + len(END):]
    if check_only:
        if written != text:
            print("make_unicode_tables: %s differs from what this tool writes; run it" % path)
            return 1
        print("make_unicode_tables: %s: Unicode %s tables up to date (%d decompositions, %d class runs)"
              % (path, unicodedata.unidata_version, len(rows), len(runs)))
        return 0
    if written != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(written)
    print("make_unicode_tables: %s: Unicode %s, %d decompositions, %d class runs"
          % (path, unicodedata.unidata_version, len(rows), len(runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
