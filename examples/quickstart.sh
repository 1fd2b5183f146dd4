#!/bin/sh
# Quick start: install what the build lacks (Debian 12, as root: examples/debian-packages.txt,
# not the test suite's extras), build threadlink without its tests, run the generator over the
# bundled example and run the example.
set -eu
cd "$(dirname "$0")/.."
examples/install-packages.sh examples/debian-packages.txt
[ -f build/build.ninja ] || meson setup build -Dtests=false
ninja -C build
build/gen/threadlink-gen generate -C examples/basic
build/examples/example-basic
