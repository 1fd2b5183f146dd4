#!/usr/bin/env python3
"""tl_text_name_key against Python's unicodedata: every code point, and random strings of
letters, marks, precomposed letters and Hangul, must get the key unicodedata gives them
(normalize('NFD'), then A-Z folded to a-z). Skipped (77) when this Python's Unicode version is
not the one text.h's tables were written from.

  unicode_oracle.py TEST_TEXT TEXT_H     (TEST_TEXT: tests/text's test_text, run with --keys)
"""
import random
import re
import subprocess
import sys
import unicodedata

RANDOM_STRINGS = 50000


def fold(s):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


def samples():
    """Every code point but the surrogates, then random strings (seeded: the same every run)."""
    for cp in range(0x110000):
        if not 0xD800 <= cp <= 0xDFFF:
            yield chr(cp)
    rng = random.Random(41)
    marks = [chr(cp) for cp in range(0x300, 0x370)] + ["\u0591", "\u05b0", "\u0f71", "\u0f72", "\u0f74",
                                                      "\u1dc0", "\u20d0", "\u302a", "\u3099", "\U0001d165"]
    composed = ["\u00e9", "\u00c9", "\u1ea1", "\u1f82", "\u0390", "\u212a", "\u2126", "\ud55c", "\uac00",
                "\U0001d15e", "\u0344", "\u0f73", "\u1e69", "\u01d5"]
    letters = ["a", "E", "k", "/", "\u1100", "\u1161", "\u11ab", "\u03b1", "\u00df"]
    pool = marks + composed + letters
    for _ in range(RANDOM_STRINGS):
        yield "".join(rng.choice(pool) for _ in range(rng.randint(1, 8)))


def main(test_text, text_h):
    with open(text_h, encoding="utf-8") as f:
        found = re.search(r'TL__TEXT_UNICODE_VERSION "([0-9.]+)"', f.read())
    if not found or found.group(1) != unicodedata.unidata_version:
        print("text.h's tables are Unicode %s, this Python's %s: skipped"
              % (found.group(1) if found else "?", unicodedata.unidata_version))
        return 77
    inputs = list(samples())
    lines = "".join(s.encode("utf-8", "surrogatepass").hex() + "\n" for s in inputs)
    run = subprocess.run([test_text, "--keys"], input=lines, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print("test_text --keys failed (%d): %s" % (run.returncode, run.stderr))
        return 1
    got = run.stdout.split("\n")
    failures = 0
    for i, s in enumerate(inputs):
        want = fold(unicodedata.normalize("NFD", s)).encode().hex()
        if i >= len(got) or got[i] != want:
            failures += 1
            if failures <= 10:
                print("FAIL: %s: key %s, unicodedata %s" % (s.encode().hex(), got[i] if i < len(got) else "-", want))
    print("%d keys compared with Unicode %s, %d differ" % (len(inputs), unicodedata.unidata_version, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
