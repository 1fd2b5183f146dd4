#!/bin/sh
# threadlink built and installed by CMake alone (cmake --install, CMAKE_INSTALL_PREFIX), then used
# from that prefix as docs/build-systems.md says: the project `threadlink-gen init` writes, built with CMake
# (find_package, CMAKE_PREFIX_PATH) and with Make (THREADLINK_PREFIX), each run; and a program
# linked with the runtime library through pkg-config (threadlink_runtime.pc's Libs) and through
# CMake (threadlink::runtime_library); both SDL2 backends compiled through CMake (threadlink::sdl2)
# and Make (threadlink_sdl2.pc).
#   cmake_install.sh SOURCE_ROOT
set -eu
root=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v cmake >/dev/null 2>&1 || { echo "skip: cmake is not installed"; [ "${CI:-}" != true ]; exit $?; }

prefix=$work/prefix
# The default build type (RelWithDebInfo, which CMakeLists.txt sets) with its flags at -O0 and
# without -g: nothing here measures the code or reads debug information, and the generator
# compiles in half the CPU time (61 -> 32 s for this whole test). NDEBUG as that type has it.
cmake -S "$root" -B "$work/tl" -G Ninja -DCMAKE_INSTALL_PREFIX="$prefix" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O0 -DNDEBUG" \
  >"$work/log" 2>&1 || { cat "$work/log"; fail "configure"; }
cmake --build "$work/tl" >"$work/log" 2>&1 || { cat "$work/log"; fail "build"; }
cmake --install "$work/tl" >"$work/log" 2>&1 || { cat "$work/log"; fail "install"; }
for f in bin/threadlink-gen include/threadlink/threadlink.h lib/libthreadlink_runtime.a lib/pkgconfig/threadlink.pc \
         lib/pkgconfig/threadlink_runtime.pc lib/cmake/threadlink/threadlinkConfig.cmake lib/cmake/threadlink/threadlinkGenerate.cmake \
         include/threadlink/backends/sdl2/tl_input_sdl2.h include/threadlink/backends/sdl2/tl_audio_sdl_mixer.h \
         lib/pkgconfig/threadlink_sdl2.pc; do
  [ -f "$prefix/$f" ] || fail "cmake --install wrote no $f"
done

# The init project, with each build system, from the prefix alone.
cd "$work"
"$prefix/bin/threadlink-gen" init --build cmake with-cmake >/dev/null || fail "init --build cmake"
cmake -S with-cmake -B with-cmake/build -DCMAKE_PREFIX_PATH="$prefix" >"$work/log" 2>&1 || { cat "$work/log"; fail "the init project: configure"; }
cmake --build with-cmake/build >"$work/log" 2>&1 || { cat "$work/log"; fail "the init project: cmake build"; }
with-cmake/build/with-cmake | grep -qx "saved and loaded: Robin with 35 gold" || fail "the init project (CMake) does not run"
"$prefix/bin/threadlink-gen" init --build make with-make >/dev/null || fail "init --build make"
make -C with-make THREADLINK_PREFIX="$prefix" >"$work/log" 2>&1 || { cat "$work/log"; fail "the init project: make"; }
with-make/build/with-make | grep -qx "saved and loaded: Robin with 35 gold" || fail "the init project (Make) does not run"

# The runtime library: its Libs line, and its CMake target.
cc -o user "$root/tests/link/runtime_user.c" $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs threadlink_runtime) ||
  fail "linking with pkg-config threadlink_runtime"
./user || fail "the program linked with threadlink_runtime.pc does not run"
mkdir lib-user
cp "$root/tests/link/runtime_user.c" lib-user/
printf 'cmake_minimum_required(VERSION 3.20)\nproject(lib_user C)\nfind_package(threadlink 0.1 REQUIRED)\nadd_executable(user runtime_user.c)\ntarget_link_libraries(user PRIVATE threadlink::runtime_library)\n' \
  > lib-user/CMakeLists.txt
cmake -S lib-user -B lib-user/build -DCMAKE_PREFIX_PATH="$prefix" >"$work/log" 2>&1 && cmake --build lib-user/build >>"$work/log" 2>&1 ||
  { cat "$work/log"; fail "linking with threadlink::runtime_library"; }
lib-user/build/user || fail "the program linked with threadlink::runtime_library does not run"

sh "$root/tests/integration/sdl2_consumer.sh" cmake-installed "$prefix"
sh "$root/tests/integration/sdl2_consumer.sh" make-installed "$prefix"
echo "ok: installed by CMake, used by CMake, Make and pkg-config"
