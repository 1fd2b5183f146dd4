# Sourced by the tests that also run on other processors or systems, through a cross compiler and
# qemu-user or Wine (Debian 12 packages gcc-TRIPLET, libc6-dev-ARCH-cross and qemu-user;
# gcc-mingw-w64-x86-64-win32 and wine64; all in tests/debian-packages.txt):
#   aarch64-linux-gnu    64-bit ARM: the tables' NEON groups, other compiler backends
#   arm-linux-gnueabihf  32-bit ARM: the tables' 64-bit-word groups, 32-bit size_t, no __int128
#   s390x-linux-gnu      big-endian (word groups too)
#   x86_64-w64-mingw32   64-bit Windows: 32-bit long (LLP64), the Windows C runtime, run by Wine
# Binaries are linked statically, so qemu and Wine need no target libraries. The scripts that
# loop over these targets take TL_CROSS_ONLY=TRIPLET:RUNNER from the environment to run one alone.
tl_cross_targets="aarch64-linux-gnu:aarch64 arm-linux-gnueabihf:arm s390x-linux-gnu:s390x
x86_64-w64-mingw32:wine"

# tl_cross_ready TRIPLET:RUNNER WORKDIR (RUNNER: qemu's architecture name, or wine): sets triplet,
# tl_cross_flags (what every cross build needs), tl_cross_cc (the target's gcc with those flags),
# tl_cross_gcc and tl_cross_clang (the two compilers for the target; clang, which uses the GNU
# cross toolchain's headers and libraries, is empty when not installed), tl_cross_run (the command
# or shell function that runs a target binary) and tl_cross_exe (the binaries' file name suffix).
# When the gcc or the runner is missing it says so and fails; under CI (CI=true), where
# tests/debian-packages.txt installed them, it also sets tl_cross_missing=1 so that the caller
# fails instead of passing on fewer targets.
tl_cross_missing=0
tl_cross_ready() {
  triplet=${1%:*}
  tl_cross_exe=
  case ${1#*:} in
  wine) # Debian's wine64 package installs no command on the PATH.
    tl_cross_program=/usr/lib/wine/wine64
    tl_cross_wine_prefix=$(tl_cross_wine_prefix_of "$2")
    tl_cross_run=tl_cross_wine
    tl_cross_exe=.exe ;;
  *)
    tl_cross_program=qemu-${1#*:}
    tl_cross_run=$tl_cross_program ;;
  esac
  if ! command -v "$triplet-gcc" >/dev/null 2>&1 ||
    ! command -v "$tl_cross_program" >/dev/null 2>&1; then
    echo "skip: $triplet ($triplet-gcc or $tl_cross_program not installed)"
    [ "${CI:-}" = true ] && tl_cross_missing=1
    return 1
  fi
  # The cross compilers do not search /usr/include; give them xxhash.h (header-only) alone.
  mkdir -p "$2/xxhash-include"
  [ -e "$2/xxhash-include/xxhash.h" ] || ln -s /usr/include/xxhash.h "$2/xxhash-include/xxhash.h"
  tl_cross_flags="-static -idirafter $2/xxhash-include"
  # Debian's clang does not find MinGW's libgcc (in a directory named 12-win32, not 12).
  [ -z "$tl_cross_exe" ] ||
    tl_cross_flags="$tl_cross_flags -L$(dirname "$("$triplet-gcc" -print-libgcc-file-name)")"
  tl_cross_cc="$triplet-gcc $tl_cross_flags"
  tl_cross_gcc=$triplet-gcc
  tl_cross_clang=
  command -v clang >/dev/null 2>&1 && tl_cross_clang="clang --target=$triplet"
  [ -z "$tl_cross_exe" ] || tl_cross_wine_server "$tl_cross_wine_prefix"
  return 0
}

# tl_cross_wine_prefix_of WORKDIR: the Wine prefix a script uses: THREADLINK_TEST_WINE_PREFIX, which the
# native build gives every test (tests/meson.build: one prefix for all of them, made once, as
# making one writes 700 MB and takes about 9 s of CPU), else one in WORKDIR.
tl_cross_wine_prefix_of() {
  echo "${THREADLINK_TEST_WINE_PREFIX:-$1/wineprefix}"
}

# tl_cross_wine_server PREFIX: starts PREFIX's Wine server, persistent until tl_cross_finish
# stops it. Left to itself the server exits a few seconds after its last client, and a program
# started in that moment fails in Wine, not in itself ("wine client error: recvmsg: Connection
# reset by peer"): tests started one after another on a loaded machine met it. The prefix is
# made here, its services started with no standard streams: they live as long as the server, and
# would hold a test's output pipe open (a test that never ends) had a test's program started them.
# Tests running at once share a prefix: each script (its PID) is noted as a user in PREFIX.users,
# the first starts the server, the last stops it (PREFIX.lock orders them).
tl_cross_wine_server() {
  mkdir -p "$1" "$1.users"
  (
    flock 9
    : >"$1.users/$$"
    # (9>&-: the server and its services must not hold the lock)
    WINEPREFIX=$1 /usr/lib/wine/wineserver -p </dev/null >/dev/null 2>&1 9>&-
    case $? in
    0) WINEDEBUG=-all WINEPREFIX=$1 /usr/lib/wine/wine64 wineboot --init </dev/null >/dev/null 2>&1 9>&- ||
         echo "note: the Wine server of $1 did not start" ;;
    2) ;; # already running, for another script
    *) echo "note: the Wine server of $1 did not start" ;;
    esac
  ) 9>"$1.lock"
}

# tl_cross_wine PROGRAM ARGS...: runs a Windows program under Wine (its state in the work
# directory's prefix) with the CR LF line ends of its standard output made LF, so that output
# compares with a Linux build's; returns the program's exit status.
tl_cross_wine() {
  { WINEDEBUG=-all WINEPREFIX=$tl_cross_wine_prefix "$tl_cross_program" "$@"
    echo $? >"$tl_cross_wine_prefix.status"; } | tr -d '\r'
  return "$(cat "$tl_cross_wine_prefix.status")"
}

# tl_cross_finish WORKDIR: this script no longer uses its Wine prefix (tl_cross_wine_prefix_of);
# stops the prefix's server, if one was started and no other script that is still running uses
# it, before the caller removes WORKDIR (it would otherwise write its registry into the removed
# prefix).
tl_cross_finish() {
  prefix=$(tl_cross_wine_prefix_of "$1")
  [ -d "$prefix" ] || return 0
  (
    flock 9
    rm -f "$prefix.users/$$"
    for user in "$prefix.users"/*; do
      [ -e "$user" ] || continue
      kill -0 "${user##*/}" 2>/dev/null && exit 0
      rm -f "$user" # a script that ended without finishing
    done
    WINEPREFIX=$prefix /usr/lib/wine/wineserver -k 2>/dev/null 9>&-
  ) 9>"$prefix.lock"
  return 0
}
