# Sourced by the tests that also run on other processors, through a cross compiler and qemu-user
# (Debian 12 packages gcc-TRIPLET, libc6-dev-ARCH-cross and qemu-user, in tests/debian-packages.txt):
#   aarch64-linux-gnu    64-bit ARM: the tables' NEON groups, other compiler backends
#   arm-linux-gnueabihf  32-bit ARM: the tables' 64-bit-word groups, 32-bit size_t, no __int128
#   s390x-linux-gnu      big-endian (word groups too)
# Binaries are linked statically, so qemu needs no target libraries.
tl_cross_targets="aarch64-linux-gnu:aarch64 arm-linux-gnueabihf:arm s390x-linux-gnu:s390x"

# tl_cross_ready TRIPLET:QEMU_ARCH WORKDIR: sets triplet, tl_cross_flags (what every cross build
# needs), tl_cross_cc (the target's gcc with those flags), tl_cross_gcc and tl_cross_clang (the two
# compilers for the target; clang, which uses the GNU cross toolchain's headers and libraries, is
# empty when not installed) and tl_cross_run (the qemu command). When the gcc or qemu is missing
# it says so and fails; under CI (CI=true), where tests/debian-packages.txt installed them, it
# also sets tl_cross_missing=1 so that the caller fails instead of passing on fewer processors.
tl_cross_missing=0
tl_cross_ready() {
  triplet=${1%:*}
  tl_cross_run=qemu-${1#*:}
  if ! command -v "$triplet-gcc" >/dev/null 2>&1 || ! command -v "$tl_cross_run" >/dev/null 2>&1; then
    echo "skip: $triplet ($triplet-gcc or $tl_cross_run not installed)"
    [ "${CI:-}" = true ] && tl_cross_missing=1
    return 1
  fi
  # The cross compilers do not search /usr/include; give them xxhash.h (header-only) alone.
  mkdir -p "$2/xxhash-include"
  [ -e "$2/xxhash-include/xxhash.h" ] || ln -s /usr/include/xxhash.h "$2/xxhash-include/xxhash.h"
  tl_cross_flags="-static -idirafter $2/xxhash-include"
  tl_cross_cc="$triplet-gcc $tl_cross_flags"
  tl_cross_gcc=$triplet-gcc
  tl_cross_clang=
  command -v clang >/dev/null 2>&1 && tl_cross_clang="clang --target=$triplet"
  return 0
}
