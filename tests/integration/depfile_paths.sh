#!/bin/sh
# The depfile of `headers` read back by Ninja and by Make, for a project whose path holds every
# character their depfile syntax treats specially (space, '#', '$', ':', backslashes, a backslash
# right before a space): Ninja records exactly the files the generator read; after one build both
# tools have nothing to do; touching an injector makes both run the generator again.
#   depfile_paths.sh THREADLINK_GEN
set -eu
gen=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

project="$work/we ird#dir\$x:y\\back\\ sp"
mkdir -p "$project/injectors"
cat > "$project/threadlink.json" <<'EOF'
{
  "generated_dir": "generated",
  "injector_dir": "injectors",
  "domains": [ { "name": "Game.Ids", "output": "ids.h" } ]
}
EOF
echo Alpha > "$project/injectors/Game.Ids.User.txt"
"$gen" generate -C "$project" --quiet || fail "generate"
export TL_GEN="$gen" TL_PROJECT="$project"

# Ninja: the generator's command reads the project's path from the environment, so that only the
# depfile carries it.
mkdir "$work/ninja"
cd "$work/ninja"
cat > build.ninja <<'EOF'
rule headers
  command = "$$TL_GEN" headers -C "$$TL_PROJECT" -o gen --quiet --depfile $out.d --deptarget $out
  depfile = $out.d
  deps = gcc
build gen/ids.h: headers
EOF
ninja >/dev/null || fail "first ninja build"
ninja -t deps gen/ids.h | sed -n 's/^    //p' | sort > recorded
printf '%s\n' "$project/threadlink.json" "$project/injectors" "$project/injectors/Game.Ids.User.txt" \
  "$project/generated/Game.Ids.manifest.json" | sort > expected
diff expected recorded >/dev/null || { diff expected recorded; fail "Ninja read other paths from the depfile"; }
out=$(ninja) || fail "second ninja build"
case "$out" in *"no work to do"*) ;; *) echo "$out"; fail "Ninja's second build did work" ;; esac

# Make: the same depfile, included by a Makefile; `make -q` exits 0 only when all is up to date.
mkdir "$work/make"
cd "$work/make"
cat > Makefile <<'EOF'
gen/ids.h:
	"$$TL_GEN" headers -C "$$TL_PROJECT" -o gen --quiet --depfile gen/ids.d --deptarget $@
-include gen/ids.d
EOF
make -s >/dev/null || fail "first make build"
make -q || fail "Make's second build would do work"

# An edited input is seen by both.
sleep 1
echo Beta >> "$project/injectors/Game.Ids.User.txt"
! make -q || fail "Make did not see the edited injector"
make -s >/dev/null 2>&1 || fail "make after the edit"
grep -q Beta gen/ids.h || fail "Make's rebuild lacks the new entry"
cd "$work/ninja"
out=$(ninja 2>&1) || fail "ninja after the edit"
case "$out" in *"no work to do"*) echo "$out"; fail "Ninja did not see the edited injector" ;; esac
grep -q Beta gen/ids.h || fail "Ninja's rebuild lacks the new entry"
echo "depfile paths: ok"
