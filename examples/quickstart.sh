#!/bin/sh
# Quick start: install what is missing (Debian 12, as root), build threadlink, run the generator
# over the bundled example and run the example.
set -eu
cd "$(dirname "$0")/.."
missing=""
for p in $(grep -v '^#' tests/debian-packages.txt); do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "installing:$missing"
  apt-get update
  apt-get install -y --no-install-recommends $missing
fi
[ -f build/build.ninja ] || meson setup build
ninja -C build
build/gen/threadlink-gen generate -C examples/basic
build/examples/example-basic
