#!/bin/sh
# What a file that includes one runtime header (no implementation switch) compiles: the lines of
# `cc -E -P` (system headers included), against a limit per header pinned about 10% above its
# size when the limit was set. Public sections include only what their declarations need: the
# implementations' own includes (xxHash, the content readers, stdio) stay in the implementation
# sections. Headers whose declarations need no xxHash must show none of its names. A header
# without a limit here fails, so that a new one is measured too.
# Then the tiers (issue 42): the core, every header a generated header may need (api, log, events,
# hash, mem, collections, fp, rng), at sokol_gfx.h's class: at most 1,600 lines of declarations
# (declarations.py: function bodies not counted; sokol_gfx.h's 1,546 are all declarations), and
# its whole text (bodies included) pinned too; and what a file including a generated vault header
# pays, for the game's Enemy vault (fields of every scalar kind and an asset reference, so vault.h
# and content.h's declarations): at most 2,000 lines, whole.
# Usage: preprocessed_size.sh RUNTIME_DIR [CC]   (the limits are gcc's counts on Debian 12)
set -eu
runtime=$1
cc=${2:-gcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# header limit xxhash(allowed|none); the sizes measured when pinned, then before issue 27:
limits="api.h 10 none
cast.h 10 none
patch.h 160 none
hash.h 480 none
log.h 560 none
save.h 670 none
content.h 740 none
mem.h 1100 none
text.h 1200 none
events.h 1440 none
l10n.h 1530 none
vault.h 1490 none
time.h 1510 none
levels.h 1550 none
platform.h 1590 none
fp.h 1610 none
platform_local.h 1700 none
input.h 1850 none
interface.h 1560 none
rng.h 1770 none
collections.h 2280 none
content_format.h 3090 none
lifecycle.h 3270 none
audio.h 2990 none
glue.h 4470 none
threadlink.h 8400 none"
# Measured (gcc 12) when issue 42 reset the limits (10% above): api 0, cast 7, collections 2067,
# content 668, content_format 2805, events 1306, fp 1460, glue 4057, hash 432, levels 1409,
# lifecycle 2972, log 509, mem 995, patch 141, platform 1440, platform_local 1545, rng 1604, save
# 601, text 1086, threadlink 7395, time 1371, vault 1354.
# Issue 44: input 1675 (events.h and its names tables), interface 1419 (events.h, fp.h's types).
# Issue 44 (input.h's speed): input 1729, its queries static inline; threadlink 8185 (8131).
# Issue 42 item 3 (one error convention: a result table and lookup per module): threadlink +65
# with events, time, lifecycle, levels, vault, mem and collections converted (8196 from 8131;
# 8242 with input.h's 8185).
# Issue 46: l10n 1384 (events.h's 1300 and its own declarations); threadlink 5485 with it (5407).
# Issue 42 item 3, err-save: threadlink 8196 (main 8185: save, platform and patch results and their
# last_* accessors); patch 153 (log.h's tl_logger named, not included), save 606, platform 1445.
# Session 61 (red-team passes 13-15: save.h's linked-slot status, vault.h's image cap, audio.h's
# load_error, interface.h's DESTROYING, the new log rows): threadlink 8303 (8242).
failed=0
for header in "$runtime"/threadlink/*.h; do
  name=$(basename "$header")
  row=$(echo "$limits" | awk -v n="$name" '$1 == n')
  if [ -z "$row" ]; then echo "FAIL: $name has no size limit in $0"; failed=$((failed + 1)); continue; fi
  limit=$(echo "$row" | awk '{print $2}')
  xxh=$(echo "$row" | awk '{print $3}')
  printf '#include <threadlink/%s>\n' "$name" > "$work/use.c"
  "$cc" -E -P -I"$runtime" "$work/use.c" > "$work/out.i"
  lines=$(wc -l < "$work/out.i")
  if [ "$lines" -gt "$limit" ]; then
    echo "FAIL: $name preprocesses to $lines lines, above its limit $limit"; failed=$((failed + 1))
  fi
  if [ "$xxh" = none ] && grep -q 'XXH' "$work/out.i"; then
    echo "FAIL: $name brings xxHash's names into the including file:"
    grep -o 'XXH[A-Za-z0-9_]*' "$work/out.i" | sort -u | head -n 5; failed=$((failed + 1))
  fi
  echo "$name: $lines lines (limit $limit)"
done

here=$(cd "$(dirname "$0")" && pwd)
printf '#include <threadlink/%s>\n' api.h log.h events.h hash.h mem.h collections.h fp.h rng.h > "$work/core.c"
"$cc" -E -P -I"$runtime" "$work/core.c" > "$work/core.i"
core_lines=$(wc -l < "$work/core.i")
core_decl=$(python3 "$here/declarations.py" < "$work/core.i")
echo "the core: $core_decl lines of declarations (limit 1600), $core_lines in all (limit 4500)"
[ "$core_decl" -le 1600 ] || { echo "FAIL: the core's declarations are $core_decl lines, above 1600"; failed=$((failed + 1)); }
[ "$core_lines" -le 4500 ] || { echo "FAIL: the core is $core_lines lines, above 4500"; failed=$((failed + 1)); }

game=$(cd "$runtime/.." && pwd)/examples/game/generated
printf '#include "vaults/enemy_vault.h"\n' > "$work/vault.c"
"$cc" -E -P -I"$runtime" -I"$game" "$work/vault.c" > "$work/vault.i"
vault_lines=$(wc -l < "$work/vault.i")
echo "a generated vault header (examples/game's enemy_vault.h): $vault_lines lines (limit 2000)"
[ "$vault_lines" -le 2000 ] || { echo "FAIL: including enemy_vault.h costs $vault_lines lines, above 2000"; failed=$((failed + 1)); }
[ "$failed" = 0 ]
