#!/bin/sh
# examples/patcher against a real HTTP server on the loopback address (patch_server.py, started
# and stopped here): version 1 of a packed tree is installed, version 2 (two assets edited, two
# added) is published. Checks: only the archives version 1 lacks are downloaded; a connection
# cut midway is resumed with a range request (in the same run, or in the next one when the server
# went away, version 1 staying loadable meanwhile); a corrupted archive is refused and fetched again;
# one corrupted on every try fails with version 1 intact and loadable; a process stopped after
# every step of the switch leaves a loadable version 1 or 2 and the next run finishes version 2
# with nothing left over. Loadability is checked by `patcher --verify` (content.h, every XXH64).
# Then the hostile cases (issue 41): a staging folder or part file that is a link, FIFOs named
# like archives, an index announcing 2^53 bytes, a server sending more than announced, one that
# ignores ranges, drips bytes or redirects, a body that ends early, archives whose hashes match
# but that do not mount or load, a 255-byte archive name, and a disk that fills midway.
#   patch_http.sh THREADLINK_GEN PATCHER PATCH_SERVER_PY [SECTION...]
# SECTIONs (default: all): verify clean strace first cut gone corrupt badindex switch confine
# fifo huge norange drip deadline unmountable longname redirect short diskfull concurrent
set -eu
gen=$1
patcher=$2
server_py=$3
shift 3
only=" $* "
work=$(mktemp -d)
export XDG_CACHE_HOME="$work/.cache" # pack's record of input hashes: the test's own, not ~/.cache
server_pid=""
stop_server() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    server_pid=""
}
trap 'stop_server; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
began=$(date +%s)
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
section() { [ "$only" = "  " ] || case "$only" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# name size, one archive a line, sorted
archives_of() { python3 -c 'import json,sys
for a in json.load(open(sys.argv[1]))["archives"]: print(a["name"], a["size"])' "$1" | sort; }

# Edits a copy of a published folder, keeping its index true to its bytes (XXH64 in Python):
#   index.py rename DIR NAME NEWNAME    the archive renamed, in the folder and its index
#   index.py flip DIR NAME OFFSET       one byte flipped (OFFSET < 0: from the end), XXH64 updated
#   index.py size DIR NAME SIZE         the size the index announces (the file unchanged)
#   index.py stage DIR NAME SUFFIX      the patcher's staging name: XXH64-SIZE + SUFFIX
#   index.py check DIR                  every archive's XXH64 as recorded (checks this XXH64)
cat > index.py <<'PY'
import json, os, sys
M = (1 << 64) - 1
P1, P2, P3, P4, P5 = (11400714785074694791, 14029467366897019727, 1609587929392839161,
                      9650029242287828579, 2870177450012600261)
def rotl(x, r): return ((x << r) | (x >> (64 - r))) & M
def rnd(acc, v): return rotl((acc + v * P2) & M, 31) * P1 & M
def merge(h, v): return ((h ^ rnd(0, v)) * P1 + P4) & M
def u64(b, i): return int.from_bytes(b[i:i + 8], "little")
def xxh64(b):
    n, i = len(b), 0
    if n >= 32:
        v = [(P1 + P2) & M, P2, 0, (-P1) & M]
        while i + 32 <= n:
            v = [rnd(v[k], u64(b, i + 8 * k)) for k in range(4)]
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for x in v: h = merge(h, x)
    else:
        h = P5
    h = (h + n) & M
    while i + 8 <= n:
        h = (rotl(h ^ rnd(0, u64(b, i)), 27) * P1 + P4) & M; i += 8
    if i + 4 <= n:
        h = (rotl(h ^ (int.from_bytes(b[i:i + 4], "little") * P1 & M), 23) * P2 + P3) & M; i += 4
    while i < n:
        h = rotl(h ^ (b[i] * P5 & M), 11) * P1 & M; i += 1
    h ^= h >> 33; h = h * P2 & M; h ^= h >> 29; h = h * P3 & M; h ^= h >> 32
    return h
cmd, d = sys.argv[1], sys.argv[2]
path = os.path.join(d, "archives.json")
index = json.load(open(path))
arc = {a["name"]: a for a in index["archives"]}
if cmd == "check":
    for a in index["archives"]:
        assert "%016x" % xxh64(open(os.path.join(d, a["name"]), "rb").read()) == a["xxh64"], a["name"]
    sys.exit(0)
a = arc[sys.argv[3]]
if cmd == "stage":
    print("%s-%d%s" % (a["xxh64"], a["size"], sys.argv[4])); sys.exit(0)
if cmd == "rename":
    os.rename(os.path.join(d, a["name"]), os.path.join(d, sys.argv[4])); a["name"] = sys.argv[4]
elif cmd == "flip":
    p = os.path.join(d, a["name"]); b = bytearray(open(p, "rb").read())
    b[int(sys.argv[4])] ^= 0x20; open(p, "wb").write(b); a["xxh64"] = "%016x" % xxh64(bytes(b))
elif cmd == "size":
    a["size"] = int(sys.argv[4])
json.dump(index, open(path, "w"), indent=1)
PY

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
python3 index.py check v2 || fail "index.py's XXH64 is not the one pack records"
archives_of v1/archives.json > v1.list
archives_of v2/archives.json > v2.list
comm -13 v1.list v2.list > changed.list   # what version 2 has and version 1 lacks
comm -23 v1.list v2.list > gone.list
[ -s changed.list ] && [ -s gone.list ] || fail "version 2 changed no archive"
[ "$(comm -12 v1.list v2.list | wc -l)" -gt 0 ] || fail "version 2 shares no archive with version 1"
changed_bytes=$(awk '{s += $2} END {print s}' changed.list)
total_bytes=$(awk '{s += $2} END {print s}' v2.list)
big=$(sort -k2 -n changed.list | tail -n 1)   # the largest archive version 2 adds
big_name=${big% *}
big_size=${big#* }
half=$((big_size / 2))

# --verify, the loadability check below, fails on a folder missing an archive or holding a
# damaged one (same size, one byte changed).
if section verify; then
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
fi

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
# Waits (up to 10 s) until the log holds $2 GETs of archive $1: the server logs a GET once its
# answer ends, which for a client that went away is when a write fails, after the patcher exits.
wait_for_gets() {
    n=0
    while [ "$(archive_gets | grep -c "^$1 ")" -lt "$2" ]; do
        n=$((n + 1)); [ $n -lt 100 ] || fail "the server logged $(archive_gets | grep -c "^$1 ") GETs of $1, want $2"
        sleep 0.1
    done
}

install_v1() { chmod -R u+w inst 2>/dev/null || true; rm -rf inst; cp -r v1 inst; }
run_patcher() { # expected exit status, then arguments; a run past 120 s is a hang (exit 124)
    want=$1; shift
    set +e; timeout 120 "$patcher" "$@" > out.txt 2> err.txt; rc=$?; set -e
    [ "$rc" = "$want" ] || { cat out.txt err.txt >&2; fail "patcher $*: exit $rc, want $want"; }
}
# inst is exactly the version published in folder $1 (v1, v2, ...): its index, its archives, and
# content.h loads every asset.
is_version_of() {
    cmp -s inst/archives.json "$1/archives.json" || fail "inst is not $1 ($2)"
    archives_of "$1/archives.json" > want_version.list
    while read -r name size; do cmp -s "inst/$name" "$1/$name" || fail "inst/$name differs from $1 ($2)"; done < want_version.list
    "$patcher" --verify inst > verify.txt 2>&1 || { cat verify.txt >&2; fail "inst does not load ($2)"; }
    grep -q ': loadable$' verify.txt || fail "--verify said: $(cat verify.txt)"
}
is_version() { is_version_of "v$1" "$2"; }
# ... and nothing else in inst: no archive of another version, no staging folder.
is_final_of() {
    is_version_of "$1" "$2"
    awk '{print $1}' want_version.list | sort > names.list
    leftovers=$(ls -A inst | grep -v -e '^archives.json$' -e '^\.threadlink-content$' | sort | comm -23 - names.list)
    [ -z "$leftovers" ] || fail "left over in inst ($2): $leftovers"
}
is_final_v2() { is_final_of v2 "$1"; }
no_staging() { [ ! -e inst/.threadlink-patch ] || fail "staging left after $1: $(ls -A inst/.threadlink-patch) ($(cat err.txt))"; }

# ---- a clean update: only the changed archives travel ------------------------------------------
if section clean; then
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
fi

# The order of the switch, seen from outside (strace, when installed; -y names the folder of each
# descriptor): every new archive is renamed into inst before archives.json is, and every old
# archive is deleted after it.
in_inst() { printf '("inst/|/inst>, ")%s"' "$1" | sed 's/\./\\./g'; }
if section strace && command -v strace >/dev/null 2>&1; then
    serve
    install_v1
    # (LeakSanitizer cannot run under ptrace: a sanitizer build checks leaks in the other runs)
    ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
        strace -f -qq -y -e trace=rename,renameat,renameat2,unlink,unlinkat -o trace.txt "$patcher" inst "$url" > out.txt 2> err.txt ||
        { cat err.txt >&2; fail "patcher under strace"; }
    is_final_v2 "under strace"
    switch_at=$(grep -n -E "rename.*$(in_inst archives.json)" trace.txt | head -n 1 | cut -d: -f1)
    [ -n "$switch_at" ] || fail "no rename of archives.json in the trace"
    while read -r name size; do
        at=$(grep -n -E "rename.*$(in_inst "$name")" trace.txt | head -n 1 | cut -d: -f1)
        [ -n "$at" ] && [ "$at" -lt "$switch_at" ] || fail "$name was not renamed into place before archives.json"
    done < changed.list
    while read -r name size; do
        at=$(grep -n -E "unlink.*$(in_inst "$name")" trace.txt | head -n 1 | cut -d: -f1)
        [ -n "$at" ] && [ "$at" -gt "$switch_at" ] || fail "$name was not deleted after the switch"
    done < gone.list
    echo "switch order (strace): $(wc -l < changed.list) renames, archives.json, $(wc -l < gone.list) deletes"
fi

# A first install into an empty folder fetches everything.
if section first; then
    serve
    rm -rf inst
    run_patcher 0 inst "$url"
    is_final_v2 "first install"
fi

# ---- a connection cut midway is resumed with a range -------------------------------------------
if section cut; then
    serve --cut "$big_name=$half"
    install_v1
    run_patcher 0 inst "$url"
    is_final_v2 "cut connection"
    archive_gets | grep "^$big_name " > big.gets
    [ "$(sed -n 1p big.gets)" = "$big_name 0 $half 200" ] || fail "first GET of $big_name: $(sed -n 1p big.gets)"
    [ "$(sed -n 2p big.gets)" = "$big_name $half $((big_size - half)) 206" ] || fail "resumed GET of $big_name: $(sed -n 2p big.gets)"
    grep -q "$big_name: resumed at byte $half of $big_size" err.txt || fail "no resume reported: $(cat err.txt)"
    echo "cut at $half of $big_size bytes: resumed from byte $half"
fi

# The server goes away after cutting the connection: the patcher gives up with version 1 intact
# and loadable, keeping the part it has; the next run, with the server back, resumes from it.
if section gone; then
    serve --cut "$big_name=$half" --exit-after-cut
    install_v1
    run_patcher 1 inst "$url"
    is_version 1 "server gone midway"
    part=$(python3 index.py stage v2 "$big_name" .part)
    [ "$(wc -c < "inst/.threadlink-patch/$part")" = "$half" ] || fail "the part of $big_name was not kept"
    serve
    run_patcher 0 inst "$url"
    is_final_v2 "server back"
    [ "$(archive_gets | grep "^$big_name ")" = "$big_name $half $((big_size - half)) 206" ] ||
        fail "the next run did not resume $big_name: $(archive_gets | grep "^$big_name ")"
fi

# ---- a corrupted archive is refused and fetched again -----------------------------------------
if section corrupt; then
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
fi

# A published archives.json cut short (or not an index at all): refused before anything is
# written, with the reason and where (the byte, the archive); version 1 as it was, no staging.
if section badindex; then
    mkdir -p bad
    head -c 200 v2/archives.json > bad/archives.json
    root=bad
    serve
    install_v1
    run_patcher 1 inst "$url"
    grep -q "archives.json: new archives.json, byte 200, archive [0-9][0-9]*.*: not a valid archive index" err.txt ||
        fail "bad index: $(cat err.txt)"
    is_version 1 "bad index"
    no_staging "a refused index"
    root=v2
fi

# ---- stopped after every step of the switch ----------------------------------------------------
if section switch; then
    serve
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
fi

# ---- confinement: nothing through a link, nothing deleted that the patcher did not make --------
if section confine; then
    serve
    mkdir -p outside
    for x in notes.txt "$big_name" "$big_name.part"; do printf 'precious\n' > "outside/$x"; done
    # The staging folder is a link to another folder: refused, the folder's files untouched.
    install_v1
    ln -s ../outside inst/.threadlink-patch
    run_patcher 1 inst "$url"
    grep -q "inst/.threadlink-patch: .*symbolic link" err.txt || fail "staging link: $(cat err.txt)"
    for x in notes.txt "$big_name" "$big_name.part"; do
        [ "$(cat "outside/$x")" = precious ] || fail "outside/$x was changed or deleted through the staging link"
    done
    is_version 1 "staging folder a link"
    # Part files that are links (under the names this patcher and the one before it gave them):
    # refused, nothing written through them.
    install_v1
    mkdir inst/.threadlink-patch
    while read -r name size; do
        printf 'precious\n' > "outside/$name.victim"
        ln -s "../../outside/$name.victim" "inst/.threadlink-patch/$name.part"
        ln -s "../../outside/$name.victim" "inst/.threadlink-patch/$(python3 index.py stage v2 "$name" .part)"
    done < changed.list
    run_patcher 1 inst "$url"
    grep -q "symbolic link" err.txt || fail "part link: $(cat err.txt)"
    while read -r name size; do
        [ "$(cat "outside/$name.victim")" = precious ] || fail "a part link of $name was written through"
    done < changed.list
    is_version 1 "part files links"
    # A file the patcher did not make, in its staging folder: kept, and so is the folder.
    install_v1
    mkdir inst/.threadlink-patch
    printf 'mine\n' > inst/.threadlink-patch/notes.txt
    run_patcher 0 inst "$url"
    is_version 2 "a foreign file in staging"
    [ "$(cat inst/.threadlink-patch/notes.txt)" = mine ] || fail "the patcher deleted a file it did not make"
    grep -q "inst/.threadlink-patch: kept: it holds files the patcher did not make" err.txt || fail "foreign file: $(cat err.txt)"
    # A kept archive that is a link (the user's own arrangement): read through, as content.h
    # reads it, by the plan and by the mount check alike; the update goes through.
    install_v1
    kept=$(comm -12 v1.list v2.list | head -n 1 | cut -d' ' -f1)
    mv "inst/$kept" "outside/$kept"
    ln -s "../outside/$kept" "inst/$kept"
    run_patcher 0 inst "$url"
    is_version 2 "a kept archive that is a link"
    [ -L "inst/$kept" ] || fail "the kept link $kept was replaced"
    rm -rf inst/.threadlink-patch
    echo "confinement: a staging link, part links and a foreign file: nothing outside touched"
fi

# ---- FIFOs named like an archive, a staged archive or the staged index: never waited on -------
if section fifo; then
    serve
    staged=$(python3 index.py stage v2 "$big_name" .staged)
    for where in "$big_name" ".threadlink-patch/$staged" .threadlink-patch/archives.json; do
        install_v1
        mkdir -p inst/.threadlink-patch
        mkfifo "inst/$where"
        run_patcher 1 inst "$url"
        grep -q "inst/$where: not a regular file" err.txt || fail "FIFO inst/$where: $(cat err.txt)"
        is_version 1 "a FIFO at $where"
    done
    echo "FIFOs at an archive's, a staged archive's and the staged index's name: refused at once"
fi

# ---- what a server may make the patcher store ---------------------------------------------------
if section huge; then
    # An index announcing a 2^53-byte archive: refused before any download, against free space.
    rm -rf huge; cp -r v2 huge
    python3 index.py size huge "$big_name" 9007199254740991
    root=huge
    serve
    install_v1
    run_patcher 1 inst "$url"
    grep -q "the update needs 90071992[0-9]* bytes in inst/.threadlink-patch, its file system has [0-9]* bytes free" err.txt || fail "2^53 bytes: $(cat err.txt)"
    [ -z "$(archive_gets)" ] || fail "an archive was fetched for a 2^53-byte index: $(archive_gets)"
    no_staging "a 2^53-byte index"
    is_version 1 "a 2^53-byte index"
    # ... and against the configured maximum.
    root=v2
    serve
    install_v1
    run_patcher 1 --max-download 1000 inst "$url"
    grep -q "the update needs $changed_bytes bytes, more than --max-download 1000" err.txt || fail "--max-download: $(cat err.txt)"
    [ -z "$(archive_gets)" ] || fail "an archive was fetched past --max-download"
    no_staging "--max-download"
    # A server sending 64 MiB more than the index says: each transfer stopped once past it, the
    # staging removed when the patcher gives up.
    serve --extra "$big_name=67108864"
    install_v1
    run_patcher 1 inst "$url"
    grep -q "$big_name: longer than the $big_size bytes the index says" err.txt || fail "extra bytes: $(cat err.txt)"
    wait_for_gets "$big_name" 5
    archive_gets | awk -v n="$big_name" -v most=$((big_size + 16777216)) '$1 == n && $3 > most {exit 1}' ||
        fail "the server sent far more than announced: $(archive_gets | grep "^$big_name ")"
    no_staging "a server sending more than announced"
    is_version 1 "a server sending more than announced"
    echo "a 2^53-byte index, --max-download and 64 MiB too many: refused, nothing kept"
fi

# ---- a server that ignores ranges: the file starts over ----------------------------------------
if section norange; then
    serve --cut "$big_name=$half" --no-range
    install_v1
    run_patcher 0 inst "$url"
    is_final_v2 "a server ignoring ranges"
    archive_gets | grep "^$big_name " > big.gets
    [ "$(sed -n 2p big.gets)" = "$big_name 0 $big_size 200" ] || fail "second GET of $big_name: $(sed -n 2p big.gets)"
    grep -q "$big_name: the server ignored the range (HTTP 200): starting again from byte 0" err.txt ||
        fail "no restart said: $(cat err.txt)"
fi

# ---- a server dripping bytes: a minimum rate and a deadline per archive -------------------------
if section drip; then
    serve --drip "$big_name=2"
    install_v1
    start=$(date +%s)
    run_patcher 1 --min-rate 100 --rate-window 2 inst "$url"
    took=$(( $(date +%s) - start ))
    grep -q "$big_name: slower than 100 bytes/s for 2 s" err.txt || fail "drip: $(cat err.txt)"
    grep -q "$big_name: giving up after 5 attempts" err.txt || fail "drip: $(cat err.txt)"
    [ "$took" -lt 60 ] || fail "a 2 bytes/s server held the patcher $took s"
    is_version 1 "a dripping server"
    echo "2 bytes/s: given up after $took s (--min-rate 100 --rate-window 2)"
fi
if section deadline; then
    serve --drip "$big_name=20000"
    install_v1
    start=$(date +%s)
    run_patcher 1 --deadline 3 inst "$url"
    took=$(( $(date +%s) - start ))
    grep -q "$big_name: not complete after --deadline 3 s (have [0-9]* of $big_size bytes)" err.txt || fail "deadline: $(cat err.txt)"
    wait_for_gets "$big_name" 1
    sleep 1 # a retry would have been logged by now
    [ "$(archive_gets | grep -c "^$big_name ")" = 1 ] || fail "retried after the deadline: $(archive_gets)"
    [ "$took" -lt 30 ] || fail "a 3 s deadline took $took s"
    is_version 1 "past the deadline"
    echo "20000 bytes/s for $big_size bytes: given up after $took s (--deadline 3)"
fi

# ---- archives whose XXH64 matches the index but that do not mount, or whose assets do not load --
if section unmountable; then
    for case in toc entry; do
        rm -rf "bad$case"; cp -r v2 "bad$case"
        # toc: the table of contents' checksum (header byte 24); entry: the last byte of the last
        # entry's data
        if [ $case = toc ]; then at=24; else at=-1; fi
        python3 index.py flip "bad$case" "$big_name" $at
        root="bad$case"
        serve
        install_v1
        run_patcher 1 inst "$url"
        if [ $case = toc ]; then
            grep -q "the new version does not mount.*$big_name.*table of contents checksum mismatch" err.txt || fail "bad TOC: $(cat err.txt)"
        else
            grep -q "the new version does not load: [0-9]* of [0-9]* assets" err.txt || fail "bad entry: $(cat err.txt)"
        fi
        is_version 1 "a downloaded archive with a bad $case"
        no_staging "a new version that does not mount ($case)"
    done
    root=v2
    echo "archives that match their XXH64 but do not mount or load: refused before the switch"
fi

# ---- a 255-byte archive name (the longest a file name may be) -----------------------------------
if section longname; then
    rm -rf long; cp -r v2 long
    long_name=Main.$(printf '%0245d' 0 | tr 0 L).tlpk
    python3 index.py rename long "$big_name" "$long_name"
    root=long
    serve
    install_v1
    run_patcher 0 inst "$url"
    is_final_of long "a 255-byte archive name"
    root=v2
    echo "a 255-byte archive name: installed"
fi

# ---- redirects are refused, and said so ----------------------------------------------------------
if section redirect; then
    serve --redirect "archives.json=/elsewhere/archives.json"
    install_v1
    run_patcher 1 inst "$url"
    grep -q "archives.json: the server redirected (HTTP 302) to /elsewhere/archives.json: the patcher follows no redirect" err.txt ||
        fail "redirected index: $(cat err.txt)"
    no_staging "a redirected index"
    serve --redirect "$big_name=/elsewhere/$big_name"
    install_v1
    run_patcher 1 inst "$url"
    grep -q "$big_name: the server redirected (HTTP 302) to /elsewhere/$big_name: the patcher follows no redirect" err.txt ||
        fail "redirected archive: $(cat err.txt)"
    [ "$(archive_gets | grep -c "^$big_name ")" = 1 ] || fail "a redirect was retried: $(archive_gets)"
    no_staging "a redirected archive"
    is_version 1 "a redirected archive"
fi

# ---- a body that ends early without an error: said, then resumed --------------------------------
if section short; then
    serve --short "$big_name=$half"
    install_v1
    run_patcher 0 inst "$url"
    is_final_v2 "a short body"
    grep -q "$big_name: the transfer ended after $half of $big_size bytes" err.txt || fail "short body: $(cat err.txt)"
    [ "$(archive_gets | grep "^$big_name " | sed -n 2p)" = "$big_name $half $((big_size - half)) 206" ] ||
        fail "not resumed after a short body: $(archive_gets)"
fi

# ---- the disk fills midway (a small tmpfs in a private mount namespace: unshare -rm) ------------
if section diskfull; then
    stop_server
    room=$(( $(du -sk v1 | cut -f1) + 4096 ))
    mkdir -p full
    cat > full.sh <<SH
set -u
mount -t tmpfs -o size=${room}k tmpfs full || exit 77
cp -r v1 full/inst
python3 "$server_py" v2 port log --fill full/filler &
pid=\$!
while [ ! -s port ]; do sleep 0.1; done
timeout 120 "$patcher" full/inst "http://127.0.0.1:\$(cat port)" > out.txt 2> err.txt
echo \$? > rc.txt
kill \$pid; wait \$pid 2>/dev/null
ls -A full/inst/.threadlink-patch > staging.txt 2>&1 || echo none > staging.txt
cmp -s full/inst/archives.json v1/archives.json && echo v1 > index.txt
"$patcher" --verify full/inst > verify.txt 2>&1
SH
    rm -f port log rc.txt
    set +e; unshare -rm sh full.sh; urc=$?; set -e
    if [ "$urc" = 77 ] || [ ! -s rc.txt ]; then
        echo "diskfull: skipped (no private mount namespace with a tmpfs here: unshare -rm)"
    else
        [ "$(cat rc.txt)" = 1 ] || { cat err.txt >&2; fail "full disk: exit $(cat rc.txt)"; }
        grep -q "No space left on device" err.txt || fail "full disk, no cause: $(cat err.txt)"
        ! grep -q -e "attempt 2" -e "giving up after" err.txt || fail "a full disk was retried: $(cat err.txt)"
        [ "$(cat staging.txt)" = none ] || fail "staging left on a full disk: $(cat staging.txt)"
        [ "$(cat index.txt)" = v1 ] && grep -q ': loadable$' verify.txt || fail "full disk: not version 1: $(cat verify.txt)"
        echo "a disk full midway: said at once, nothing retried, staging removed, version 1 loadable"
    fi
fi
# ---- two patchers on one folder take turns ------------------------------------------------------
# A launcher's automatic update and a manual one: the second waits for the first's lock on the
# folder, then plans against what the first left (up to date). First with the lock held from
# outside (flock(1), deterministic), then two real runs at once, three times.
if section concurrent && command -v flock >/dev/null 2>&1; then
    serve
    install_v1
    flock inst sleep 2 &
    holder=$!
    sleep 0.3
    run_patcher 0 inst "$url"
    wait $holder
    grep -q "another patcher is updating inst: waiting for it" err.txt || fail "the wait is not said: $(cat err.txt)"
    is_final_v2 "after waiting for the lock"
    for round in 1 2 3; do
        install_v1
        set +e
        timeout 120 "$patcher" inst "$url" > out1.txt 2> err1.txt & first=$!
        timeout 120 "$patcher" inst "$url" > out2.txt 2> err2.txt; rc2=$?
        wait $first; rc1=$?
        set -e
        [ "$rc1$rc2" = 00 ] || { cat err1.txt err2.txt >&2; fail "two patchers at once (round $round): exit $rc1 and $rc2"; }
        is_final_v2 "two patchers at once, round $round"
    done
    echo "two patchers on one folder: each waited its turn, both exit 0, version 2 loadable"
fi
stop_server
echo "patch over HTTP ok in $(( $(date +%s) - began )) s"
