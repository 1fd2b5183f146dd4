#!/bin/sh
# Builds the content directories test_vault_assets reads, with the real generator:
#   make_assetref_content.sh THREADLINK_GEN PROJECT_SRC WORK_DIR STAMP
# The golden project is copied to WORK_DIR (pack writes into the project), then packed twice:
#   out/Game  packed, uncompressed (the profile's settings)    out/GameFlat  flat (archive none)
set -eu
gen=$1; src=$2; work=$3; stamp=$4
rm -rf "$work"
mkdir -p "$work"
cp -R "$src/." "$work/"
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: beside the build, not ~/.cache
"$gen" pack -C "$work" --profile Game --quiet --no-progress
"$gen" pack -C "$work" --profile Game --archive none --output out/GameFlat --quiet --no-progress
date > "$stamp"
