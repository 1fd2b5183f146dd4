#!/bin/sh
# Compile every header under RUNTIME/threadlink on its own (so each includes what it uses) in every
# language mode users build with, then under the strict warning sets below. A header that warns
# anywhere fails here.
#   compile_runtime_headers.sh RUNTIME                  everything
#   compile_runtime_headers.sh RUNTIME HEADER STD       one header in one mode (c99, c11, c2x or
#                                                       c++17), with and without TL_IMPLEMENTATION
#                                                       (c11: and in the usage block's order)
#   compile_runtime_headers.sh RUNTIME --strict         the strict sets
# (Meson runs one test per header and mode, so that a failure names them, and one strict test.)
set -eu
runtime=$1
only_header=${2:-}
only_std=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-Wall -Wextra -Wpedantic -Werror -I$runtime"
failed=0
count=0
# gcc's and g++'s runs compile (-c): some of their warnings come from the middle end, even at -O0
# (-Wuninitialized, -Wstringop-overflow). clang's all come from its front end, so its runs stop
# there (-fsyntax-only: the same warnings, 40% less CPU than compiling), as the strict sets' do.
try() { # compiler std source...: gcc's object is $work/COMPILER.o
  cc=$1; std=$2; shift 2
  if ! command -v "$cc" >/dev/null 2>&1; then return 0; fi
  count=$((count + 1))
  rm -f "$work/$cc.o"
  case $cc in clang*) mode=-fsyntax-only ;; *) mode=-c ;; esac
  if ! "$cc" "-std=$std" $flags $mode "$@" -o "$work/$cc.o" 2>"$work/err"; then
    echo "FAIL: $cc -std=$std $*"; cat "$work/err"; failed=$((failed + 1))
  fi
}
wants() { # std: whether this run compiles that mode
  [ -z "$only_header" ] || [ "$only_std" = "$1" ]
}
# The usage blocks show `#include <threadlink/x.h>`, `#define TL_IMPLEMENTATION`, `#include` again
# (a generated header may have included x.h first). That order must define every function that
# defining TL_IMPLEMENTATION before the first include defines, including those of the headers x.h
# includes; otherwise the program fails to link. usage_order HEADER FIRST_OBJECT: FIRST_OBJECT is
# gcc's C11 object of the header implemented the first way (the header's c11 test compiles it).
usage_order() {
  if ! command -v gcc >/dev/null 2>&1 || ! command -v nm >/dev/null 2>&1; then return 0; fi
  # (the anchor: api.h alone declares nothing, and ISO C wants a declaration in every file)
  anchor='int tl_compile_test_anchor(void);\nint tl_compile_test_anchor(void) { return 0; }\n'
  printf "#include <threadlink/%s>\\n#define TL_IMPLEMENTATION\\n#include <threadlink/%s>\\n$anchor" "$1" "$1" > "$work/again.c"
  count=$((count + 1))
  if [ -f "$2" ] && gcc -std=c11 $flags -c "$work/again.c" -o "$work/again.o" 2>"$work/err"; then
    nm --defined-only -g "$2" | awk '{print $3}' | sort > "$work/first.sym"
    nm --defined-only -g "$work/again.o" | awk '{print $3}' | sort > "$work/again.sym"
    if ! cmp -s "$work/first.sym" "$work/again.sym"; then
      echo "FAIL: $1 included, then TL_IMPLEMENTATION defined and included again, lacks:"
      comm -23 "$work/first.sym" "$work/again.sym"; failed=$((failed + 1))
    fi
  else
    echo "FAIL: $1 in the usage block's order"; cat "$work/err"; failed=$((failed + 1))
  fi
}
for header in "$runtime"/threadlink/*.h; do
  name=$(basename "$header")
  if [ -n "$only_header" ] && [ "$only_header" != "$name" ] && [ "$only_header" != --strict ]; then continue; fi
  for impl in 0 1; do
    src="$work/${name%.h}_$impl"
    { [ "$impl" = 1 ] && echo '#define TL_IMPLEMENTATION'; echo "#include <threadlink/$name>"
      echo 'int tl_compile_test_anchor(void);'; echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "$src.c"
    cp "$src.c" "$src.cpp"
    [ "$only_header" = --strict ] && continue
    for std in c99 c11 c2x; do
      if wants "$std"; then try gcc "$std" "$src.c"; try clang "$std" "$src.c"; fi
      # gcc's C11 object of the header implemented is the first half of the usage-order check.
      if [ "$std$impl" = c111 ] && wants c11; then usage_order "$name" "$work/gcc.o"; fi
    done
    if wants c++17; then try g++ c++17 "$src.cpp"; try clang++ c++17 "$src.cpp"; fi
  done
done
if [ -n "$only_header" ] && [ "$only_header" != --strict ]; then
  echo "$only_header as $only_std: $count compilations, $failed failed"
  [ "$count" -gt 0 ] && [ "$failed" = 0 ]
  exit
fi
# The strict sets game teams build with, -Werror. C: every header alone, with and without
# TL_IMPLEMENTATION (gcc also with -fshort-enums, which -Wtype-limits needs), all together at -O2
# with gcc (its middle-end warnings: -Wnull-dereference), and a file of the program's own that
# expands every macro (usage.c, at -O2 with gcc, so the typed wrappers inline into it). clang warns
# from its front end whatever the optimisation level (-Weverything gives the same warnings at -O0
# and -O2 on all.c and the live files), so its runs stop after it (-fsyntax-only).
# C++: that file, whose macros must be clean under -Wold-style-cast, -Wzero-as-null-pointer-constant,
# -Wuseless-cast and clang++ -Weverything (the headers' own function bodies are silenced there;
# see usage.c); C too under clang -Weverything, the runtime as a system header.
c_strict="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual -Wcast-align
  -Wundef -Wdouble-promotion -Wstrict-prototypes -Wmissing-prototypes -Wmissing-declarations
  -Wredundant-decls -Wswitch-enum -Wswitch-default -Wfloat-equal -Wformat=2 -Wnull-dereference -Wvla
  -Werror -I$runtime"
gcc_strict="$c_strict -Wlogical-op -Wjump-misses-init"
clang_strict="$c_strict -Wcomma"
gxx_strict="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual -Wcast-align
  -Wundef -Wdouble-promotion -Wmissing-declarations -Wredundant-decls -Wswitch-enum -Wswitch-default
  -Wfloat-equal -Wformat=2 -Wnull-dereference -Wlogical-op -Wvla -Wold-style-cast
  -Wzero-as-null-pointer-constant -Wuseless-cast -Wextra-semi -Werror -I$runtime"
# Reserved identifiers are left out: tl__ and TL__ are the documented internal prefix.
clangxx_strict="-Weverything -Wno-padded -Wno-c++98-compat -Wno-c++98-compat-pedantic
  -Wno-reserved-identifier -Wno-reserved-macro-identifier -Werror -I$runtime"
strict() { # compiler std "flags" source [-c]
  cc=$1; std=$2; fl=$3; src=$4; mode=${5:--fsyntax-only}
  if ! command -v "$cc" >/dev/null 2>&1; then return 0; fi
  count=$((count + 1))
  # shellcheck disable=SC2086
  if ! "$cc" "-std=$std" $fl $mode "$src" -o "$work/out.o" 2>"$work/err"; then
    echo "FAIL (strict): $cc -std=$std $mode $src"; cat "$work/err"; failed=$((failed + 1))
  fi
}
for src in "$work"/*_0.c "$work"/*_1.c; do
  strict gcc c11 "$gcc_strict -fshort-enums" "$src"
  strict clang c11 "$clang_strict" "$src"
done
# content.h's development mode (TL_CONTENT_LIVE, content.h's live part): its code exists only with the
# switch, so it is compiled here with it, in every mode, then strict.
for via in content; do
  live="$work/live_$via"
  { echo '#define _XOPEN_SOURCE 700'; echo '#define TL_CONTENT_LIVE'; echo '#define TL_IMPLEMENTATION'
    echo "#include <threadlink/$via.h>"
    echo 'int tl_compile_test_anchor(void);'; echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "$live.c"
  cp "$live.c" "$live.cpp"
  for std in c99 c11 c2x; do try gcc "$std" "$live.c"; try clang "$std" "$live.c"; done
  try g++ c++17 "$live.cpp"; try clang++ c++17 "$live.cpp"
  strict gcc c11 "$gcc_strict -fshort-enums -O2" "$live.c" -c
  strict clang c11 "$clang_strict" "$live.c"
done
# The same with _GNU_SOURCE, where content.h's live part opens source files with openat2 (Linux).
gnu="$work/live_gnu"
{ printf '#ifndef _GNU_SOURCE\n#define _GNU_SOURCE /* g++ defines it already */\n#endif\n'
  echo '#define TL_CONTENT_LIVE'; echo '#define TL_IMPLEMENTATION'
  echo '#include <threadlink/content.h>'
  echo 'int tl_compile_test_anchor(void);'; echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "$gnu.c"
cp "$gnu.c" "$gnu.cpp"
try gcc c11 "$gnu.c"; try clang c11 "$gnu.c"; try g++ c++17 "$gnu.cpp"; try clang++ c++17 "$gnu.cpp"
strict gcc c11 "$gcc_strict -fshort-enums -O2" "$gnu.c" -c
strict clang c11 "$clang_strict" "$gnu.c"
# vault.h's development builds (TL_DEVELOPMENT: live data, which reads image files), as content.h's
# live part: every mode, then strict.
dev="$work/dev_vault"
{ echo '#define TL_DEVELOPMENT'; echo '#define TL_IMPLEMENTATION'; echo '#include <threadlink/vault.h>'
  echo 'int tl_compile_test_anchor(void);'; echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "$dev.c"
cp "$dev.c" "$dev.cpp"
for std in c99 c11 c2x; do try gcc "$std" "$dev.c"; try clang "$std" "$dev.c"; done
try g++ c++17 "$dev.cpp"; try clang++ c++17 "$dev.cpp"
strict gcc c11 "$gcc_strict -fshort-enums -O2" "$dev.c" -c
strict clang c11 "$clang_strict" "$dev.c"
{ echo '#define TL_IMPLEMENTATION'
  for header in "$runtime"/threadlink/*.h; do echo "#include <threadlink/$(basename "$header")>"; done
  echo 'int tl_compile_test_anchor(void);'; echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "$work/all.c"
strict gcc c11 "$gcc_strict -O2" "$work/all.c" -c
strict clang c11 "$clang_strict" "$work/all.c"
# TL_API's other forms (api.h): every function static (unused ones must not warn), and the
# exporting side of a shared library.
for api in "-DTL_STATIC -DTL_MEM_DEBUG" "-DTL_SHARED -DTL_BUILD_SHARED"; do
  strict gcc c11 "$gcc_strict $api" "$work/all.c"
  strict clang c11 "$clang_strict $api" "$work/all.c"
done
cat > "$work/usage.c" <<'USAGE'
/* A program's own file using the runtime's macros (they expand here, so their warnings are the
   program's). As C++, the headers' function bodies are silenced first: they may keep C casts. */
#ifdef __cplusplus
#  if defined(__clang__)
#    pragma clang diagnostic push
#    pragma clang diagnostic ignored "-Weverything"
#  elif defined(__GNUC__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wold-style-cast"
#    pragma GCC diagnostic ignored "-Wuseless-cast"
#    pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#  endif
#endif
#define TL_IMPLEMENTATION
#include <threadlink/threadlink.h>
#ifdef __cplusplus
#  if defined(__clang__)
#    pragma clang diagnostic pop
#  elif defined(__GNUC__)
#    pragma GCC diagnostic pop
#  endif
#  define T_NULL nullptr
#  define T_ASSERT(c, m) static_assert(c, m)
#  define T_INT(x) static_cast<int>(x)
#  define T_ZERO {} /* a desc zeroed as runtime.md's "C and C++" says: = {0} in C, = {} in C++ */
#else
#  define T_NULL NULL
#  define T_ASSERT(c, m) _Static_assert(c, m)
#  define T_INT(x) ((int)(x))
#  define T_ZERO {0}
#endif

typedef struct pt { int32_t x, y; } pt;
TL_INLINE_ARRAY_TYPE(t_array, int32_t)
TL_INLINE_LIST_TYPE(t_list, int32_t)
TL_INLINE_QUEUE_TYPE(t_queue, int64_t)
TL_INLINE_STACK_TYPE(t_stack, uint64_t)
TL_INLINE_HASHSET_TYPE(t_set, uint32_t)
TL_INLINE_DICT_TYPE(t_dict, int32_t, pt)
TL_INLINE_DICT_TYPE(t_dict8, uint64_t, uint64_t)

static uint64_t g_array[TL_LAYOUT_ARRAY_BYTES(4, sizeof(int32_t)) / 8];
static uint64_t g_list[TL_LAYOUT_SEQUENCE_BYTES(4u, sizeof(int32_t)) / 8];
static uint64_t g_queue[TL_LAYOUT_SEQUENCE_BYTES(4, 8u) / 8];
static uint64_t g_stack[TL_LAYOUT_SEQUENCE_BYTES(4, 8) / 8];
static uint64_t g_set[TL_LAYOUT_SET_BYTES(8, sizeof(uint32_t)) / 8];
static uint64_t g_dict[TL_LAYOUT_DICT_BYTES(8, sizeof(int32_t), sizeof(pt)) / 8];
static uint64_t g_dict8[TL_LAYOUT_DICT_BYTES(8u, 8u, 8u) / 8];
static uint64_t g_register[TL_LIFECYCLE_REGISTER_BYTES(4) / 8];
static uint64_t g_linker[TL_LIFECYCLE_LINKER_BYTES(4) / 8];
static uint64_t g_weaver[TL_LIFECYCLE_WEAVER_BYTES(4u) / 8];
T_ASSERT(TL_LAYOUT_DICT_SLOT_BYTES(sizeof(int32_t), sizeof(pt)) == 16, "slot");
T_ASSERT(TL_LAYOUT_TABLE_SLOTS_OFFSET(8) == 24 && TL_LAYOUT_SLOT_VALUE_OFFSET(sizeof(int)) == 8 &&
         TL_LAYOUT_HEADER_BYTES == 8 && TL_LAYOUT_SET_SLOT_BYTES(sizeof(char)) == 8, "layout");

static int collections(void) {
    int bad = 0;
    t_array a = t_array_view(g_array, 4);
    t_list l = t_list_view(g_list, 4);
    t_queue q = t_queue_view(g_queue, 4);
    t_stack s = t_stack_view(g_stack, 4);
    t_set hs = t_set_view(g_set, 8);
    t_dict d = t_dict_view(g_dict, 8);
    t_dict8 d8 = t_dict8_view(g_dict8, 8);
    tl_inline_iter it;
    int32_t k = 0;
    uint32_t e = 0;
    pt *pv = T_NULL, p = { 1, 2 };
    bool added = false;
    int64_t qv = 0;
    uint64_t sv = 0;
    if (!t_array_valid(a) || t_array_capacity(a) != 4 || t_array_length(a) != 4 || !t_array_at(a, 1)) bad++;
    t_array_clear(a);
    if (!t_list_add(l, 3) || !t_list_add_zeroed(l) || t_list_count(l) != 2 || !t_list_at(l, 0)) bad++;
    if (!t_list_remove_at(l, 0)) bad++;
    t_list_clear(l);
    if (!t_queue_enqueue(q, 7) || !t_queue_peek(q) || !t_queue_at(q, 0) || t_queue_count(q) != 1) bad++;
    if (!t_queue_dequeue(q, &qv) || qv != 7) bad++;
    t_queue_clear(q);
    if (!t_stack_push(s, 9) || !t_stack_peek(s) || !t_stack_at(s, 0) || t_stack_count(s) != 1) bad++;
    if (!t_stack_pop(s, &sv) || sv != 9) bad++;
    t_stack_clear(s);
    if (!t_set_add(hs, 5) || t_set_add_ex(hs, 6) != TL_INLINE_OK || !t_set_contains(hs, 5) || t_set_count(hs) != 2) bad++;
    it = t_set_iter(hs);
    while (t_set_next(hs, &it, &e))
        if (e == 6) (void)t_set_iter_remove(hs, &it);
    if (!t_set_remove(hs, 5)) bad++;
    t_set_clear(hs);
    if (!t_dict_try_add(d, 1, p) || t_dict_try_add_ex(d, 2, p) != TL_INLINE_OK || !t_dict_set(d, 3, p)) bad++;
    if (!t_dict_get(d, 1) || !t_dict_contains_key(d, 2) || !t_dict_try_get(d, 3, &p) || t_dict_count(d) != 3) bad++;
    if (!t_dict_get_or_add(d, 4, &added) || !added) bad++;
    it = t_dict_iter(d);
    while (t_dict_next(d, &it, &k, &pv))
        if (k == 4 && pv) (void)t_dict_iter_remove(d, &it);
    if (!t_dict_remove(d, 1)) bad++;
    t_dict_clear(d);
    if (!t_dict8_try_add(d8, 1, 2) || !t_dict8_set(d8, 1, 3) || !t_dict8_get(d8, 1)) bad++;
    return bad;
}

typedef void (*on_int_fn)(void *ctx, int v);
typedef void (*on_void_fn)(void *ctx);
typedef int (*ask_int_fn)(void *ctx, int v);
typedef int (*ask_void_fn)(void *ctx);
static void on_int(void *ctx, int v) { (void)ctx; (void)v; }

static int events(tl_events *reg) {
    int answer = 0;
    bool answered = false;
    tl_events_fn fn = TL_EVENTS_FN(on_int);
    TL_EVENTS_PUBLISH(reg, 0, 1, on_int_fn, 5);
    TL_EVENTS_PUBLISH0(reg, 0, 1, on_void_fn);
    TL_EVENTS_REQUEST(answered, &answer, reg, 0, 1, ask_int_fn, 5);
    TL_EVENTS_REQUEST0(answered, &answer, reg, 0, 1, ask_void_fn);
    return answer + (fn != T_NULL) + answered;
}

typedef struct inventory { int items; } inventory;
extern const tl_lifecycle_subsystem inventory_subsystem;
TL_LIFECYCLE_SINGLETON(inventory_get, inventory, inventory_subsystem)

int tl_compile_test_usage(tl_lifecycle *core, tl_events *reg, tl_content *content);
int tl_compile_test_usage(tl_lifecycle *core, tl_events *reg, tl_content *content) {
    tl_levels_desc levels_desc = T_ZERO; /* its first member a struct: clang++ -Wmissing-braces */
    tl_l10n_desc l10n_desc = T_ZERO;
    inventory *inv = T_NULL;
    const tl_time_events natives = TL_TIME_EVENTS_NATIVE;
    tl_logger logger;
    tl_scope scope = TL_SCOPE_CREATE(tl_content_root(content), "Level", TL_SCOPE_LEVEL);
    tl_fp one = TL_FP_ONE;
    uint32_t tag = TL_VAULT_TAG(TL_VAULT_INLINE_DICT, TL_VAULT_INTEGER, TL_VAULT_FP);
    TL_VAULT_STATIC_ASSERT(tl_compile_test_tag, sizeof(uint32_t) == 4);
    memset(&logger, 0, sizeof logger);
    TL_LOG_INFO(&logger, "Test", "%d", 1);
    TL_LOG_WARNING(&logger, "Test", "%s", "w");
    TL_LOG_ERROR(&logger, "Test", "e");
    (void)sizeof(tl_compile_test_tag);
    (void)g_register;
    (void)g_linker;
    (void)g_weaver;
    (void)levels_desc;
    (void)l10n_desc;
    return collections() + events(reg) + inventory_get(core, &inv) + T_INT(natives.update) +
           T_INT(scope.index) + T_INT(tag) + T_INT(tl_fp_to_raw(one) >> 32);
}
USAGE
cp "$work/usage.c" "$work/usage.cpp"
strict gcc c11 "$gcc_strict -O2" "$work/usage.c" -c
strict clang c11 "$clang_strict" "$work/usage.c"
# clang -Weverything in C, the runtime included as a system header (runtime.md): the macros'
# expansions in the program's file stay clean (-Wused-but-marked-unused was one a wrapper call).
strict clang c11 "-Weverything -Wno-padded -Wno-declaration-after-statement -Werror -isystem $runtime" "$work/usage.c"
strict g++ c++17 "$gxx_strict -O2" "$work/usage.cpp" -c
strict clang++ c++17 "$clangxx_strict" "$work/usage.cpp"

# The development switches are defined or not: defined as 0 (a build system's
# "TL_DEVELOPMENT=$<CONFIG:Debug>" in a release build) would switch development code on in a
# shipped game, so it is refused with its reason; defined empty or as 1 is on.
switch_case() { # header switch value expect(ok|refused)
  count=$((count + 1))
  { [ -n "$3" ] && echo "#define $2 $3"; [ -z "$3" ] && echo "#define $2"
    echo "#include <threadlink/$1>"; echo 'int tl_compile_test_anchor(void);'
    echo 'int tl_compile_test_anchor(void) { return 0; }'; } > "$work/switch.c"
  if gcc -std=c11 $flags -c "$work/switch.c" -o "$work/switch.o" 2>"$work/err"; then got=ok; else got=refused; fi
  if [ "$got" != "$4" ] || { [ "$4" = refused ] && ! grep -q "$2 is defined as 0" "$work/err"; }; then
    echo "FAIL: $1 with $2 defined as '$3': $got, expected $4"; cat "$work/err"; failed=$((failed + 1))
  fi
}
for sw in "vault.h TL_DEVELOPMENT" "content.h TL_CONTENT_LIVE"; do
  set -- $sw
  switch_case "$1" "$2" 0 refused
  switch_case "$1" "$2" "" ok
  switch_case "$1" "$2" 1 ok
done

echo "$count compilations, $failed failed"
[ "$count" -gt 0 ] && [ "$failed" = 0 ]
