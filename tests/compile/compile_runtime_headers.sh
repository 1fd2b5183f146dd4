#!/bin/sh
# Compile every header under RUNTIME/threadlink on its own (so each includes what it uses) in every
# language mode users build with. A header that warns anywhere fails here.
set -eu
runtime=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-Wall -Wextra -Wpedantic -Werror -I$runtime"
failed=0
count=0
try() { # compiler std source...
  cc=$1; std=$2; shift 2
  if ! command -v "$cc" >/dev/null 2>&1; then return 0; fi
  count=$((count + 1))
  if ! "$cc" "-std=$std" $flags -c "$@" -o "$work/out.o" 2>"$work/err"; then
    echo "FAIL: $cc -std=$std $*"; cat "$work/err"; failed=$((failed + 1))
  fi
}
for header in "$runtime"/threadlink/*.h; do
  name=$(basename "$header")
  for impl in 0 1; do
    src="$work/${name%.h}_$impl"
    { [ "$impl" = 1 ] && echo '#define TL_IMPLEMENTATION'; echo "#include <threadlink/$name>"
      echo 'int tl_compile_test_anchor(void);'; echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "$src.c"
    cp "$src.c" "$src.cpp"
    for std in c99 c11 c2x; do try gcc "$std" "$src.c"; try clang "$std" "$src.c"; done
    try g++ c++17 "$src.cpp"; try clang++ c++17 "$src.cpp"
  done
done
# The usage blocks show `#include <threadlink/x.h>`, `#define TL_IMPLEMENTATION`, `#include` again
# (a generated header may have included x.h first). That order must define every function that
# defining TL_IMPLEMENTATION before the first include defines, including those of the headers x.h
# includes; otherwise the program fails to link.
if command -v gcc >/dev/null 2>&1 && command -v nm >/dev/null 2>&1; then
  for header in "$runtime"/threadlink/*.h; do
    name=$(basename "$header")
    printf '#define TL_IMPLEMENTATION\n#include <threadlink/%s>\n' "$name" > "$work/first.c"
    printf '#include <threadlink/%s>\n#define TL_IMPLEMENTATION\n#include <threadlink/%s>\n' "$name" "$name" > "$work/again.c"
    count=$((count + 1))
    if gcc -std=c11 $flags -c "$work/first.c" -o "$work/first.o" 2>"$work/err" &&
       gcc -std=c11 $flags -c "$work/again.c" -o "$work/again.o" 2>>"$work/err"; then
      nm --defined-only -g "$work/first.o" | awk '{print $3}' | sort > "$work/first.sym"
      nm --defined-only -g "$work/again.o" | awk '{print $3}' | sort > "$work/again.sym"
      if ! cmp -s "$work/first.sym" "$work/again.sym"; then
        echo "FAIL: $name included, then TL_IMPLEMENTATION defined and included again, lacks:"
        comm -23 "$work/first.sym" "$work/again.sym"; failed=$((failed + 1))
      fi
    else
      echo "FAIL: $name in the usage block's order"; cat "$work/err"; failed=$((failed + 1))
    fi
  done
fi
echo "$count compilations, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" = 0 ]
