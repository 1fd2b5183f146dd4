#!/usr/bin/env python3
"""Embeds the files shipped with the generator: embed.py OUT.c domain.shell.h custom_domain.shell.h
Iris.Events.Native.txt Dextra.InputModes.Native.txt"""
import sys

out, *inputs = sys.argv[1:]
names = ["tlg_shell_domain", "tlg_shell_custom_domain", "tlg_native_iris_events", "tlg_native_input_modes"]
with open(out, "w", encoding="utf-8") as f:
    f.write("/* Generated from templates/ by gen/embed.py. */\n")
    for name, path in zip(names, inputs):
        data = open(path, "rb").read()
        f.write("const char %s[] =\n" % name)
        for i in range(0, len(data), 64):
            chunk = data[i:i + 64]
            f.write('    "' + "".join("\\x%02x" % b for b in chunk) + '"\n')
        f.write(";\n")
