#!/bin/sh
# game-content-refusals: game-headless on content it refuses (the data or catalog archive missing
# or cut, archives.json empty or a folder, the Text folder missing, the Game folder holding the
# Text profile, no folder at all) exits 1 with the refusal said and nothing leaked: game_open
# frees everything it built before it refused (the events table, the content context and its
# scopes, the core's tiers), and the driver its input tape. In an ASan build LeakSanitizer
# (on by default) reports any leak; the exit code must be 1, not a sanitizer's or a signal's.
#   content_refusals.sh GAME_HEADLESS CONTENT_DIR INPUTS
set -u
headless=$1 content=$2 inputs=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
data=$(cd "$content" && echo Game.t-*.tlpk)           # the data archive (one: max_archive_mb 1)
catalog=$(cd "$content" && echo Game.catalog-*.tlpk)

# refused NAME EDIT: a fresh copy of content/Game and content/Text, EDIT run in the copy's Game
# folder, then a replay of the copy.
refused() {
  rm -rf "$tmp/c"
  mkdir "$tmp/c"
  cp -R "$content" "$tmp/c/Game"
  cp -R "$content/../Text" "$tmp/c/Text"
  (cd "$tmp/c/Game" && sh -c "$2") || { echo "FAIL: $1: the edit failed"; fail=1; return; }
  timeout 60 "$headless" "$tmp/c/Game" replay "$inputs" 4000 > "$tmp/out" 2> "$tmp/err"
  rc=$?
  said=$(grep -v -e 'Levels: warning' -e '^$' "$tmp/err" | head -1 | cut -c1-160)
  if [ $rc -ne 1 ] || grep -q -e Sanitizer -e 'runtime error' "$tmp/err"; then
    echo "FAIL: $1: exit $rc"; grep -m3 -e ERROR -e SUMMARY -e 'runtime error' "$tmp/err"; fail=1
  else
    echo "ok: $1: $said"
  fi
}

refused "the data archive missing" "rm $data"
refused "the data archive cut to half" "truncate -s 300000 $data"
refused "the data archive empty" ": > $data"
refused "the catalog archive missing" "rm $catalog"
refused "archives.json empty" ": > archives.json"
refused "archives.json a folder" "rm archives.json && mkdir archives.json"
refused "the Text folder missing" "rm -rf ../Text"
refused "the Game folder holding the Text profile" "rm -f ./* .threadlink-content && cp ../Text/* ../Text/.threadlink-content ."
refused "no Game folder" "rm -rf ../Game"
exit $fail
