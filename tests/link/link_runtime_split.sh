#!/bin/sh
# A program may implement the runtime's modules in any files it likes: each module's switch
# (TL_<MODULE>_IMPL) emits that module's implementation and no other, so every split links.
# Built here, each linked with runtime_user.c (which calls a function of every module) and run:
#   - every module in a file of its own (all including threadlink.h), so every pair is split;
#   - every pair of modules in one file, each other module in a file of its own;
#   - every module implemented alone in a file including only its own header;
#   - the split of issue 27: lifecycle in core.c, content in assets.c, vaults in vault.c;
#   - the umbrella, TL_IMPLEMENTATION, in one file.
# TL_MEM_DEBUG is on everywhere, so mem.h has state (its live-block list) to place too.
# Usage: link_runtime_split.sh RUNTIME_DIR TESTS_LINK_DIR [CC]
set -eu
runtime=$1
here=$2
cc=${3:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-std=c11 -Wall -Wextra -Wpedantic -Werror -DTL_MEM_DEBUG -I$runtime"
modules="lifecycle time vault content mem save levels platform platform_local patch"
failed=0
count=0

switch_of() { echo "TL_$(echo "$1" | tr '[:lower:]' '[:upper:]')_IMPL"; }
header_of() { echo "$1.h"; }

# unit NAME HEADERS MODULE...: NAME.o, a file defining the switches of MODULE... and including HEADERS
# (one word or several, quoted).
unit() {
  name=$1; header=$2; shift 2
  [ -f "$work/$name.o" ] && return 0
  { for mod in "$@"; do echo "#define $(switch_of "$mod")"; done
    for h in $header; do echo "#include <threadlink/$h>"; done
    echo "int tl_link_test_$name(void);"; echo "int tl_link_test_$name(void) { return 0; }"; } > "$work/$name.c"
  # shellcheck disable=SC2086
  "$cc" $flags -c "$work/$name.c" -o "$work/$name.o" 2>"$work/err" || { cat "$work/$name.c" "$work/err"; return 1; }
}

# others MODULE...: the modules not named.
others() {
  for candidate in $modules; do
    keep=1
    for named in "$@"; do [ "$candidate" = "$named" ] && keep=0; done
    [ "$keep" = 1 ] && echo "$candidate"
  done
  return 0
}

# program LABEL UNIT...: link the units with runtime_user.o and run the result.
program() {
  label=$1; shift
  count=$((count + 1))
  objs=""
  for u in "$@"; do objs="$objs $work/$u.o"; done
  # shellcheck disable=SC2086
  if ! "$cc" -o "$work/prog" "$work/runtime_user.o" $objs 2>"$work/err"; then
    echo "FAIL: $label does not link:"; grep -v '^collect2' "$work/err" | head -n 12; failed=$((failed + 1)); return 0
  fi
  if ! "$work/prog" >"$work/out" 2>&1; then
    echo "FAIL: $label links but fails:"; cat "$work/out"; failed=$((failed + 1))
  fi
}

# shellcheck disable=SC2086
"$cc" $flags -c "$here/runtime_user.c" -o "$work/runtime_user.o"

# Every module in a file of its own (every pair of modules split over two files).
for module in $modules; do unit "only_$module" threadlink.h "$module" || failed=$((failed + 1)); done
# shellcheck disable=SC2086
program "each module in its own file" $(for module in $modules; do echo "only_$module"; done)

# Every pair of modules together in one file, each other module in its own.
set -- $modules
for a in $modules; do
  shift
  for b in "$@"; do
    # shellcheck disable=SC2046
    unit "pair_${a}_$b" threadlink.h "$a" "$b" &&
      program "$a and $b in one file" "pair_${a}_$b" $(others "$a" "$b" | sed 's/^/only_/') ||
      failed=$((failed + 1))
  done
done

# Every module implemented in a file that includes its own header alone.
for module in $modules; do
  # shellcheck disable=SC2046
  unit "alone_$module" "$(header_of "$module")" "$module" &&
    program "$module alone, in a file including $(header_of "$module") only" "alone_$module" \
      $(others "$module" | sed 's/^/only_/') || failed=$((failed + 1))
done

# Issue 27's split; core.c also holds the logger and the live-block list the others use; saves
# (issue 29) go beside the vaults they store, levels (issue 28) beside the content they load.
# Patch plans (issue 31) in a file of their own, using the content readers of assets.c (and the
# text rules, text.h, beside them).
# clock.c and patches.c are the files of time and patch implemented alone, compiled above.
{ unit core lifecycle.h mem lifecycle && unit alone_time time.h time && unit assets "levels.h content.h" content levels &&
  unit vaults "platform_local.h vault.h" vault save platform platform_local && unit alone_patch patch.h patch &&
  program "core.c | clock.c (time.h) | assets.c (with levels.h) | vault.c (with save.h, platform.h) | patches.c (patch.h)" core alone_time assets vaults alone_patch; } ||
  failed=$((failed + 1))

# Issue 42: TL_IMPLEMENTATION in several files, each including the services it implements (a file
# implementing levels and one implementing content failed with "multiple definition of
# tl_log_level_name"; content and patches share the readers); mem's list in a file of its own (mem
# implemented alone, compiled above).
# TL_IMPLEMENTATION implements every header the file includes: platform_local.h brings platform.h
# and save.h, so those two are implemented there.
services="time lifecycle levels vault content platform_local patch"
for module in $services; do
  printf '#define TL_IMPLEMENTATION\n#include <threadlink/%s.h>\n' "$module" > "$work/impl_$module.c"
  # shellcheck disable=SC2086
  "$cc" $flags -c "$work/impl_$module.c" -o "$work/impl_$module.o" 2>"$work/err" ||
    { cat "$work/err"; failed=$((failed + 1)); }
done
unit alone_mem mem.h mem &&
  program "TL_IMPLEMENTATION in a file per service" alone_mem $(for m in $services; do echo "impl_$m"; done) ||
  failed=$((failed + 1))

printf '#define TL_IMPLEMENTATION\n#define TL_MEM_IMPL\n#include <threadlink/threadlink.h>\n' > "$work/umbrella.c"
# shellcheck disable=SC2086
{ "$cc" $flags -c "$work/umbrella.c" -o "$work/umbrella.o" && program "TL_IMPLEMENTATION in one file" umbrella; } ||
  failed=$((failed + 1))

# TL_STATIC, the one-file game: runtime_user.c with every implementation in it, as C and as C++;
# nothing but main (and C++ template instances, weak) has external linkage.
for lang in c c++; do
  count=$((count + 1))
  printf '#define TL_STATIC\n#define TL_IMPLEMENTATION\n#include "runtime_user.c"\n' > "$work/static.c"
  case $lang in c) compiler=$cc; std=-std=c11 ;; *) compiler=c++; std=-std=c++17 ;; esac
  # shellcheck disable=SC2086
  if ! "$compiler" -x "$lang" $std -Wall -Wextra -Wpedantic -Werror -DTL_MEM_DEBUG -I"$runtime" -I"$here" \
       -c "$work/static.c" -o "$work/static.o" 2>"$work/err"; then
    echo "FAIL: TL_STATIC ($lang) does not compile:"; head -n 20 "$work/err"; failed=$((failed + 1)); continue
  fi
  nm -g --defined-only "$work/static.o" | awk '$2 ~ /^[TDBR]$/ && $3 != "main" {print $3}' > "$work/external"
  if [ -s "$work/external" ]; then
    echo "FAIL: TL_STATIC ($lang) leaves $(wc -l < "$work/external") symbols external:"; head -n 5 "$work/external"
    failed=$((failed + 1))
  elif ! "$compiler" -o "$work/prog" "$work/static.o" 2>"$work/err" || ! "$work/prog" >"$work/out" 2>&1; then
    echo "FAIL: TL_STATIC ($lang) does not link or run:"; cat "$work/err" "$work/out"; failed=$((failed + 1))
  fi
done

# glue.h in a file that implements only some of the services it joins (save.h and vault.h here),
# unoptimised: nothing of glue.h may reference a service the program does not implement (its
# subsystem tables referenced time.h's and platform.h's functions at -O0 before they moved into
# the functions that weave them).
printf '#define TL_SAVE_IMPL\n#define TL_VAULT_IMPL\n#include <threadlink/glue.h>\nint main(void) { return 0; }\n' > "$work/glue_partial.c"
count=$((count + 1))
# shellcheck disable=SC2086
"$cc" $flags -O0 "$work/glue_partial.c" -o "$work/glue_partial" 2>"$work/err" ||
  { echo "FAIL: glue.h with save.h and vault.h implemented alone does not link at -O0:"; cat "$work/err"; failed=$((failed + 1)); }

echo "$count programs, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" = 0 ]
