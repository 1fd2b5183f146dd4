#!/bin/sh
# Compile-fail cases of the typed text functions: RUNTIME_DIR INCLUDE_DIR CASE.c...
# Each case compiles cleanly as it is (the control), with -Werror, and must fail to compile with
# -DTL_EXPECT_FAIL at the line marked `EXPECTED-ERROR <word>`: in C (gcc, clang; c99 and c11,
# plain -Wall -Wextra -Wpedantic, where a pointer passed for an integer is only a warning without
# the generated macros' check) with an error naming <word> (the check's field, or the function
# whose arguments are wrong); in C++17 (g++, clang++) with an error at that line, unless the line
# says C-ONLY (C++ converts a double to an integer parameter).
set -eu
runtime=$1
include=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
count=0

check() { # compiler std lang case
  cc=$1; std=$2; lang=$3; src=$4
  command -v "$cc" >/dev/null 2>&1 || return 0
  name=$(basename "$src")
  line=$(grep -n 'EXPECTED-ERROR' "$src" | cut -d: -f1)
  word=$(sed -n "${line}s/.*EXPECTED-ERROR \([A-Za-z0-9_]*\).*/\1/p" "$src")
  if [ "$lang" = c++ ] && grep -q 'C-ONLY' "$src"; then return 0; fi
  flags="-std=$std -Wall -Wextra -Wpedantic -I$runtime -I$include"
  case $cc in clang*) flags="$flags -fno-caret-diagnostics" ;; *) flags="$flags -fno-diagnostics-show-caret" ;; esac
  count=$((count + 1))
  if ! "$cc" -x "$lang" $flags -Werror -c "$src" -o "$work/out.o" 2>"$work/control.err"; then
    echo "FAIL: $cc $std $name: the control (without TL_EXPECT_FAIL) does not compile"
    cat "$work/control.err"; failed=$((failed + 1)); return 0
  fi
  if "$cc" -x "$lang" $flags -DTL_EXPECT_FAIL -c "$src" -o "$work/out.o" 2>"$work/fail.err"; then
    echo "FAIL: $cc $std $name: compiled with TL_EXPECT_FAIL"
    cat "$work/fail.err"; failed=$((failed + 1)); return 0
  fi
  if ! grep -E "$name:$line:[0-9]+: (error|note)" "$work/fail.err" >/dev/null ||
     { [ "$lang" = c ] && ! grep -E "error: .*$word" "$work/fail.err" >/dev/null; }; then
    echo "FAIL: $cc $std $name: refused, but not at line $line${word:+ naming $word}"
    cat "$work/fail.err"; failed=$((failed + 1)); return 0
  fi
  echo "ok: $cc $std $name: refused at line $line"
}

for src in "$@"; do
  for std in c99 c11; do check gcc "$std" c "$src"; check clang "$std" c "$src"; done
  check g++ c++17 c++ "$src"; check clang++ c++17 c++ "$src"
done
echo "$count cases, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" = 0 ]
