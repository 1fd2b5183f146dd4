#!/usr/bin/env python3
"""Golden cases of threadlink-gen: a small project in, exact outputs or diagnostics out.

    run.py GEN CASE_DIR            run one case; exit 1 with a unified diff on any mismatch
    run.py --update GEN CASE_DIR   rewrite CASE_DIR/expected from what GEN does (then review it)
    run.py --registered DIR CASE...  exit 1 unless CASE... names every case directory in DIR

A case directory is a project (threadlink.json, injectors/, vaults/, ...) plus:
  cmd        optional: the generator's arguments, shell-quoted on one line
             (default: generate --banner-without-version)
  expected/  exit          the exit status
             diagnostics.txt  stderr, exact (absent: stderr is empty)
             stdout.txt    stdout, exact (absent: stdout is empty)
             every other file: a file the run created or changed, at its project-relative path
The case is copied to a temporary directory and the generator runs there; the set of files it
created or changed (up-to-date stamps aside, which hash the generator's build) must be exactly the
expected ones, byte for byte, and it must remove nothing. A refused run therefore proves too that
it left every file untouched.
"""
import difflib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

DEFAULT_CMD = "generate --banner-without-version"
RESERVED = ("exit", "diagnostics.txt", "stdout.txt")
CASE_ONLY = ("cmd", "expected")  # parts of a case that are not the project
STAMP = ".threadlink-gen.stamp"
QUICK_STAMP = ".threadlink-gen.quick"  # the quick stamp: file times, a cache like the stamp
TIMEOUT_S = 60


def read_tree(root):
    """{relative path: bytes} of every file below root."""
    files = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in filenames:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, root)] = f.read()
    return files


def copy_project(case, work):
    for name in sorted(os.listdir(case)):
        if name in CASE_ONLY:
            continue
        src, dst = os.path.join(case, name), os.path.join(work, name)
        if os.path.isdir(src):
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)


def case_args(case):
    path = os.path.join(case, "cmd")
    if not os.path.exists(path):
        return shlex.split(DEFAULT_CMD)
    with open(path, encoding="utf-8") as f:
        return shlex.split(f.read())


def run_case(gen, case):
    """What the generator did: {name: bytes} in the layout of expected/, and what it removed."""
    with tempfile.TemporaryDirectory(prefix="tl-golden-") as work:
        copy_project(case, work)
        before = read_tree(work)
        proc = subprocess.run([gen] + case_args(case), cwd=work, capture_output=True,
                              timeout=TIMEOUT_S)
        after = read_tree(work)
    actual = {p: data for p, data in after.items()
              if os.path.basename(p) not in (STAMP, QUICK_STAMP) and before.get(p) != data}
    actual["exit"] = b"%d\n" % proc.returncode
    if proc.stderr:
        actual["diagnostics.txt"] = proc.stderr
    if proc.stdout:
        actual["stdout.txt"] = proc.stdout
    removed = sorted(p for p in before if p not in after)
    return actual, removed


def show(data):
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def compare(name, expected, actual, removed):
    failures = []
    for path in sorted(set(expected) | set(actual)):
        want, got = expected.get(path), actual.get(path)
        if want == got:
            continue
        if want is None and path not in RESERVED:
            failures.append("%s: %s was written but is not expected\n" % (name, path))
        elif got is None and path not in RESERVED:
            failures.append("%s: %s was expected but not written\n" % (name, path))
        else:
            diff = difflib.unified_diff(show(want or b""), show(got or b""),
                                        "%s/expected/%s" % (name, path), "%s/actual/%s" % (name, path))
            failures.extend(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                            for line in diff)
    for path in removed:
        failures.append("%s: %s was removed\n" % (name, path))
    return failures


def update(case, actual):
    out = os.path.join(case, "expected")
    shutil.rmtree(out, ignore_errors=True)
    for path, data in actual.items():
        dst = os.path.join(out, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(data)


def check_registered(root, names):
    """A case directory meson.build does not list would never run."""
    cases = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)))
    missing = [c for c in cases if c not in names]
    unknown = [n for n in names if n not in cases]
    for c in missing:
        print("FAIL: golden case %s is not listed in tests/gen/golden/meson.build" % c)
    for n in unknown:
        print("FAIL: tests/gen/golden/meson.build lists %s, which is no case directory" % n)
    return 1 if missing or unknown else 0


def main(argv):
    if len(argv) > 2 and argv[1] == "--registered":
        return check_registered(argv[2], argv[3:])
    updating = len(argv) > 1 and argv[1] == "--update"
    args = argv[2:] if updating else argv[1:]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    gen, case = os.path.abspath(args[0]), os.path.abspath(args[1])
    name = os.path.basename(case)
    actual, removed = run_case(gen, case)
    if updating:
        update(case, actual)
        print("updated %s/expected (%d files)%s" % (name, len(actual),
              ", and it removed: " + " ".join(removed) if removed else ""))
        return 0
    expected = read_tree(os.path.join(case, "expected"))
    failures = compare(name, expected, actual, removed)
    sys.stdout.writelines(failures)
    if failures:
        print("FAIL: golden case %s (tests/gen/golden/update.sh %s rewrites it; review the diff)"
              % (name, name))
        return 1
    print("ok: golden case %s (%d expected files)" % (name, len(expected)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
