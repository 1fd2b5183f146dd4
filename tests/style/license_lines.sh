#!/bin/sh
# Every file a game copies into its tree (the runtime's headers, its static library's source and
# the CMake package) names its license on an SPDX line, and the LICENSE it points at exists.
#   license_lines.sh SOURCE_ROOT
set -u
cd "$1" || exit 1
failed=0
[ -f LICENSE ] || { echo "FAIL: no LICENSE"; failed=1; }
for f in runtime/threadlink/*.h runtime/threadlink_runtime.c runtime/cmake/*; do
  grep -q 'SPDX-License-Identifier: MIT' "$f" || { echo "FAIL: $f has no SPDX-License-Identifier line"; failed=1; }
done
[ "$failed" = 0 ] && echo "license lines: every runtime file names MIT"
exit $failed
