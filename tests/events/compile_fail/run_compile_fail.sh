#!/bin/sh
# Compile-fail tests for typed APIs (the event API; vault collections, from tests/vault):
# RUNTIME_DIR INCLUDE_DIR CASE.c...
# Each case compiles cleanly as it is (the control), and must fail to compile with -DTL_EXPECT_FAIL,
# with an error that names the type on the line marked `EXPECTED-ERROR <type>` (as the error's
# location or the location of the macro expansion a note names), so it fails for the expected
# reason and not for any other. C is compiled both with plain -std=... -Wall -Wextra -Wpedantic
# (gcc 12 and clang 14 only warn about an incompatible function pointer: the generated macros'
# compile-time check must refuse it) and with -Werror=incompatible-pointer-types; C++ with plain
# -std=c++17 (it rejects the conversion anyway). Every compiler on PATH among gcc, clang, g++,
# clang++ is tried.
set -eu
runtime=$1
sample=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
count=0

check() { # compiler std lang case [extra flag]
  cc=$1; std=$2; lang=$3; src=$4; extra=${5:-}
  command -v "$cc" >/dev/null 2>&1 || return 0
  name=$(basename "$src")
  flags="-std=$std -Wall -Wextra -Wpedantic -I$runtime -I$sample $extra"
  # No source echo in diagnostics: the marker comment must not satisfy the check below.
  case $cc in clang*) flags="$flags -fno-caret-diagnostics" ;; *) flags="$flags -fno-diagnostics-show-caret" ;; esac
  count=$((count + 1))
  if ! "$cc" -x "$lang" $flags -Werror -c "$src" -o "$work/out.o" 2>"$work/control.err"; then
    echo "FAIL: $cc $std $name: the control (without TL_EXPECT_FAIL) does not compile"
    cat "$work/control.err"; failed=$((failed + 1)); return 0
  fi
  if "$cc" -x "$lang" $flags -DTL_EXPECT_FAIL -c "$src" -o "$work/out.o" 2>"$work/fail.err"; then
    echo "FAIL: $cc $std $name: the case compiled with TL_EXPECT_FAIL"
    cat "$work/fail.err"; failed=$((failed + 1)); return 0
  fi
  line=$(grep -n 'EXPECTED-ERROR' "$src" | cut -d: -f1)
  type=$(sed -n "${line}s/.*EXPECTED-ERROR \([A-Za-z0-9_]*\).*/\1/p" "$src")
  reason='incompatible|invalid conversion|could not convert|no matching function|negative width|is_not_the_type_of_this_listener'
  if ! grep -E "error: .*($reason)" "$work/fail.err" >/dev/null || ! grep -q "$type" "$work/fail.err" ||
     ! grep -E "$name:$line:[0-9]+: (error|note)" "$work/fail.err" >/dev/null; then
    echo "FAIL: $cc $std $extra $name: compilation failed, but not with a conversion error naming $type at line $line"
    cat "$work/fail.err"; failed=$((failed + 1)); return 0
  fi
  echo "ok: $cc $std $extra $name: refused at line $line ($type)"
}

for src in "$@"; do
  for std in c99 c11; do
    for extra in "" -Werror=incompatible-pointer-types; do check gcc "$std" c "$src" "$extra"; check clang "$std" c "$src" "$extra"; done
  done
  check g++ c++17 c++ "$src"; check clang++ c++17 c++ "$src"
done
echo "$count cases, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" = 0 ]
