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
echo "$count compilations, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" = 0 ]
