#!/bin/sh
# A generate killed (SIGKILL) at a random moment leaves temporary files (.<output>.XXXXXX) beside
# its outputs. The next generate must remove every one of them and say so, and check must then
# pass. Bounded: 100 kills of a ~25 ms run, ~20 s in all.
#   killed_run.sh THREADLINK_GEN
set -u
gen=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
tries=100
failed=0
leftover_tries=0

printf '{\n  "domains": [\n    { "name": "Big.Ids", "output": "big/big_ids.h" }\n  ]\n}\n' >threadlink.json
mkdir injectors
seq -f 'Entry%g' 1 20000 >injectors/Big.Ids.User.txt
"$gen" generate --quiet || { echo "FAIL: the first generate failed"; exit 1; }

temporaries() { find generated -name '.*.[A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9][A-Za-z0-9]' | sort; }

# How long one run takes here: the kills land anywhere from its start to its end. The fastest of
# three: one run slowed by a loaded machine spread the kills past the end of the others, and none
# landed mid-write (100 kills within 315 ms, none left a file).
run_us=
for w in 1 2 3; do
  start=$(date +%s%N)
  echo "Warmup$w" >>injectors/Big.Ids.User.txt
  "$gen" generate --quiet
  us=$((($(date +%s%N) - start) / 1000))
  [ -z "$run_us" ] || [ "$us" -lt "$run_us" ] && run_us=$us
done
delays=$(awk -v n=$tries -v max="$run_us" 'BEGIN { srand(26); for (i = 0; i < n; i++) printf "%.6f\n", rand() * max / 1e6 }')

i=0
for delay in $delays; do
  i=$((i + 1))
  echo "Added$i" >>injectors/Big.Ids.User.txt # every run has something to write
  "$gen" generate --quiet 2>/dev/null &
  pid=$!
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  left=$(temporaries)
  [ -n "$left" ] && leftover_tries=$((leftover_tries + 1))
  # As found by a run some time later: a temporary written in the last 10 s may be a live run's.
  for f in $left; do touch -m -d '1 minute ago' "$f"; done
  "$gen" generate --quiet 2>err
  status=$?
  if [ $status != 0 ] || [ -n "$(temporaries)" ]; then
    echo "FAIL: try $i: generate after the kill exited $status and left: $(temporaries)"; cat err; failed=$((failed + 1))
  fi
  for f in $left; do
    grep -qF "$f: warning: removed left-over temporary file of a killed run" err ||
      { echo "FAIL: try $i: generate did not say it removed $f"; cat err; failed=$((failed + 1)); }
  done
  "$gen" check --quiet >/dev/null 2>err || { echo "FAIL: try $i: check failed after the clean-up"; cat err; failed=$((failed + 1)); }
done

echo "killed_run: $tries runs killed within ${run_us} us, $leftover_tries left temporary files"
# Without a kill that landed mid-write the test would prove nothing.
[ $leftover_tries -gt 0 ] || { echo "FAIL: no killed run left a temporary file"; failed=$((failed + 1)); }

# A planted left-over: check fails and names it; generate removes it and says so.
echo partial >generated/big/.big_ids.h.Ab3dE9
"$gen" check --quiet >/dev/null 2>err
[ $? = 0 ] || { echo "FAIL: check judged a temporary file written just now (a live run's?)"; cat err; failed=$((failed + 1)); }
touch -m -d '1 minute ago' generated/big/.big_ids.h.Ab3dE9
"$gen" check --quiet >/dev/null 2>err
[ $? = 1 ] || { echo "FAIL: check passed with a left-over"; failed=$((failed + 1)); }
grep -qF "generated/big/.big_ids.h.Ab3dE9: error: left-over temporary file of a killed run" err ||
  { echo "FAIL: check did not name the left-over"; cat err; failed=$((failed + 1)); }
"$gen" generate --quiet 2>err || { echo "FAIL: generate failed with a left-over"; failed=$((failed + 1)); }
grep -qF "generated/big/.big_ids.h.Ab3dE9: warning: removed left-over temporary file of a killed run" err ||
  { echo "FAIL: generate did not say it removed the left-over"; cat err; failed=$((failed + 1)); }
[ ! -e generated/big/.big_ids.h.Ab3dE9 ] || { echo "FAIL: the left-over is still there"; failed=$((failed + 1)); }

[ $failed = 0 ] || { echo "$failed failure(s)"; exit 1; }
