#!/bin/sh
# Builds the content directories the runtime tests read, with the real generator:
#   make_fixture.sh THREADLINK_GEN FIXTURE_SRC WORK_DIR STAMP
# The fixture project is copied to WORK_DIR (pack writes manifests and outputs into the project),
# bulk assets are added (enough bytes for several archives), then every variant is packed:
#   out/Main       packed, lz4 (the profile's settings), max 1 MB per archive
#   out/MainZstd   packed, zstd          out/MainRaw  packed, uncompressed
#   out/MainHC     packed, lz4 level 9 (LZ4 HC)
#   out/MainFlat   flat (archive none)   out/Extra    the second profile, flat
#   out/Small      30 tiny assets, packed uncompressed (the randomized model test)
set -eu
gen=$1; src=$2; work=$3; stamp=$4
rm -rf "$work"
mkdir -p "$work"
cp -R "$src/." "$work/"
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: beside the build, not ~/.cache
mkdir -p "$work/injectors" "$work/assets/Blobs"
i=1
while [ "$i" -le 24 ]; do
  # Deterministic, compressible but not trivially so: ~1 KB to ~500 KB.
  awk -v n="$i" 'BEGIN { s = n; for (k = 0; k < n * n * 120; k++) { s = (s * 1103515245 + 12345) % 2147483648; printf "%d %c", k, 97 + s % 26 } }' \
    > "$work/assets/Blobs/blob$i.bin"
  i=$((i + 1))
done
i=1
while [ "$i" -le 30 ]; do
  mkdir -p "$work/small/Set$((i % 3))"
  printf 'small asset %d\n' "$i" > "$work/small/Set$((i % 3))/item$i.dat"
  i=$((i + 1))
done
"$gen" pack -C "$work" --profile Main --quiet --no-progress
"$gen" pack -C "$work" --profile Main --compression zstd --output out/MainZstd --quiet --no-progress
"$gen" pack -C "$work" --profile Main --compression none --output out/MainRaw --quiet --no-progress
"$gen" pack -C "$work" --profile Main --compression lz4 --compression-level 9 --output out/MainHC --quiet --no-progress
"$gen" pack -C "$work" --profile Main --archive none --output out/MainFlat --quiet --no-progress
"$gen" pack -C "$work" --profile Extra --quiet --no-progress
"$gen" pack -C "$work" --profile Small --quiet --no-progress
date > "$stamp"
