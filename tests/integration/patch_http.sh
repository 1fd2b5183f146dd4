#!/bin/sh
# examples/patcher against a real HTTP server on the loopback address (patch_server.py, started
# and stopped here): version 1 of a packed tree is installed, version 2 (two assets edited, two
# added) is published. Checks: only the archives version 1 lacks are downloaded; a connection
# cut midway is resumed with a range request (in the same run, or in the next one when the server
# went away, version 1 staying loadable meanwhile); a corrupted archive is refused and fetched again;
# one corrupted on every try fails with version 1 intact and loadable; a process stopped after
# every step of the switch leaves a loadable version 1 or 2 and the next run finishes version 2
# with nothing left over. Loadability is checked by `patcher --verify` (content.h, every XXH64).
#   patch_http.sh THREADLINK_GEN PATCHER PATCH_SERVER_PY
set -eu
gen=$1
patcher=$2
server_py=$3
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
server_pid=""
stop_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    server_pid=""
}
trap 'stop_server; rm -rf "$work"' EXIT
began=$(date +%s)
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
# name size, one archive a line, sorted
archives_of() { python3 -c 'import json,sys
for a in json.load(open(sys.argv[1]))["archives"]: print(a["name"], a["size"])' "$1" | sort; }

# ---- two versions of a packed tree ------------------------------------------------------------
mkdir -p assets/Data assets/Text
i=0
while [ $i -lt 160 ]; do head -c 40000 /dev/urandom > assets/Data/blob$i.bin; i=$((i + 1)); done
i=0
while [ $i -lt 12 ]; do seq $i 3 60000 > assets/Text/text$i.txt; i=$((i + 1)); done
cat > threadlink.json <<'JSON'
{ "content": [ { "profile": "Main", "source_root": "assets", "output": "out/Main", "archive": "packed",
    "max_archive_mb": 1, "compression": "lz4",
    "categories": [ { "name": "Data", "folder": "Data" }, { "name": "Text", "folder": "Text" } ] } ] }
JSON
"$gen" pack --quiet --no-progress >/dev/null || fail "pack v1"
cp -r out/Main v1
head -c 40000 /dev/urandom > assets/Data/blob7.bin   # edited
seq 5 7 90000 > assets/Text/text3.txt                 # edited
head -c 30000 /dev/urandom > assets/Data/added0.bin   # added
printf 'a new text\n' > assets/Text/added1.txt        # added
"$gen" pack --quiet --no-progress >/dev/null || fail "pack v2"
cp -r out/Main v2
archives_of v1/archives.json > v1.list
archives_of v2/archives.json > v2.list
comm -13 v1.list v2.list > changed.list   # what version 2 has and version 1 lacks
comm -23 v1.list v2.list > gone.list
[ -s changed.list ] && [ -s gone.list ] || fail "version 2 changed no archive"
[ "$(comm -12 v1.list v2.list | wc -l)" -gt 0 ] || fail "version 2 shares no archive with version 1"
changed_bytes=$(awk '{s += $2} END {print s}' changed.list)
total_bytes=$(awk '{s += $2} END {print s}' v2.list)

# --verify, the loadability check below, fails on a folder missing an archive or holding a
# damaged one (same size, one byte changed).
rm -rf broken; cp -r v2 broken
rm "broken/$(sed -n 2p v2.list | cut -d' ' -f1)"
"$patcher" --verify broken > verify.txt 2>&1 && fail "--verify passed a folder missing an archive"
rm -rf broken; cp -r v2 broken
victim="broken/$(sed -n 2p v2.list | cut -d' ' -f1)"
python3 -c 'import sys
b = bytearray(open(sys.argv[1], "rb").read()); b[-1] ^= 1; open(sys.argv[1], "wb").write(b)' "$victim"
"$patcher" --verify broken > verify.txt 2>&1 && fail "--verify passed a damaged archive"
grep -q 'NOT loadable' verify.txt || fail "--verify on a damaged archive said: $(cat verify.txt)"
rm -rf broken

# ---- the server -------------------------------------------------------------------------------
root=v2   # the folder it publishes
serve() { # fault options for patch_server.py
    stop_server
    rm -f port log
    python3 "$server_py" "$root" port log "$@" &
    server_pid=$!
    n=0
    while [ ! -s port ]; do
        n=$((n + 1)); [ $n -lt 100 ] || fail "the server did not start"
        sleep 0.1
    done
    url="http://127.0.0.1:$(cat port)"
}
# GETs of archive files in the log: name start sent status
archive_gets() { grep -v ' archives.json ' log | awk '{print $2, $3, $4, $5}'; }

install_v1() { rm -rf inst; cp -r v1 inst; }
run_patcher() { # expected exit status, then arguments
    want=$1; shift
    set +e; "$patcher" "$@" > out.txt 2> err.txt; rc=$?; set -e
    [ "$rc" = "$want" ] || { cat out.txt err.txt >&2; fail "patcher $*: exit $rc, want $want"; }
}
# inst is exactly version $1 (1 or 2): its index, its archives, nothing else of the profile, and
# content.h loads every asset.
is_version() {
    v=v$1
    cmp -s inst/archives.json "$v/archives.json" || fail "inst is not version $1 ($2)"
    while read -r name size; do cmp -s "inst/$name" "$v/$name" || fail "inst/$name differs from $v ($2)"; done < "$v.list"
    "$patcher" --verify inst > verify.txt 2>&1 || { cat verify.txt >&2; fail "inst does not load ($2)"; }
    grep -q ': loadable$' verify.txt || fail "--verify said: $(cat verify.txt)"
}
is_final_v2() {
    is_version 2 "$1"
    leftovers=$(ls -A inst | grep -v -e '^archives.json$' -e '^\.threadlink-content$' | sort | comm -23 - "$(awk '{print $1}' v2.list | sort > names2; echo names2)")
    [ -z "$leftovers" ] || fail "left over in inst ($1): $leftovers"
}

# ---- a clean update: only the changed archives travel ------------------------------------------
serve
install_v1
run_patcher 0 inst "$url"
is_final_v2 "clean update"
archive_gets | awk '{print $1}' | sort > fetched.list
awk '{print $1}' changed.list > want.list
cmp -s fetched.list want.list || { diff want.list fetched.list >&2; fail "fetched other archives than the changed ones"; }
sent=$(archive_gets | awk '{s += $3} END {print s}')
[ "$sent" = "$changed_bytes" ] || fail "sent $sent archive bytes, want $changed_bytes"
grep -q "download $(wc -l < changed.list) of $(wc -l < v2.list) archives ($changed_bytes of $total_bytes bytes)" out.txt ||
    fail "the plan's line: $(cat out.txt)"
echo "v1 -> v2: downloaded $sent of $total_bytes bytes ($(wc -l < changed.list) of $(wc -l < v2.list) archives)"
# Running again: up to date, nothing fetched.
: > log
run_patcher 0 inst "$url"
grep -q 'is up to date' out.txt || fail "second run: $(cat out.txt)"
[ -z "$(archive_gets)" ] || fail "second run fetched archives"

# The order of the switch, seen from outside (strace, when installed): every new archive is renamed
# into place before archives.json is, and every old archive is deleted after it.
if command -v strace >/dev/null 2>&1; then
    install_v1
    strace -f -qq -e trace=rename,renameat,renameat2,unlink,unlinkat -o trace.txt "$patcher" inst "$url" > out.txt 2> err.txt ||
        { cat err.txt >&2; fail "patcher under strace"; }
    is_final_v2 "under strace"
    switch_at=$(grep -n 'rename.*"inst/archives.json"' trace.txt | head -n 1 | cut -d: -f1)
    [ -n "$switch_at" ] || fail "no rename of archives.json in the trace"
    while read -r name size; do
        at=$(grep -n "rename.*\"inst/$name\"" trace.txt | head -n 1 | cut -d: -f1)
        [ -n "$at" ] && [ "$at" -lt "$switch_at" ] || fail "$name was not renamed into place before archives.json"
    done < changed.list
    while read -r name size; do
        at=$(grep -n "unlink.*\"inst/$name\"" trace.txt | head -n 1 | cut -d: -f1)
        [ -n "$at" ] && [ "$at" -gt "$switch_at" ] || fail "$name was not deleted after the switch"
    done < gone.list
    echo "switch order (strace): $(wc -l < changed.list) renames, archives.json, $(wc -l < gone.list) deletes"
fi

# A first install into an empty folder fetches everything.
rm -rf inst
run_patcher 0 inst "$url"
is_final_v2 "first install"

# ---- a connection cut midway is resumed with a range -------------------------------------------
big=$(sort -k2 -n changed.list | tail -n 1)
big_name=${big% *}
big_size=${big#* }
half=$((big_size / 2))
serve --cut "$big_name=$half"
install_v1
run_patcher 0 inst "$url"
is_final_v2 "cut connection"
archive_gets | grep "^$big_name " > big.gets
[ "$(sed -n 1p big.gets)" = "$big_name 0 $half 200" ] || fail "first GET of $big_name: $(sed -n 1p big.gets)"
[ "$(sed -n 2p big.gets)" = "$big_name $half $((big_size - half)) 206" ] || fail "resumed GET of $big_name: $(sed -n 2p big.gets)"
grep -q "resumed at byte $half" err.txt || fail "no resume reported: $(cat err.txt)"
echo "cut at $half of $big_size bytes: resumed from byte $half"

# The server goes away after cutting the connection: the patcher gives up with version 1 intact
# and loadable, keeping the part it has; the next run, with the server back, resumes from it.
serve --cut "$big_name=$half" --exit-after-cut
install_v1
run_patcher 1 inst "$url"
is_version 1 "server gone midway"
[ "$(wc -c < "inst/.threadlink-patch/$big_name.part")" = "$half" ] || fail "the part of $big_name was not kept"
serve
run_patcher 0 inst "$url"
is_final_v2 "server back"
[ "$(archive_gets | grep "^$big_name ")" = "$big_name $half $((big_size - half)) 206" ] ||
    fail "the next run did not resume $big_name: $(archive_gets | grep "^$big_name ")"

# ---- a corrupted archive is refused and fetched again -----------------------------------------
serve --corrupt "$big_name=1"
install_v1
run_patcher 0 inst "$url"
is_final_v2 "corrupted once"
grep -q "refused $big_name (attempt 1 of 5): .*XXH64 is not the recorded one" err.txt || fail "no refusal: $(cat err.txt)"
[ "$(archive_gets | grep -c "^$big_name ")" = 2 ] || fail "$big_name was not fetched exactly twice"

# Corrupted every time: the patcher gives up, version 1 stays, untouched and loadable; a later
# run against a good server finishes version 2.
serve --corrupt "$big_name=1000"
install_v1
run_patcher 1 inst "$url"
grep -q "giving up after 5 attempts" err.txt || fail "no give-up: $(cat err.txt)"
is_version 1 "corrupted every time"
serve
run_patcher 0 inst "$url"
is_final_v2 "after a failed update"

# A published archives.json cut short (or not an index at all): refused before anything is
# written, with the reason; version 1 as it was, no staging folder.
mkdir bad
head -c 200 v2/archives.json > bad/archives.json
root=bad
serve
install_v1
run_patcher 1 inst "$url"
grep -q "archives.json: new archives.json, byte 200, archive [0-9][0-9]*.*: not a valid archive index" err.txt || fail "bad index: $(cat err.txt)"
is_version 1 "bad index"
[ ! -e inst/.threadlink-patch ] || fail "a refused index left a staging folder"
root=v2
serve

# ---- stopped after every step of the switch ----------------------------------------------------
k=1
while :; do
    install_v1
    set +e; TL_PATCHER_CRASH_AFTER=$k "$patcher" inst "$url" > out.txt 2> err.txt; rc=$?; set -e
    [ "$rc" = 0 ] && break
    [ "$rc" = 99 ] || { cat err.txt >&2; fail "stop after step $k: exit $rc"; }
    if cmp -s inst/archives.json v1/archives.json; then seen=1; else seen=2; fi
    is_version $seen "stopped after switch step $k"
    run_patcher 0 inst "$url"
    is_final_v2 "resumed after switch step $k"
    k=$((k + 1))
    [ $k -lt 100 ] || fail "the switch never ends"
done
echo "stopped after each of the switch's $((k - 1)) steps: always loadable, then version 2"
stop_server
echo "patch over HTTP ok in $(( $(date +%s) - began )) s"
