#!/bin/sh
# The command line itself: exit statuses (0 ok, 1 input errors or stale, 2 usage), --help and
# --version, usage errors that name the problem, and init (what it writes and refuses; its main.c
# compiled under a game team's strict flags; the projects it writes are built by
# tests/integration/init_builds.sh).
#   cli.sh THREADLINK_GEN RUNTIME CC...
set -u
gen=$1
runtime=$2
shift 2
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
trap 'rm -rf "$work"' EXIT
failed=0
expect() { # status, command...
  want=$1; shift
  "$@" >"$work/out" 2>"$work/err"
  got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: '$*' exited $got, expected $want"; cat "$work/out" "$work/err"; failed=$((failed + 1))
  fi
}
expect_err() { # text the last stderr must contain
  grep -qF -- "$1" "$work/err" || { echo "FAIL: stderr lacks '$1'"; cat "$work/err"; failed=$((failed + 1)); }
}
expect_no_err() { # text the last stderr must not contain
  ! grep -qF -- "$1" "$work/err" || { echo "FAIL: stderr has '$1'"; cat "$work/err"; failed=$((failed + 1)); }
}

expect 2 "$gen"
expect 0 "$gen" --version
grep -q '^threadlink-gen [0-9]' "$work/out" || { echo "FAIL: --version prints no version"; failed=$((failed + 1)); }
grep -Eq ' \(build [0-9a-f]{16}\)$' "$work/out" || { echo "FAIL: --version names no build"; failed=$((failed + 1)); }
expect 0 "$gen" --help
grep -q 'usage: threadlink-gen' "$work/out" || { echo "FAIL: --help prints no usage"; failed=$((failed + 1)); }
expect 2 "$gen" frobnicate
expect_err "unknown command 'frobnicate'"
expect_no_err "did you mean"
expect 2 "$gen" generat
expect_err "unknown command 'generat' (did you mean 'generate'?)"
expect 2 "$gen" generate --bogus
expect_err "unknown option '--bogus'"
expect 2 "$gen" generate --jobs 0 # threads: a whole number from 1
expect_err "--jobs takes a whole number from 1 to 1024, not '0'"
expect 2 "$gen" check -j many
expect_err "--jobs takes a whole number from 1 to 1024, not 'many'"
expect 2 "$gen" generate -C "$work/p" --jobs ' 3'
expect_err "--jobs takes a whole number from 1 to 1024, not ' 3'"
expect 2 "$gen" generate -C "$work/p" --jobs +3
expect_err "--jobs takes a whole number from 1 to 1024, not '+3'"
expect 2 "$gen" check --quite
expect_err "unknown option '--quite' (did you mean '--quiet'?)"
expect 2 "$gen" generate --diagnostic-format=json
expect_err "unknown option '--diagnostic-format=json' (did you mean '--diagnostics-format'?)"
expect 1 "$gen" pack --profle all
expect_err "unknown key '--profle' (did you mean '--profile'?)"
expect_err "known keys: -C, --config,"
expect 2 "$gen" pack --profile
expect_err "option '--profile' needs a value"
expect_err "(run threadlink-gen pack --help for usage)"
expect 2 "$gen" diff a b --alow x
expect_err "unknown diff option '--alow' (did you mean '--allow'?)"
expect 2 "$gen" diff a b --format
expect_err "option '--format' needs a value"
expect 2 "$gen" generate --config
expect_err "option '--config' needs a value"
expect 2 "$gen" generate --quiet=yes
expect_err "option '--quiet' takes no value"
expect 2 "$gen" generate stray
expect_err "generate takes options only; unexpected argument 'stray'"
expect 2 "$gen" diff a b c
expect_err "diff takes two paths, OLD and NEW; extra argument 'c'"
expect 0 "$gen" diff --help
grep -q 'usage: threadlink-gen' "$work/out" || { echo "FAIL: diff --help prints no usage"; failed=$((failed + 1)); }
expect 0 "$gen" pack -h
grep -q 'usage: threadlink-gen pack' "$work/out" || { echo "FAIL: pack -h prints no usage"; failed=$((failed + 1)); }
expect 2 "$gen" headers
expect_err "headers needs -o DIR"
expect 2 "$gen" generate -o out
expect 2 "$gen" generate --diagnostics-format=xml
expect_err "unknown diagnostics format 'xml'"
expect 2 "$gen" diff only-one
expect 2 "$gen" diff a b --format yaml
expect 2 "$gen" generate -C "$work/does-not-exist"

mkdir -p "$work/p/injectors"
echo '{"domains": [{"name": "Game.Ids", "output": "game_ids.h"}]}' > "$work/p/threadlink.json"
echo Alpha > "$work/p/injectors/Game.Ids.User.txt"
expect 0 "$gen" generate -C "$work/p" --quiet
expect 0 "$gen" check -C "$work/p"
echo Beta >> "$work/p/injectors/Game.Ids.User.txt"
expect 1 "$gen" check -C "$work/p"
grep -q '^+    Game_Ids_Beta = ' "$work/out" || { echo "FAIL: check printed no diff"; failed=$((failed + 1)); }
echo '9bad' >> "$work/p/injectors/Game.Ids.User.txt"
expect 1 "$gen" generate -C "$work/p"
# With -C, diagnostics name files as seen from where the command ran.
expect_err "$work/p/injectors/Game.Ids.User.txt:3:1: error: identifier must start with a letter, not '9'"
cd "$work"
expect 1 "$gen" generate -C p --diagnostics-format msvc # a long option's value, either spelling
cd - >/dev/null
expect_err "p/injectors/Game.Ids.User.txt(3,1): error: identifier must start with a letter, not '9'"
expect 1 "$gen" generate --config "$work/p/threadlink.json"
expect_err "$work/p/injectors/Game.Ids.User.txt:3:1: error:"
# A file name that is not UTF-8, or holds ',' ':' or a newline, still gives well-formed lines.
odd="$work/q$(printf '\377'),x:y
z"
mkdir -p "$odd/injectors"
cp "$work/p/threadlink.json" "$odd/"
printf '9bad\n' > "$odd/injectors/Game.Ids.User.txt"
expect 1 "$gen" generate -C "$odd" --diagnostics-format json
python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin.read().splitlines()]' < "$work/err" \
  || { echo "FAIL: a JSON diagnostic line is not JSON"; failed=$((failed + 1)); }
expect 1 "$gen" generate -C "$odd" --diagnostics-format github
LC_ALL=C grep -q '^::error file=.*%2Cx%3Ay%0Az/injectors/Game.Ids.User.txt,line=1,col=1::' "$work/err" \
  || { echo "FAIL: github file property not escaped"; cat "$work/err"; failed=$((failed + 1)); }
expect 1 "$gen" generate -C "$odd"
[ "$(wc -l < "$work/err")" = 1 ] || { echo "FAIL: a newline in a file name split the diagnostic"; failed=$((failed + 1)); }
# -C from a working directory longer than PATH_MAX (4,096 bytes) works (it was a usage error).
# bash, whose cd goes one step at a time where dash's refuses a path that long.
bash -c 'set -e; cd "$1"; seg=$(printf "d%.0s" $(seq 1 200))
  for i in $(seq 1 21); do mkdir "$seg$i"; cd "$seg$i"; done
  cp -r "$1/p" proj; printf "Alpha\n" > proj/injectors/Game.Ids.User.txt
  [ "$(pwd | wc -c)" -gt 4096 ]
  "$2" generate -C proj >/dev/null; "$2" check -C proj >/dev/null' deep "$work" "$gen" \
  || { echo "FAIL: -C from a working directory longer than 4096 bytes"; failed=$((failed + 1)); }
expect 2 "$gen" diff "$work/p/generated" "$work/nothing-here"
expect 0 "$gen" diff "$work/p/generated" "$work/p/generated"

# A folder with no project config: the message says how to start one.
mkdir "$work/empty"
expect 1 "$gen" generate -C "$work/empty"
expect_err "threadlink.json: error: no project config here: start a project with threadlink-gen init [--build meson|cmake|make] DIR, or run in a project's folder (-C DIR)"
# From a project's subfolder: the project above is named.
mkdir -p "$work/above/injectors/deeper"
echo '{"domains": []}' > "$work/above/threadlink.json"
(cd "$work/above/injectors/deeper" && "$gen" generate) >"$work/out" 2>"$work/err"
expect_err "threadlink.json: error: no project config here; the project is in ../.. (../../threadlink.json): run there, or pass -C ../.."

# init: a project per build system, generated once (its manifests written, check clean); a folder
# that is not empty, or a file, is refused and left as it was; usage errors.
for build in meson cmake make; do
  expect 0 "$gen" init --build "$build" "$work/new-$build/My Game!"
  grep -qF "cd '$work/new-$build/My Game!'" "$work/out" || { echo "FAIL: init --build $build prints no next step (the folder quoted for the shell)"; cat "$work/out"; failed=$((failed + 1)); }
  (cd "$work/new-$build/My Game!" && find . -type f | sort) > "$work/files"
  for f in ./threadlink.json ./main.c ./.gitignore ./injectors/Iris.Events.User.txt ./vaults/Player.vault.json \
           ./vaultdata/players.vaultdata.json ./assets/Text/greeting.txt ./generated/Vault.Fields.manifest.json \
           ./generated/players_data.h; do
    grep -qxF "$f" "$work/files" || { echo "FAIL: init --build $build wrote no $f"; failed=$((failed + 1)); }
  done
  case $build in meson) own=./meson.build ;; cmake) own=./CMakeLists.txt ;; make) own=./Makefile ;; esac
  # Meson's checkout of a threadlink.wrap is not the project's source: git add -A leaves it out.
  if [ "$build" = meson ] && command -v git >/dev/null 2>&1; then
    (cd "$work/new-$build/My Game!" && git init -q . && mkdir -p subprojects/threadlink && touch subprojects/threadlink/x &&
     git check-ignore -q subprojects/threadlink/x) || { echo "FAIL: init's .gitignore does not ignore subprojects/threadlink/"; failed=$((failed + 1)); }
    rm -rf "$work/new-$build/My Game!/.git" "$work/new-$build/My Game!/subprojects"
  fi
  [ "$(grep -c -e '^./meson.build$' -e '^./CMakeLists.txt$' -e '^./Makefile$' "$work/files")" = 1 ] && grep -qxF "$own" "$work/files" ||
    { echo "FAIL: init --build $build wrote the build files:"; grep -e meson.build -e CMake -e Makefile "$work/files"; failed=$((failed + 1)); }
  grep -q 'MyGame' "$work/new-$build/My Game!/$own" && ! grep -q '@NAME@' "$work/new-$build/My Game!/$own" "$work/new-$build/My Game!/main.c" ||
    { echo "FAIL: init --build $build did not name the project MyGame"; failed=$((failed + 1)); }
  expect 0 "$gen" check -C "$work/new-$build/My Game!"
done
# init's main.c compiles under the strict flags a game team builds with, whatever its names hash
# to: its level Meadow is above INT_MAX, a negative enumerator, which a uint32_t parameter takes
# under -Wsign-conversion only through the domain's _U32 macro.
p="$work/new-make/My Game!"
expect 0 "$gen" headers -C "$p" -o "$work/init-headers" --quiet
grep -q 'Nexus_Levels_Meadow = -' "$work/init-headers/levels.h" ||
  { echo "FAIL: Meadow is no longer above INT_MAX: the strict compile below would not cover a negative enumerator"; failed=$((failed + 1)); }
for std in c99 c11; do
  "$@" "-std=$std" -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wstrict-prototypes \
    -Wmissing-prototypes -Werror -fsyntax-only -I"$runtime" -I"$work/init-headers" "$p/main.c" 2>"$work/err" ||
    { echo "FAIL: init's main.c does not compile as $std under the strict flags"; cat "$work/err"; failed=$((failed + 1)); }
done

(cd "$work/new-meson" && find . | sort) > "$work/before"
expect 1 "$gen" init "$work/new-meson/My Game!"
expect_err "My Game!: error: the folder is not empty"
(cd "$work/new-meson" && find . | sort) | cmp -s - "$work/before" || { echo "FAIL: a refused init changed the folder"; failed=$((failed + 1)); }
expect 1 "$gen" init "$work/new-meson/My Game!/main.c"
expect_err "main.c: error: init writes a new project into a folder, and this is not a folder"
expect 2 "$gen" init
expect_err "init needs the folder of the new project"
expect 2 "$gen" init --build scons "$work/x"
expect_err "--build takes meson, cmake or make, not 'scons'"
expect 2 "$gen" init "$work/x" "$work/y"
expect_err "init takes one folder; extra argument"
expect 2 "$gen" innit "$work/x"
expect_err "unknown command 'innit' (did you mean 'init'?)"
[ ! -e "$work/x" ] || { echo "FAIL: a usage error wrote a project"; failed=$((failed + 1)); }

echo "cli: $failed failed"
[ "$failed" = 0 ]
