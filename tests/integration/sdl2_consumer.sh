#!/bin/sh
# A consumer that includes both SDL2 backends as docs/build-systems.md says (sdl2_consumer/:
# backends.c, compiled only; SDL2 and SDL2_mixer are the consumer's), one way per call:
#   sdl2_consumer.sh cmake-tree SOURCE_ROOT       add_subdirectory, threadlink::sdl2
#   sdl2_consumer.sh cmake-installed PREFIX       find_package, threadlink::sdl2
#   sdl2_consumer.sh meson-tree SOURCE_ROOT       subprojects/threadlink, threadlink_sdl2_dep
#   sdl2_consumer.sh meson-installed PREFIX       dependency('threadlink_sdl2'), pkg-config
#   sdl2_consumer.sh make-tree SOURCE_ROOT        -I runtime/ and backends/sdl2/
#   sdl2_consumer.sh make-installed PREFIX        pkg-config --cflags threadlink_sdl2
# The consumer tests call it (cmake_tree.sh, cmake_package.sh, cmake_install.sh,
# consumer_builds.sh, init_builds.sh). Without SDL2 or SDL2_mixer it says so and passes.
set -eu
way=$1
where=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
pkg-config --exists sdl2 SDL2_mixer || { echo "skip: the SDL2 backends ($way): no sdl2 or SDL2_mixer for pkg-config"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/sdl2_consumer/backends.c" "$here/sdl2_consumer/CMakeLists.txt" "$here/sdl2_consumer/meson.build" \
   "$here/sdl2_consumer/Makefile" "$work/"
cd "$work"
# Where a prefix keeps threadlink_sdl2.pc (lib/pkgconfig, or Debian's multiarch folder).
pc_dir() { dirname "$(find "$where" -name threadlink_sdl2.pc | head -n 1)"; }
build() {
  case $way in
    cmake-tree) cmake -S . -B b -DTHREADLINK_SOURCE="$where" && cmake --build b ;;
    cmake-installed) cmake -S . -B b -DCMAKE_PREFIX_PATH="$where" && cmake --build b ;;
    meson-tree) mkdir subprojects && ln -s "$where" subprojects/threadlink &&
      meson setup b --force-fallback-for=threadlink,threadlink_sdl2 -Dthreadlink:generator=false \
        -Dthreadlink:tests=false && meson compile -C b ;;
    meson-installed) PKG_CONFIG_PATH=$(pc_dir) meson setup b && meson compile -C b ;;
    make-tree) make THREADLINK_SDL2_CFLAGS="-I$where/runtime -I$where/backends/sdl2" ;;
    make-installed) PKG_CONFIG_PATH=$(pc_dir) make ;;
    *) echo "unknown way $way"; return 1 ;;
  esac
}
build > log 2>&1 || { cat log; echo "FAIL: the SDL2 backends do not compile ($way)"; exit 1; }
echo "ok: the SDL2 backends compile ($way)"
