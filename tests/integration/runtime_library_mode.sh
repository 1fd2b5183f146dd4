#!/bin/sh
# The threadlink_runtime library decides development or shipping for platform.h in its own compile
# (a game's -DNDEBUG never reaches it): Meson's release and minsize build types, and NDEBUG defined
# by b_ndebug, build it as shipping (TL_PLATFORM_DEVELOPMENT=0: no distribution override from the
# command line or the environment); debug and debugoptimized as development. Configure only.
#   runtime_library_mode.sh SOURCE_ROOT
set -eu
root=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
check() { # expected options...
  expected=$1; shift
  rm -rf "$work/b"
  meson setup "$work/b" "$root" "$@" >"$work/log" 2>&1 || { cat "$work/log"; echo "FAIL: meson setup $*"; exit 1; }
  got=$(meson introspect --targets "$work/b" | python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"] == "threadlink_runtime":
        for s in t["target_sources"]:
            for a in s.get("parameters", []):
                if a.startswith("-DTL_PLATFORM_DEVELOPMENT="): print(a.split("=", 1)[1])')
  if [ "$got" != "$expected" ]; then
    echo "FAIL: meson setup $*: the library's TL_PLATFORM_DEVELOPMENT is '$got', expected $expected"
    failed=$((failed + 1))
  fi
}
check 0 --buildtype=release
check 0 --buildtype=minsize
check 0 --buildtype=debugoptimized -Db_ndebug=true
check 0 --buildtype=release -Db_ndebug=if-release
check 1 --buildtype=debugoptimized
check 1 --buildtype=debug
[ "$failed" = 0 ] && echo "the library's mode follows the build type and NDEBUG in 6 configurations"
