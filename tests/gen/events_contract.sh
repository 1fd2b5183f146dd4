#!/bin/sh
# The generated event API is the contract events.h specifies: threadlink-gen, given the sample's
# project, emits exactly the event section of tests/events/generated_events_sample.h; the events tests
# and the compile-fail proofs pass against the generated header in place of the hand-written one.
#   events_contract.sh SOURCE_ROOT THREADLINK_GEN
set -eu
root=$(cd "$1" && pwd)
gen=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work"
mkdir injectors
cat > threadlink.json <<'JSON'
{ "domains": [ { "name": "Iris.Events", "output": "generated_events_sample.h", "kind": "ordinal",
                 "includes": ["sample_types.h"] } ] }
JSON
printf 'OnUpdate(float)\nOnSceneLoaded(const  scene_load*)\nOnRemovedLater()\nOnInteract() -> bool\n' > injectors/Iris.Events.User.txt
"$gen" generate --quiet
printf 'OnUpdate(float)\nOnSceneLoaded(const  scene_load*)\nOnInteract() -> bool\n' > injectors/Iris.Events.User.txt
"$gen" generate --quiet
header=generated/generated_events_sample.h

section() { sed -n '/^\/\* OnUpdate(float) \*\//,/^static inline tl_events_result iris_events_init/p' "$1"; sed -n '/^static inline tl_events_result iris_events_init/,/^}/p' "$1" | tail -n +2; }
section "$root/tests/events/generated_events_sample.h" > expected
section "$header" > actual
[ -s expected ] || fail "the sample has no event section"
diff -u expected actual || fail "the generated event section differs from the contract sample"
grep -q '^#include <threadlink/events.h>$' "$header" || fail "the header does not include threadlink/events.h"
grep -q '^#define IRIS_EVENTS_SPAN 4$' "$header" || fail "IRIS_EVENTS_SPAN is not 4"

# The runtime's own behaviour tests, compiled against the generated header.
cp "$root/tests/events/sample_types.h" generated/
for cc in gcc clang; do
  command -v "$cc" >/dev/null 2>&1 || continue
  "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -Igenerated -I"$root/runtime" "$root/tests/events/test_events.c" \
    $(pkg-config --cflags --libs cmocka) -o test_events_generated || fail "test_events.c does not compile against the generated header ($cc)"
  ./test_events_generated > events.log 2>&1 || { cat events.log; fail "the events tests fail against the generated header ($cc)"; }
done
# And a listener of the wrong signature still does not compile.
sh "$root/tests/events/compile_fail/run_compile_fail.sh" "$root/runtime" "$work/generated" "$root"/tests/events/compile_fail/*.c \
  || fail "compile-fail proofs against the generated header"
echo "event contract: generated header matches the sample, iris tests and compile-fail proofs pass"
