#!/bin/sh
# Generated vault headers compile without warnings as C99/C11/C2x (gcc, clang) and C++17 (g++,
# clang++) with -Wall -Wextra -Wpedantic -Werror, and the program runs.
#   compile_vault_headers.sh RUNTIME_DIR PROJECT_DIR SOURCE [DEFINE]   (DEFINE: e.g. -DTL_DEVELOPMENT)
set -eu
runtime=$1
project=$2
src=$3
define=${4:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src" "$work/use.c"
cp "$src" "$work/use.cpp"
count=0
failed=0
check() { # compiler std source
  count=$((count + 1))
  if ! "$1" -std="$2" -Wall -Wextra -Wpedantic -Werror $define -I"$runtime" -I"$project/generated" "$work/$3" -o "$work/prog" 2>"$work/err"; then
    echo "FAIL: $1 -std=$2"; cat "$work/err"; failed=$((failed + 1)); return
  fi
  "$work/prog" > /dev/null || { echo "FAIL: running $1 -std=$2"; failed=$((failed + 1)); }
}
for std in c99 c11 c2x; do check gcc $std use.c; check clang $std use.c; done
check g++ c++17 use.cpp
check clang++ c++17 use.cpp
echo "$count compilations, $failed failed"
[ "$failed" = 0 ]
