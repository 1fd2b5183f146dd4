#!/bin/sh
# Generated headers compile without warnings as C99/C11/C2x (gcc, clang) and C++17, including
# tombstones, renamed entries' old names and values above INT_MAX; using a tombstone or an old name
# warns (deprecated) in every mode. Then the strict warning sets (below).
set -eu
gen=$1
runtime=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# A content profile with no assets: its catalog too. Two categories: a catalog whose category count
# its enum's range cannot hold (0..1), which the count compare must not narrow (g++ -Wconversion).
mkdir -p injectors definitions assets/Sprites assets/Sounds
cat > threadlink.json <<'JSON'
{ "definitions_dir": "definitions",
  "domains": [
    { "name": "Iris.Events", "output": "events/iris_events.h", "kind": "ordinal" },
    { "name": "Vault.Fields", "output": "vault_fields.h", "reserve_zero": true },
    { "name": "lower.case", "output": "lower_case.h" } ],
  "content": [
    { "profile": "Empty", "source_root": "assets", "output": "build/content/Empty",
      "categories": [ { "name": "Sprites", "folder": "Sprites" }, { "name": "Sounds", "folder": "Sounds" } ] } ] }
JSON
printf 'OnA(float)\nOnB\nOnC\nOnD(int)\n' > injectors/Iris.Events.User.txt
printf 'Health\nArmor\nOld\nName\nShield\n' > injectors/Vault.Fields.User.txt
printf 'name\nfrom_name\nplain\n' > injectors/lower.case.User.txt
printf 'Red\nBlue\n' > definitions/Game.Colours.txt
"$gen" generate --quiet
printf 'Health\nArmor\nName\nGuard <- Shield\n' > injectors/Vault.Fields.User.txt
printf 'OnA(float)\nOnC\nOnHit(const struct hit *) -> union u *\nOnE(int) <- OnD\n' > injectors/Iris.Events.User.txt
"$gen" generate --quiet
grep -q 'Vault_Fields_Old TL_DEPRECATED_ENTRY' generated/vault_fields.h
grep -q 'Vault_Fields_Shield TL_DEPRECATED_ENTRY' generated/vault_fields.h
grep -q 'Iris_Events_OnD TL_DEPRECATED_ENTRY' generated/events/iris_events.h
grep -q -- '= -' generated/vault_fields.h   # at least one value above INT_MAX

cat > use.c <<'C'
#include "events/iris_events.h"
#include "vault_fields.h"
#include "lower_case.h"
#include "game_colours.h"
#include <stdio.h>
#define SHOW(e, n) printf("%s %d\n", #n, (int)(e));
/* Tags a signature names are the caller's own types (the header declares them at file scope). */
struct hit { int damage; };
union u { int i; float f; };
static union u *on_hit(void *ctx, const struct hit *hit) { (void)hit; return (union u *)ctx; }
int main(void)
{
    Iris_Events_OnHit_fn listener = on_hit;
    if (!listener) return 1;
    vault_fields f;
    lower_case l;
    if (!vault_fields_from_name("HEALTH", &f) || !lower_case_from_name("plain", &l)) return 1;
    printf("%s %s %s %d\n", vault_fields_name((uint32_t)f), iris_events_name(Iris_Events_OnC),
           game_colours_name(Game_Colours_Red), IRIS_EVENTS_SPAN);
    VAULT_FIELDS_LIST(SHOW)
    /* The conversions round-trip and name what the uint32_t lookup names. */
    if (VAULT_FIELDS_FROM_U32(VAULT_FIELDS_U32(f)) != f || vault_fields_name_of(f) != vault_fields_name((uint32_t)f)) return 1;
    /* A renamed entry's old name still reads (a save, a log), as the entry's value and its new name. */
    if (!vault_fields_from_name("shield", &f) || f != Vault_Fields_Guard || vault_fields_name_of(f)[0] != 'G') return 1;
    return (int)GAME_COLOURS_COUNT - 2;
}
C
printf '#include "vault_fields.h"\nint use_tombstone(void);\nint use_tombstone(void) { return (int)Vault_Fields_Old; }\n' > tomb.c
printf '#include "vault_fields.h"\n#include "events/iris_events.h"\nint use_old(void);\nint use_old(void) { return (int)Vault_Fields_Shield + (int)Iris_Events_OnD; }\n' > old.c
cp use.c use.cpp
cp tomb.c tomb.cpp
cp old.c old.cpp
count=0
failed=0
check() { # compiler std source
  count=$((count + 1))
  if ! "$1" -std="$2" -Wall -Wextra -Wpedantic -Werror -Igenerated -I"$runtime" "$3" -o prog 2>err; then
    echo "FAIL: $1 -std=$2 $3"; cat err; failed=$((failed + 1)); return
  fi
  ./prog > out || { echo "FAIL: running $1 -std=$2"; failed=$((failed + 1)); return; }
  # The tombstone warns where used, and only there.
  if ! "$1" -std="$2" -Wall -Igenerated -I"$runtime" -c "${3%use.*}tomb.${3##*.}" -o tomb.o 2>err || ! grep -q deprecated err; then
    echo "FAIL: using a tombstone did not warn under $1 -std=$2"; cat err; failed=$((failed + 1))
  fi
  # So does a renamed entry's old name (an alias), in an identity and an ordinal domain.
  if ! "$1" -std="$2" -Wall -Igenerated -I"$runtime" -c "${3%use.*}old.${3##*.}" -o old.o 2>err || [ "$(grep -c 'deprecated' err)" -lt 2 ]; then
    echo "FAIL: using a renamed entry's old name did not warn twice under $1 -std=$2"; cat err; failed=$((failed + 1))
  fi
}
for std in c99 c11 c2x; do check gcc $std use.c; check clang $std use.c; done
check g++ c++17 use.cpp
check clang++ c++17 use.cpp

# The strict sets game teams build with, -Werror: the generated headers as C (with gcc at -O2, for
# -Wnull-dereference), and as C++ under -Wold-style-cast, -Wzero-as-null-pointer-constant,
# -Wuseless-cast and clang++ -Weverything, with the runtime headers' own function bodies silenced
# (compile_runtime_headers.sh covers what of the runtime expands in a program's file). Besides this
# project: the committed headers of examples/basic, tests/vault/project and examples/content
# (whose content_game_catalog.h gen/content/content_stage.c writes), and the input stage's map
# header with its domains (the golden case input-map).
root=$(cd "$runtime/.." && pwd)
c_strict="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual -Wcast-align
  -Wundef -Wdouble-promotion -Wstrict-prototypes -Wmissing-prototypes -Wmissing-declarations
  -Wredundant-decls -Wswitch-enum -Wswitch-default -Wfloat-equal -Wformat=2 -Wnull-dereference -Wvla -Werror"
gxx_strict="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual -Wcast-align
  -Wundef -Wdouble-promotion -Wmissing-declarations -Wredundant-decls -Wswitch-enum -Wswitch-default
  -Wfloat-equal -Wformat=2 -Wnull-dereference -Wlogical-op -Wvla -Wold-style-cast
  -Wzero-as-null-pointer-constant -Wuseless-cast -Wextra-semi -Werror"
clangxx_strict="-Weverything -Wno-padded -Wno-c++98-compat -Wno-c++98-compat-pedantic
  -Wno-reserved-identifier -Wno-reserved-macro-identifier -Werror"
strict() { # compiler "flags" include-dir source
  command -v "$1" >/dev/null 2>&1 || return 0
  count=$((count + 1))
  # shellcheck disable=SC2086
  if ! "$1" $2 -I"$3" -I"$runtime" -c "$4" -o strict.o 2>err; then
    echo "FAIL (strict): $1 $4 (-I$3)"; cat err; failed=$((failed + 1))
  fi
}
# The runtime's headers first, their function bodies silenced (C++), without TL_IMPLEMENTATION:
# the implementation's C++ is compile_runtime_headers.sh's, and compiling it again in each of
# these files took nine tenths of this test's CPU time (66 s of user time; 7 s without them).
silenced() {
  cat <<'CXX'
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Weverything"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wuseless-cast"
#pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#endif
#include <threadlink/threadlink.h>
#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
CXX
}
n=0
for dir in "$work/generated" "$root/examples/basic/generated" "$root/tests/vault/project/generated" \
           "$root/examples/content/generated" "$root/tests/gen/golden/input-map/expected/generated"; do
  [ -d "$dir" ] || continue
  n=$((n + 1))
  headers=$(cd "$dir" && find . -name '*.h' | sed 's|^\./||' | sort)
  { for h in $headers; do echo "#include \"$h\""; done
    echo 'int tl_compile_test_anchor(void);'; echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "strict_$n.c"
  { silenced; cat "strict_$n.c"; } > "strict_$n.cpp"
  strict gcc "-std=c11 $c_strict -Wlogical-op -Wjump-misses-init -O2" "$dir" "strict_$n.c"
  strict clang "-std=c11 $c_strict -Wcomma" "$dir" "strict_$n.c"
  strict g++ "-std=c++17 $gxx_strict -O2" "$dir" "strict_$n.cpp"
  strict clang++ "-std=c++17 $clangxx_strict" "$dir" "strict_$n.cpp"
done
# examples/content's catalog header in a development build: its source description
# (content_game_source_desc) includes content.h with TL_CONTENT_LIVE (POSIX: content.h's live part).
live="-DTL_CONTENT_LIVE -D_XOPEN_SOURCE=700"
cat > strict_live.c <<'C'
#include "content_game_catalog.h"
tl_content_source_desc tl_use_source(void);
tl_content_source_desc tl_use_source(void) { return content_game_source_desc(); }
C
{ silenced; cat strict_live.c; } > strict_live.cpp
strict gcc "-std=c11 $c_strict $live" "$root/examples/content/generated" strict_live.c
strict clang "-std=c11 $c_strict $live" "$root/examples/content/generated" strict_live.c
strict g++ "-std=c++17 $gxx_strict $live" "$root/examples/content/generated" strict_live.cpp
strict clang++ "-std=c++17 $clangxx_strict $live" "$root/examples/content/generated" strict_live.cpp
# User code that hands identity enumerators (negative as ints) to lookups and saves: the generated
# conversions keep it clean under -Wsign-conversion, where vault_fields_name(Vault_Fields_Health) warns.
cat > conversions.c <<'C'
#include "vault_fields.h"
uint32_t tl_use_u32(void);
uint32_t tl_use_u32(void) { return VAULT_FIELDS_U32(Vault_Fields_Health); }
const char *tl_use_name(void);
const char *tl_use_name(void) { return vault_fields_name_of(Vault_Fields_Health); }
int tl_use_from(uint32_t saved);
int tl_use_from(uint32_t saved) { return VAULT_FIELDS_FROM_U32(saved) == Vault_Fields_Armor; }
C
cp conversions.c conversions.cpp
strict gcc "-std=c99 $c_strict" "$work/generated" conversions.c
strict clang "-std=c99 $c_strict" "$work/generated" conversions.c
strict g++ "-std=c++17 $gxx_strict" "$work/generated" conversions.cpp
strict clang++ "-std=c++17 $clangxx_strict" "$work/generated" conversions.cpp
echo "$count compilations, $failed failed"
[ "$failed" = 0 ]
