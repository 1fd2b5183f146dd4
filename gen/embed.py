#!/usr/bin/env python3
"""Embeds the files shipped with the generator, so that an installed threadlink-gen needs no data
directory:

    embed.py OUT.c domain.shell.h custom_domain.shell.h Iris.Events.Native.txt [--init ROOT FILE...]

The three files become the strings tlg_shell_domain, tlg_shell_custom_domain and
tlg_native_iris_events; with --init, each FILE (a path below ROOT, as templates/init/files.txt
lists them) becomes an entry of tlg_init_files (gen/core/init.h): its path below ROOT and its
bytes, what `threadlink-gen init` writes."""
import os
import sys

NAMES = ["tlg_shell_domain", "tlg_shell_custom_domain", "tlg_native_iris_events"]


def c_bytes(f, data):
    """The bytes as a C string literal, 64 a line."""
    if not data:
        f.write('    ""\n')
    for i in range(0, len(data), 64):
        f.write('    "' + "".join("\\x%02x" % b for b in data[i:i + 64]) + '"\n')


def main(argv):
    out, *rest = argv[1:]
    init = []
    if "--init" in rest:
        at = rest.index("--init")
        rest, (root, *init) = rest[:at], rest[at + 1:]
    with open(out, "w", encoding="utf-8") as f:
        f.write("/* Generated from templates/ by gen/embed.py. */\n")
        for name, path in zip(NAMES, rest):
            f.write("const char %s[] =\n" % name)
            c_bytes(f, open(path, "rb").read())
            f.write(";\n")
        if not init:
            return
        # Arrays, not string literals: C99 promises string literals of 4095 bytes only.
        f.write('#include "core/init.h"\n')
        for i, path in enumerate(init):
            data = open(path, "rb").read() + b"\0"
            f.write("static const char tlg_init_data_%d[] = {\n" % i)
            for k in range(0, len(data), 16):
                f.write("    " + ", ".join("0x%02x" % b for b in data[k:k + 16]) + ",\n")
            f.write("};\n")
        f.write("const tlg_embedded_file tlg_init_files[] = {\n")
        for i, path in enumerate(init):
            size = os.path.getsize(path)
            f.write('    {"%s", %d, tlg_init_data_%d},\n' % (os.path.relpath(path, root).replace(os.sep, "/"), size, i))
        f.write("};\nconst size_t tlg_init_file_count = %d;\n" % len(init))


main(sys.argv)
