#!/usr/bin/env python3
# SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors)
"""Builds the l10n benchmark's inputs: make_bench.py THREADLINK_GEN MSGFMT OUTDIR.

The same 1,000 game strings twice, English source and French translation (non-ASCII letters,
reordered arguments, plurals):
  - threadlink: OUTDIR/project (threadlink.json, text/en.po, text/fr.po) run through
    `threadlink-gen generate`: the tables project/generated/text/{en,fr}.tltext, and text.h and
    text_keys.h copied to OUTDIR;
  - gettext: OUTDIR/gettext/fr.po (msgid the English printf format, msgstr the French one) compiled
    by msgfmt into OUTDIR/gettext/fr/LC_MESSAGES/bench.mo;
  - OUTDIR/bench_calls.h: the call sites, one a key, for each side (what a game's code would be).
Kinds of key: 600 plain texts, 250 with one integer, 100 with a string and an integer (French puts
the integer first), 50 plurals."""
import os
import shutil
import subprocess
import sys

KEYS = 1000
NOUNS = [("chest", "coffre"), ("gate", "porte"), ("tower", "tour"), ("forest", "forêt"),
         ("castle", "château"), ("bridge", "pont"), ("cave", "grotte"), ("lake", "lac")]
HEADER = ('msgid ""\nmsgstr ""\n"Language: {lang}\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
          '"Plural-Forms: nplurals=2; plural={rule};\\n"\n\n')


def kind_of(i):
    if i < 600:
        return "plain"
    if i < 850:
        return "int"
    if i < 950:
        return "str_int"
    return "plural"


def entry(i):
    """(key, english, french, gettext english, gettext french) for key i; plurals give pairs."""
    en_noun, fr_noun = NOUNS[i % len(NOUNS)]
    kind = kind_of(i)
    key = "%s%04d" % ({"plain": "Menu", "int": "Hud", "str_int": "Feed", "plural": "Count"}[kind], i)
    if kind == "plain":
        return key, "Open the %s number %d" % (en_noun, i), "Ouvrir le %s numéro %d" % (fr_noun, i), None, None
    if kind == "int":
        return (key, "Score at the %s %d: {score:int}" % (en_noun, i),
                "Score au %s %d : {score}" % (fr_noun, i),
                "Score at the %s %d: %%d" % (en_noun, i), "Score au %s %d : %%d" % (fr_noun, i))
    if kind == "str_int":
        return (key, "{name:str} found {coins:int} coins in the %s %d" % (en_noun, i),
                "{coins} pièces trouvées par {name} dans le %s %d" % (fr_noun, i),
                "%%s found %%d coins in the %s %d" % (en_noun, i),
                "%%2$d pièces trouvées par %%1$s dans le %s %d" % (fr_noun, i))
    return (key, ("{count:int} enemy left near the %s %d" % (en_noun, i),
                  "{count:int} enemies left near the %s %d" % (en_noun, i)),
            ("{count} ennemi restant près du %s %d" % (fr_noun, i),
             "{count} ennemis restants près du %s %d" % (fr_noun, i)),
            ("%%d enemy left near the %s %d" % (en_noun, i), "%%d enemies left near the %s %d" % (en_noun, i)),
            ("%%d ennemi restant près du %s %d" % (fr_noun, i), "%%d ennemis restants près du %s %d" % (fr_noun, i)))


def po_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def source_and_translation(entries):
    en = [HEADER.format(lang="en", rule="(n != 1)")]
    fr = [HEADER.format(lang="fr", rule="(n > 1)")]
    for key, english, french, _, _ in entries:
        if isinstance(english, tuple):
            head = "msgctxt %s\nmsgid %s\nmsgid_plural %s\n" % (po_string(key), po_string(english[0]),
                                                               po_string(english[1]))
            en.append(head + 'msgstr[0] ""\nmsgstr[1] ""\n\n')
            fr.append(head + "msgstr[0] %s\nmsgstr[1] %s\n\n" % (po_string(french[0]), po_string(french[1])))
        else:
            head = "msgctxt %s\nmsgid %s\n" % (po_string(key), po_string(english))
            en.append(head + 'msgstr ""\n\n')
            fr.append(head + "msgstr %s\n\n" % po_string(french))
    return "".join(en), "".join(fr)


def gettext_po(entries):
    """gettext's catalogue: the msgid is the English text (a printf format where it has arguments)."""
    out = [HEADER.format(lang="fr", rule="(n > 1)").replace(
        'msgstr ""\n', 'msgstr ""\n"Project-Id-Version: bench\\n"\n"PO-Revision-Date: 2026-12-04 00:00+0000\\n"\n'
        '"Last-Translator: bench\\n"\n"Language-Team: French\\n"\n"MIME-Version: 1.0\\n"\n'
        '"Content-Transfer-Encoding: 8bit\\n"\n', 1)]
    for key, english, french, g_english, g_french in entries:
        if isinstance(english, tuple):
            out.append("#, c-format\nmsgid %s\nmsgid_plural %s\nmsgstr[0] %s\nmsgstr[1] %s\n\n" % (
                po_string(g_english[0]), po_string(g_english[1]), po_string(g_french[0]), po_string(g_french[1])))
        elif g_english:
            out.append("#, c-format\nmsgid %s\nmsgstr %s\n\n" % (po_string(g_english), po_string(g_french)))
        else:
            out.append("msgid %s\nmsgstr %s\n\n" % (po_string(english), po_string(french)))
    return "".join(out)


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


KINDS = ["plain", "int", "str_int", "plural"]


def call_site(i, entry):
    """(ours, gettext's) C statements giving key i's text."""
    key, english, _, g_english, _ = entry
    kind = kind_of(i)
    if kind == "plain":
        return "    sink(text_%s(l10n));\n" % key, "    sink(dgettext(\"bench\", %s));\n" % c_string(english)
    if kind == "int":
        return ("    text_%s(l10n, buf, size, v);\n    sink(buf);\n" % key,
                "    snprintf(buf, size, dgettext(\"bench\", %s), v);\n    sink(buf);\n" % c_string(g_english))
    if kind == "str_int":
        return ("    text_%s(l10n, buf, size, name, v);\n    sink(buf);\n" % key,
                "    snprintf(buf, size, dgettext(\"bench\", %s), name, v);\n    sink(buf);\n" % c_string(g_english))
    return ("    text_%s(l10n, buf, size, v);\n    sink(buf);\n" % key,
            "    snprintf(buf, size, dngettext(\"bench\", %s, %s, (unsigned long)v), v);\n    sink(buf);\n"
            % (c_string(g_english[0]), c_string(g_english[1])))


def call_sites(entries):
    """Per kind of key, a function of each side giving every key's text: a plain text as a pointer
    (a game draws it from there), a text with arguments formatted into buf. BENCH_KINDS lists them."""
    out = ["/* Generated by make_bench.py: the call sites of both sides, per kind of key. */\n"]
    for kind in KINDS:
        ours = ["static void threadlink_%s(const tl_l10n *l10n, char *buf, size_t size, int64_t v, const char *name)\n{\n"
                "    (void)buf, (void)size, (void)v, (void)name;\n" % kind]
        theirs = ["static void gettext_%s(char *buf, size_t size, int v, const char *name)\n{\n"
                  "    (void)buf, (void)size, (void)v, (void)name;\n" % kind]
        for i, e in enumerate(entries):
            if kind_of(i) == kind:
                a, b = call_site(i, e)
                ours.append(a)
                theirs.append(b)
        out += ours + ["}\n\n"] + theirs + ["}\n\n"]
    counts = [sum(1 for i in range(len(entries)) if kind_of(i) == k) for k in KINDS]
    out.append("#define BENCH_KINDS(X) \\\n" + " \\\n".join(
        '    X(%s, %d, "%s")' % (k, n, DESCRIBE[k]) for k, n in zip(KINDS, counts)) + "\n")
    return "".join(out)


DESCRIBE = {"plain": "plain text: lookup", "int": "one integer: lookup + format",
            "str_int": "string, integer reordered: lookup + format", "plural": "plural: lookup + format"}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    gen, msgfmt, out = sys.argv[1:4]
    entries = [entry(i) for i in range(KEYS)]
    project = os.path.join(out, "project")
    en, fr = source_and_translation(entries)
    write(os.path.join(project, "text", "en.po"), en)
    write(os.path.join(project, "text", "fr.po"), fr)
    write(os.path.join(project, "threadlink.json"),
          '{\n  "generated_dir": "generated",\n  "domains": [],\n  "text": { "source": "text/en.po" }\n}\n')
    subprocess.run([gen, "generate", "-C", project, "--quiet"], check=True)
    for name in ("text.h", "text_keys.h"):
        shutil.copyfile(os.path.join(project, "generated", name), os.path.join(out, name))
    write(os.path.join(out, "gettext", "fr.po"), gettext_po(entries))
    os.makedirs(os.path.join(out, "gettext", "fr", "LC_MESSAGES"), exist_ok=True)
    subprocess.run([msgfmt, "--check", "-o", os.path.join(out, "gettext", "fr", "LC_MESSAGES", "bench.mo"),
                    os.path.join(out, "gettext", "fr.po")], check=True)
    write(os.path.join(out, "bench_calls.h"), call_sites(entries))


if __name__ == "__main__":
    main()
