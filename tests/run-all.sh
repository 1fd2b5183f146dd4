#!/bin/sh
# The whole test suite, as CI runs it: everything in a normal build, then the unit tests again
# under AddressSanitizer and UndefinedBehaviorSanitizer, then a clang build with warnings as
# errors. Prints a closing "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
# The test suite's packages on top of the build's (nothing to do when CI installed them).
examples/install-packages.sh examples/debian-packages.txt tests/debian-packages.txt || exit 1
total_ok=0
total_fail=0

run_suite() { # builddir, meson test args...
  dir=$1; shift
  meson compile -C "$dir" || { total_fail=$((total_fail + 1)); return; }
  meson test -C "$dir" --print-errorlogs "$@" | tee "$dir/run-all.log"
  ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$dir/run-all.log" | tail -n 1)
  fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$dir/run-all.log" | tail -n 1)
  timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$dir/run-all.log" | tail -n 1)
  total_ok=$((total_ok + ${ok:-0}))
  total_fail=$((total_fail + ${fail:-0} + ${timeout:-0}))
  [ -n "$ok" ] || total_fail=$((total_fail + 1))
}

# build/ may come from the quick start, which configures it without tests.
if [ -f build/build.ninja ]; then meson configure build -Dtests=true || exit 1
else meson setup build || exit 1; fi
run_suite build

# UBSan must stop the test at the first report, not print and carry on.
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
[ -f build-sanitize/build.ninja ] || \
  meson setup build-sanitize -Db_sanitize=address,undefined -Db_lundef=false || exit 1
run_suite build-sanitize --suite unit

# The suites above build with gcc. Warnings are errors in a clang release build of everything
# (compile only): a warning either compiler gives a user is a failure here.
[ -f build-clang/build.ninja ] || \
  CC=clang meson setup build-clang -Dwerror=true -Dbuildtype=release || exit 1
if meson compile -C build-clang; then
  echo "threadlink: clang -Werror release build clean"
else
  total_fail=$((total_fail + 1))
fi

echo "threadlink: $total_ok passed, $total_fail failed"
[ "$total_fail" = 0 ]
