#!/bin/sh
# game-text-assets: the game's text is content. Each locale's table is an asset of the packed Text
# profile (threadlink.json: its source root is the text stage's tables folder), loaded into a scope
# of its own (Root/Text/<locale>) while the locale's chain needs it, and l10n.h reads the asset's
# bytes: the menu's text points into the asset of the locale shown. Switching to French loads fr's
# table, switching back releases it, and OnLocaleChanged fires each time. Without the Text archive
# beside the Game one, the game does not open and its last line says which folder lacks it.
#   text_assets.sh GAME_HEADLESS CONTENT_DIR
set -eu
headless=$1 content=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

cat > "$work/want" << 'EOF'
en: en in Root/Text/en; "Continue" from the asset en
fr: en in Root/Text/en, fr in Root/Text/fr; "Continuer" from the asset fr
en: en in Root/Text/en; "Continue" from the asset en
OnLocaleChanged: fr en
EOF
"$headless" "$content" text > "$work/got" 2> "$work/err" || { cat "$work/err"; fail "the text mode failed"; }
cmp -s "$work/want" "$work/got" || { diff "$work/want" "$work/got" || true; fail "the tables are not the Text profile's assets"; }

# The Game profile alone (a copy, the Text archive not beside it): refused, with the reason.
mkdir "$work/content"
cp -R "$content" "$work/content/Game"
if "$headless" "$work/content/Game" text > "$work/out" 2> "$work/err"; then
  fail "the game opened without its text tables"
fi
tail -n 1 "$work/err" | grep -q "did not start: no text tables: .*/content/Text is not the packed Text profile" || { cat "$work/err"; fail "no clear error for the missing Text archive"; }
echo "ok: each locale's table from the Text profile's archive, in its own scope; refused without it"
