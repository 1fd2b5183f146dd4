#!/bin/sh
# The whole test suite, as CI runs it: everything in a normal build, then the unit tests again
# under AddressSanitizer and UndefinedBehaviorSanitizer, then a clang build with warnings as
# errors (those two builds compile while build/'s tests run). Prints a closing "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
# The test suite's packages on top of the build's (nothing to do when CI installed them).
examples/install-packages.sh examples/debian-packages.txt tests/debian-packages.txt || exit 1
total_ok=0
total_fail=0

build_suite() { # builddir, suite or "" (every test: everything)
  if [ -n "$2" ]; then
    # build.ninja first: a meson.build changed since the last run regenerates the build (and the
    # introspection the targets are read from) before they are listed.
    targets=$(ninja -C "$1" build.ninja >/dev/null && python3 tests/suite_targets.py "$1" "$2") &&
      ninja -C "$1" $targets
  else
    meson compile -C "$1"
  fi
}

test_suite() { # builddir, meson test args... (the programs already built)
  dir=$1; shift
  meson test -C "$dir" --no-rebuild --print-errorlogs "$@" | tee "$dir/run-all.log"
  ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$dir/run-all.log" | tail -n 1)
  fail=$(sed -n 's/^Fail: *\([0-9]*\).*/\1/p' "$dir/run-all.log" | tail -n 1)
  timeout=$(sed -n 's/^Timeout: *\([0-9]*\).*/\1/p' "$dir/run-all.log" | tail -n 1)
  total_ok=$((total_ok + ${ok:-0}))
  total_fail=$((total_fail + ${fail:-0} + ${timeout:-0}))
  [ -n "$ok" ] || total_fail=$((total_fail + 1))
}

# build/ may come from the quick start, which configures it without tests. Without debug
# information (-Ddebug=false; still -O2 with asserts, debugoptimized's code: gcc's and clang's
# code does not depend on -g), which no test reads and which costs a third of each -O2 compile.
if [ -f build/build.ninja ]; then meson configure build -Dtests=true -Ddebug=false || exit 1
else meson setup build -Ddebug=false || exit 1; fi
main_built=0
build_suite build "" && main_built=1

# UBSan must stop the test at the first report, not print and carry on. Unoptimised: the
# sanitizers' instrumentation makes -O2 compiles about 4.5 times slower than -O0 ones, and this
# build is nearly all compile (its tests run in about half a minute); only the unit suite's
# programs are built.
sanitize_options="-Db_sanitize=address,undefined -Db_lundef=false -Doptimization=0"
# The suites above build with gcc. Warnings are errors in a clang build of everything (compile
# only): a warning either compiler gives a user is a failure here. As a release build sees the
# code (NDEBUG: asserts gone), but unoptimised: clang warns from its front end, whatever the
# optimisation level, and -O0 compiles about four times faster than -O3.
clang_options="-Dwerror=true -Doptimization=0 -Ddebug=false -Db_ndebug=true"
# These two builds are compiles alone: they run beside build/'s tests, at the lowest CPU priority
# (nice 19), so that they take the cores those tests leave idle (servers, qemu and Wine starting,
# waits a test measures) and little from the tests themselves. Their output: build-*/run-all-build.log.
other_builds() {
  { if [ -f build-sanitize/build.ninja ]; then meson configure build-sanitize $sanitize_options
    else meson setup build-sanitize $sanitize_options; fi && build_suite build-sanitize unit
  } >build-sanitize/run-all-build.log 2>&1
  echo $? >build-sanitize/run-all-build.status
  { if [ -f build-clang/build.ninja ]; then meson configure build-clang $clang_options
    else CC=clang meson setup build-clang $clang_options; fi && meson compile -C build-clang
  } >build-clang/run-all-build.log 2>&1
  echo $? >build-clang/run-all-build.status
}
mkdir -p build-sanitize build-clang # (meson setup takes an empty directory)
rm -f build-sanitize/run-all-build.status build-clang/run-all-build.status
# (renice: the subshell itself, whose compilers inherit it; $$ would be this script)
( renice -n 19 -p "$(sh -c 'echo $PPID')" >/dev/null 2>&1; other_builds ) &
others=$!

if [ "$main_built" = 1 ]; then test_suite build; else total_fail=$((total_fail + 1)); fi

wait "$others"
built() { # name: the build's status, its log shown when it failed
  [ "$(cat "$1/run-all-build.status" 2>/dev/null)" = 0 ] && return 0
  echo "FAIL: $1 did not build:"; tail -n 40 "$1/run-all-build.log"; return 1
}
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
if built build-sanitize; then test_suite build-sanitize --suite unit; else total_fail=$((total_fail + 1)); fi
if built build-clang; then
  echo "threadlink: clang -Werror release build clean"
else
  total_fail=$((total_fail + 1))
fi

echo "threadlink: $total_ok passed, $total_fail failed"
[ "$total_fail" = 0 ]
