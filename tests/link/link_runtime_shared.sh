#!/bin/sh
# The runtime as a shared library, through TL_SHARED (TL_BUILD_SHARED on the building side):
#   - ELF: libtl.so from one file with TL_IMPLEMENTATION, built -fvisibility=hidden, exports every
#     function and object the same file defines when built plainly (nm -D), and runtime_user.c
#     links against it and runs;
#   - Windows (if x86_64-w64-mingw32-gcc is installed): tl.dll and its import library link with a
#     consumer that imports the runtime (__declspec(dllimport)), which runs under Wine when Wine
#     starts (a note, not a failure, when it does not).
# Usage: link_runtime_shared.sh SOURCE_ROOT [CC]
set -u
root=$1
cc=${2:-cc}
runtime=$root/runtime
here=$root/tests/link
work=$(mktemp -d)
. "$root/tests/cross/targets.sh"
trap 'tl_cross_finish "$work"; rm -rf "$work"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

printf '#define TL_IMPLEMENTATION\n#include <threadlink/threadlink.h>\n' > "$work/lib.c"
flags="-std=c11 -Wall -Wextra -Wpedantic -Werror -I$runtime"

# shellcheck disable=SC2086
if "$cc" $flags -c "$work/lib.c" -o "$work/plain.o" &&
   "$cc" $flags -fPIC -fvisibility=hidden -DTL_SHARED -DTL_BUILD_SHARED -shared "$work/lib.c" \
     -o "$work/libtl.so"; then
  nm -g --defined-only "$work/plain.o" | awk '{print $3}' | sort > "$work/want"
  nm -D --defined-only "$work/libtl.so" | awk '{print $3}' | grep '^tl' | sort > "$work/have"
  if [ ! -s "$work/want" ] || ! cmp -s "$work/want" "$work/have"; then
    fail "libtl.so (-fvisibility=hidden) exports $(wc -l < "$work/have") of the $(wc -l < "$work/want") symbols; missing:"
    comm -23 "$work/want" "$work/have" | head -n 20
  fi
  # shellcheck disable=SC2086
  if "$cc" $flags -DTL_SHARED "$here/runtime_user.c" -L"$work" -ltl -Wl,-rpath,"$work" -o "$work/user"; then
    "$work/user" || fail "the consumer of libtl.so fails"
  else
    fail "the consumer does not link against libtl.so"
  fi
else
  fail "libtl.so does not build"
fi

if tl_cross_ready x86_64-w64-mingw32:wine "$work" >/dev/null 2>&1 ||
   command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
  mingw="x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I$runtime -idirafter $work/xxhash-include"
  mkdir -p "$work/xxhash-include" "$work/win"
  [ -e "$work/xxhash-include/xxhash.h" ] || ln -s /usr/include/xxhash.h "$work/xxhash-include/xxhash.h"
  # shellcheck disable=SC2086
  if $mingw -DTL_SHARED -DTL_BUILD_SHARED -shared "$work/lib.c" -o "$work/win/tl.dll" \
       -Wl,--out-implib,"$work/win/libtl.dll.a" &&
     $mingw -DTL_SHARED -c "$here/runtime_user.c" -o "$work/win/user.o" &&
     $mingw "$work/win/user.o" "$work/win/libtl.dll.a" -o "$work/win/user.exe"; then
    # Imported, not auto-imported: every runtime symbol the consumer uses goes through __imp_.
    x86_64-w64-mingw32-nm -u "$work/win/user.o" | awk '{print $2}' | grep 'tl_' > "$work/win/refs"
    if grep -v '^__imp_' "$work/win/refs" > "$work/win/direct"; then
      fail "the consumer refers to $(wc -l < "$work/win/direct") runtime symbols directly, not through __imp_ (dllimport):"
      head -n 5 "$work/win/direct"
    fi
    if [ -x /usr/lib/wine/wine64 ]; then
      tl_cross_program=/usr/lib/wine/wine64
      tl_cross_wine_prefix=${tl_cross_wine_prefix:-$work/wineprefix} # (tl_cross_ready's, when it ran)
      # Wine's first start makes its prefix: allow it a while, and skip the run if it cannot.
      if (cd "$work/win" && timeout 120 sh -c '. "$1"; tl_cross_program=$2; tl_cross_wine_prefix=$3
             tl_cross_wine cmd /c exit 0' sh "$root/tests/cross/targets.sh" "$tl_cross_program" \
             "$tl_cross_wine_prefix") >/dev/null 2>&1; then
        (cd "$work/win" && timeout 120 sh -c '. "$1"; tl_cross_program=$2; tl_cross_wine_prefix=$3
           tl_cross_wine ./user.exe' sh "$root/tests/cross/targets.sh" "$tl_cross_program" \
           "$tl_cross_wine_prefix") || fail "user.exe fails under Wine with tl.dll"
      else
        echo "note: Wine does not start here; tl.dll and user.exe linked, not run"
      fi
    else
      echo "note: no Wine; tl.dll and user.exe linked, not run"
    fi
  else
    fail "tl.dll or its consumer does not link (MinGW)"
  fi
else
  echo "note: x86_64-w64-mingw32-gcc not installed; no DLL test"
fi

[ "$failed" = 0 ] && echo "shared library tests passed"
[ "$failed" = 0 ]
