#!/bin/sh
# game-replay: tests/replay.inputs replayed headlessly must give the pinned frame hashes
# (tests/replay.hashes) from the build's game-headless, from the driver rebuilt with gcc and clang
# with the game at -O0 and at -O2, and from the cross targets the runtime is tested on (64-bit and
# 32-bit ARM and big-endian s390x under qemu-user, 64-bit Windows under Wine; missing ones are
# skipped, and fail under CI=true). A save halfway through, continued in a new game, must end on
# the straight run's hash; every other build continues from that save to the same frame, except
# the big-endian one, which must refuse it (the block is saved in the machine's byte order).
#   replay.sh GAME_HEADLESS CONTENT_DIR GAME_SOURCE_DIR RUNTIME_DIR
# Each compiler builds the runtime's implementation (src/runtime.c: content, nexus, vaults, saves;
# most of the build time) once and links it with the game's sources (the simulation, with fp.h,
# rng.h and mem.h inlined into it) built at each level: on the host at -O2, so that the -O2 builds
# are the whole program at -O2; on the cross targets at -O0 (their game at -O2). The compilers'
# builds run two at a time.
set -eu
headless=$1 content=$2 src=$3 runtime=$4
inputs=$src/tests/replay.inputs
pinned=$src/tests/replay.hashes
tmp=$(mktemp -d)
trap 'command -v tl_cross_finish > /dev/null && tl_cross_finish "$tmp"; rm -rf "$tmp"' EXIT INT TERM
grep -v '^#' "$pinned" > "$tmp/pinned"
fail=0

check() { # NAME HASHES_FILE
  if cmp -s "$tmp/pinned" "$2"; then
    echo "ok: $1 ($(wc -l < "$2") pinned hashes)"
  else
    echo "FAIL: $1 gives other frame hashes:"; diff "$tmp/pinned" "$2" | head -5; return 1
  fi
}

# The build's own driver, then a save and continue.
"$headless" "$content" replay "$inputs" 250 > "$tmp/build.txt"
check "the build's game-headless" "$tmp/build.txt" || fail=1
mkdir "$tmp/saves"
"$headless" "$content" continue "$inputs" "$tmp/saves" || { echo "FAIL: save and continue"; fail=1; }
"$headless" "$content" resume "$tmp/saves" > "$tmp/resume.txt" || { echo "FAIL: resume from the save"; fail=1; }

game_sources="sim.c game.c inputs.c headless.c"
# compiler_job NAME RUNNER "CC FLAGS" RUNTIME_LEVEL LEVELS...: the runtime object once, then for
# each level the game's sources at that level linked with it, run on the replay. Prints its
# results; fails if any build or replay does.
compiler_job() {
  name=$1 runner=$2 cc=$3 runtime_level=$4; shift 4
  dir=$tmp/$(echo "$name" | tr -c 'A-Za-z0-9\n' '_')
  mkdir "$dir"
  incs="-I$runtime -I$src/generated -I$src/src"
  # shellcheck disable=SC2086 # cc holds the compiler and its flags
  if ! $cc -std=c11 "$runtime_level" $incs -c "$src/src/runtime.c" -o "$dir/runtime.o" 2> "$dir/cc.log"; then
    echo "FAIL: $name: the runtime does not build:"; head -20 "$dir/cc.log"; return 1
  fi
  status=0
  for level in "$@"; do
    exe=$dir/game$level${tl_cross_exe:-}
    objs=
    for f in $game_sources; do
      # shellcheck disable=SC2086
      $cc -std=c11 "$level" $incs -c "$src/src/$f" -o "$dir/${f%.c}$level.o" 2>> "$dir/cc.log" || status=1
      objs="$objs $dir/${f%.c}$level.o"
    done
    # shellcheck disable=SC2086
    if [ $status = 1 ] || ! $cc $objs "$dir/runtime.o" -o "$exe" -lm 2>> "$dir/cc.log"; then
      echo "FAIL: $name $level does not build:"; head -20 "$dir/cc.log"; return 1
    fi
    $runner "$exe" "$content" replay "$inputs" 250 2> /dev/null | tr -d '\r' > "$dir/out$level.txt" || true
    check "$name $level" "$dir/out$level.txt" || status=1
  done
  check_resume "$name" "$runner" "$exe" "$dir" || status=1
  return $status
}

# check_resume NAME RUNNER EXE DIR: the build's save, continued by EXE (on a copy): the same frame,
# or on a big-endian target a refusal that says why.
check_resume() {
  case $1 in *-mingw32) echo "skip: $1 resume (save.h has no built-in Windows backend: desc.io)"; return 0 ;; esac
  cp -R "$tmp/saves" "$4/saves"
  if $2 "$3" "$content" resume "$4/saves" > "$4/resume.raw" 2> "$4/resume.err"; then
    tr -d '\r' < "$4/resume.raw" > "$4/resume.txt"
    case $1 in s390x-*) echo "FAIL: $1 continued a little-endian save"; return 1 ;; esac
    cmp -s "$tmp/resume.txt" "$4/resume.txt" || { echo "FAIL: $1 continues the save elsewhere:"; cat "$4/resume.txt"; return 1; }
    echo "ok: $1 continues the build's save ($(cat "$4/resume.txt"))"
  else
    case $1 in s390x-*) grep -q "other byte order" "$4/resume.err" && { echo "ok: $1 refuses the build's save (other byte order)"; return 0; } ;; esac
    echo "FAIL: $1 does not continue the build's save:"; head -3 "$4/resume.err"; return 1
  fi
}

# start NAME RUNNER "CC FLAGS" RUNTIME_LEVEL LEVELS...: compiler_job in the background, at most two at a time;
# finish_all waits for them and prints their results in the order they started.
running='' jobs_started=0
start() {
  [ "$(echo $running | wc -w)" -lt 2 ] || finish_all
  jobs_started=$((jobs_started + 1))
  log=$tmp/job$jobs_started.log
  ( if compiler_job "$@" > "$log" 2>&1; then echo 0; else echo 1; fi > "$log.rc" ) &
  running="$running $!:$log"
}
finish_all() {
  for job in $running; do
    wait "${job%%:*}" || true
    cat "${job#*:}"
    [ "$(cat "${job#*:}.rc" 2> /dev/null)" = 0 ] || fail=1
  done
  running=
}

for cc in gcc clang; do
  if command -v "$cc" > /dev/null 2>&1; then start "$cc" "" "$cc" -O2 -O0 -O2
  elif [ "${CI:-}" = true ]; then echo "FAIL: $cc missing"; fail=1
  else echo "skip: $cc missing"; fi
done

# Cross targets (tests/cross/targets.sh): static builds run by qemu-user or Wine, big-endian s390x
# among them (sim_hash walks the block's fields in little-endian order).
. "$src/../../tests/cross/targets.sh"
for target in $tl_cross_targets; do
  tl_cross_ready "$target" "$tmp" || { [ "$tl_cross_missing" = 0 ] || fail=1; continue; }
  [ -e "$tmp/xxhash-include/stb" ] || ln -s /usr/include/stb "$tmp/xxhash-include/stb"
  # Large-file offsets, as Meson builds: 32-bit ARM's readdir otherwise fails on 64-bit inode
  # numbers, and save.h cannot list its folder.
  start "$triplet" "$tl_cross_run" "$tl_cross_gcc $tl_cross_flags -D_FILE_OFFSET_BITS=64" -O0 -O2
done
finish_all
exit $fail
