#!/bin/sh
# Rewrites the expected/ directory of golden cases from what the built generator does, for review
# (git diff tests/gen/golden) before committing, as re2c's and wayland-scanner's update scripts do.
#   update.sh CASE...|--all     (THREADLINK_GEN: the generator, default build/gen/threadlink-gen)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
gen=${THREADLINK_GEN:-$here/../../../build/gen/threadlink-gen}
[ -x "$gen" ] || { echo "update.sh: no generator at $gen (build it, or set THREADLINK_GEN)" >&2; exit 2; }
[ $# -gt 0 ] || { echo "usage: update.sh CASE...|--all" >&2; exit 2; }
if [ "$1" = --all ]; then
  set -- $(cd "$here" && for d in */; do echo "${d%/}"; done)
fi
for c in "$@"; do
  c=${c%/}
  [ -d "$here/$c" ] || { echo "update.sh: no case '$c' in $here" >&2; exit 2; }
  python3 "$here/run.py" --update "$gen" "$here/$c"
done
