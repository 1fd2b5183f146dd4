#!/bin/sh
# The header-only runtime's unit tests on other processors and on Windows (tests/cross/targets.sh):
# each test is compiled with the target's cross compiler against the cmocka subset in
# tests/cross/shim and run under qemu-user or Wine. Native builds run the same tests with cmocka
# itself (suite 'unit'). And examples/basic (its committed generated headers and the runtime),
# on the little-endian targets, must print exactly what it prints on this machine.
#   cross_units.sh SOURCE_ROOT [CONTENT_FIXTURE_DIR]
# TL_CROSS_ONLY=TRIPLET:RUNNER (environment) runs one target of targets.sh alone.
# The content tests need the directory that tests/content_runtime/make_fixture.sh packs (by the
# generator); without it they are left out.
set -u
root=$1
fixture=${2:-}
work=$(mktemp -d)
trap 'tl_cross_finish "$work"; rm -rf "$work"' EXIT
. "$root/tests/cross/targets.sh"
t=$root/tests
natives=$root/runtime/threadlink/natives/Iris.Events.Native.txt
vault_inc=-I$t/vault/project/generated
example=$root/examples/basic
# name|where|sources and flags|arguments|expected output. where: "all", or "le" for programs
# that include generated vault headers, which bake inline collection values for little-endian
# targets and refuse others. The fuzz targets replay their committed corpus (run arguments are
# globbed). A program with an expected output must print exactly that on standard output.
units="mem|all|$t/mem/test_mem.c $t/mem/xxh_lib.c $t/cross/xxhash_lib.c|
mem-model|all|$t/mem/test_mem_model.c|
mem-layout|all|$t/mem/test_mem_layout.c $root/gen/layout.c $t/cross/xxhash_lib.c -I$root/gen|
mem-debug|all|$t/mem/test_mem_debug.c -DTL_MEM_DEBUG|
rng|all|$t/rng/test_rng.c|
fp-paths-identical|all|$t/fp/test_fp_portable.c $work/corpus_native.o $work/corpus_portable.o|
iris|all|$t/iris/test_iris.c -I$t/iris|
initium|all|$t/initium/test_initium.c -DNATIVES_FILE=\"$natives\"|
scribe|all|$t/scribe/test_scribe.c $t/scribe/filtered.c -I$t/scribe|
vault|le|$t/vault/test_vault.c $vault_inc|
vault-portable-endian|le|$t/vault/test_vault.c $vault_inc -DTL_VAULT_PORTABLE_ENDIAN|
vault-records|le|$t/vault/test_vault_records.c $vault_inc|
vault-evolution|le|$t/vault/test_vault_evolution.c $work/evo_v1.o $work/evo_v2.o|
fuzz-replay-mem-tables|all|$t/fuzz/fuzz_mem_tables.c $t/fuzz/replay_main.c|$t/fuzz/corpus/mem/*
fuzz-replay-vault-read|le|$t/fuzz/fuzz_vault_read.c $t/fuzz/replay_main.c $vault_inc|$t/fuzz/corpus/vault/*
content-runtime-large-file|all|$t/content_runtime/test_content_large_file.c|$work/large_file.tmp
example-basic|le|$example/main.c -I$example/generated||$work/example.expected"
[ -n "$fixture" ] && units="$units
content-runtime-nocodec|all|$t/content_runtime/test_content_nocodec.c|$fixture
content-runtime-model|all|$t/content_runtime/test_content_model.c|$fixture 200000"

# What the bundled example prints on this machine, which every target that runs it must print.
cc -std=gnu11 -O2 -I"$root/runtime" -I"$example/generated" "$example/main.c" -o "$work/example" &&
  "$work/example" >"$work/example.expected" ||
  { echo "FAIL: examples/basic does not build or run on this machine"; exit 1; }

# The cmocka subset itself, natively: two of its three tests must fail.
cc -std=gnu11 -I"$t/cross/shim" "$t/cross/shim_selftest.c" -o "$work/selftest" || exit 1
"$work/selftest" >"$work/log"
if [ $? != 2 ] || ! grep -q '^\[  PASSED  \] 1 test(s)\.$' "$work/log"; then
  echo "FAIL: tests/cross/shim does not report failing tests"; cat "$work/log"; exit 1
fi

for target in ${TL_CROSS_ONLY:-$tl_cross_targets}; do
  tl_cross_ready "$target" "$work" || continue
  case $triplet in s390x-*) endian=be ;; *) endian=le ;; esac
  cc="$tl_cross_cc -std=gnu11 -O2 -Wall -Wextra -I$t/cross/shim -I$root/runtime"
  # Objects that a test links, each built with its own defines and include directories.
  $cc -c -DFP_CORPUS_NAME=fp_corpus_native "$t/fp/fp_corpus.c" -o "$work/corpus_native.o" &&
    $cc -c -DFP_CORPUS_NAME=fp_corpus_portable -DTL_FP_PORTABLE_128 "$t/fp/fp_corpus.c" \
      -o "$work/corpus_portable.o" || echo "FAIL: $triplet: fp_corpus.c does not compile"
  if [ $endian = le ]; then
    $cc -c -I"$t/vault/evolution/v1/generated/vaults" "$t/vault/evo_v1.c" -o "$work/evo_v1.o" &&
      $cc -c -I"$t/vault/evolution/v2/generated/vaults" "$t/vault/evo_v2.c" -o "$work/evo_v2.o" ||
      echo "FAIL: $triplet: evo_v1.c or evo_v2.c does not compile"
  fi
  echo "$units" | while IFS='|' read -r name where args run_args expected; do
    [ "$where" = all ] || [ "$where" = $endian ] || continue
    echo x >>"$work/runs"
    if ! $cc $args -o "$work/unit$tl_cross_exe" -lm 2>"$work/err"; then
      echo "FAIL: $triplet $name does not compile"; cat "$work/err"; echo x >>"$work/failures"; continue
    fi
    if $tl_cross_run "$work/unit$tl_cross_exe" $run_args >"$work/out" 2>"$work/err" &&
      { [ -z "$expected" ] || cmp -s "$work/out" "$expected"; }; then
      summary=$(tail -n 1 "$work/out") # a test's summary: its last line, on either stream
      [ -n "$summary" ] || summary=$(tail -n 1 "$work/err")
      echo "ok:   $triplet $name: $summary"
    else
      echo "FAIL: $triplet $name"; cat "$work/out" "$work/err"
      [ -z "$expected" ] || diff "$expected" "$work/out" | head -n 20
      echo x >>"$work/failures"
    fi
  done
  rm -f "$work"/*.o
done
ran=0
failed=0
[ -f "$work/runs" ] && ran=$(wc -l <"$work/runs")
[ -f "$work/failures" ] && failed=$(wc -l <"$work/failures")
echo "$ran cross builds, $failed failed"
[ "$tl_cross_missing" = 0 ] && [ "$failed" = 0 ] && { [ "$ran" -gt 0 ] || [ "${CI:-}" != true ]; }
