/* Identity rules end to end: values, tombstones, ordinals, names, collisions. Each test builds a
 * small project, runs generate, and reads the manifest and header it wrote. The exact header,
 * manifest and summary of such runs are golden cases (tests/gen/golden/identity-*). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen_fixture.h"
#include "core/identity.h"
#include "base/stamp.h"

/* The manifest line of a key, or NULL. */
static char *manifest_line(const char *manifest_path, const char *key)
{
    char *text = fx_read(manifest_path);
    if (!text) return NULL;
    char *needle = xasprintf("{\"key\": \"%s\"", key);
    char *at = strstr(text, needle);
    char *line = NULL;
    if (at) line = xstrndup(at, strcspn(at, "\n") - (at[strcspn(at, "\n") - 1] == ',')); /* without the separator */
    free(needle);
    free(text);
    return line;
}

static void assert_entry(const char *key, const char *expected_line_suffix)
{
    char *line = manifest_line("generated/Test.Ids.manifest.json", key);
    assert_non_null(line);
    char *expected = xasprintf("{\"key\": \"%s\", %s", key, expected_line_suffix);
    assert_string_equal(line, expected);
    free(expected);
    free(line);
}

static void test_identity_golden_values(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n");
    assert_int_equal(fx_generate(f), 0);
    /* Pinned: these values are shipped the moment a user generates; they never change. */
    assert_entry("user.alpha", "\"name\": \"Alpha\", \"scope\": \"User\", \"value\": 4185941620, \"seed_offset\": 0, \"tombstone\": false}");
    assert_entry("user.beta", "\"name\": \"Beta\", \"scope\": \"User\", \"value\": 52497432, \"seed_offset\": 0, \"tombstone\": false}");
    assert_entry("user.gamma", "\"name\": \"Gamma\", \"scope\": \"User\", \"value\": 1815939988, \"seed_offset\": 0, \"tombstone\": false}");
    /* The key format itself: scope and name, ASCII-lowercased, joined by '.'; XXH32 seed 0. */
    assert_int_equal(identity_hash("user.alpha", 10, 0), 4185941620u);
}

static void test_identity_removal_keeps_other_values(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n");
    assert_int_equal(fx_generate(f), 0);
    char *alpha = manifest_line("generated/Test.Ids.manifest.json", "user.alpha");
    char *gamma = manifest_line("generated/Test.Ids.manifest.json", "user.gamma");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nGamma\n");
    assert_int_equal(fx_generate(f), 0);
    char *alpha2 = manifest_line("generated/Test.Ids.manifest.json", "user.alpha");
    char *gamma2 = manifest_line("generated/Test.Ids.manifest.json", "user.gamma");
    assert_string_equal(alpha, alpha2);
    assert_string_equal(gamma, gamma2);
    assert_entry("user.beta", "\"name\": \"Beta\", \"scope\": \"User\", \"value\": 52497432, \"seed_offset\": 0, \"tombstone\": true}");
    free(alpha), free(alpha2), free(gamma), free(gamma2);
}

static void test_identity_reordering_writes_nothing(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n");
    fx_write("injectors/Test.Ids.Module.txt", "Delta\n");
    assert_int_equal(fx_generate(f), 0);
    struct stat before_h, before_m, after_h, after_m;
    stat("generated/test_ids.h", &before_h);
    stat("generated/Test.Ids.manifest.json", &before_m);
    char *snap = fx_snapshot("generated");
    fx_write("injectors/Test.Ids.User.txt", "// reordered\nGamma\n\nAlpha\n   Beta\n");
    f->summary.len = 0;
    gen_options opt = {.command = GEN_GENERATE, .summary = stdout, .banner_without_version = true};
    gen_result r;
    assert_int_equal(gen_run(&opt, &r), 0);
    assert_int_equal(r.changed, 0);
    assert_int_equal(r.outputs, 2);
    stat("generated/test_ids.h", &after_h);
    stat("generated/Test.Ids.manifest.json", &after_m);
    assert_true(before_h.st_mtim.tv_sec == after_h.st_mtim.tv_sec && before_h.st_mtim.tv_nsec == after_h.st_mtim.tv_nsec);
    assert_true(before_m.st_mtim.tv_sec == after_m.st_mtim.tv_sec && before_m.st_mtim.tv_nsec == after_m.st_mtim.tv_nsec);
    char *snap2 = fx_snapshot("generated");
    assert_string_equal(snap, snap2);
    free(snap), free(snap2);
}

/* A file pasted in twice: the first 20 duplicates are warned about one by one, the rest in one line
 * at the first of them not shown (100,000 duplicate lines printed 99,999 warnings). */
static void test_identity_many_duplicates_warned_about_once(void **state)
{
    fixture *f = *state;
    buf text = {0}, expected = {0};
    fx_basic_config(NULL);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < 30; i++) buf_printf(&text, "Entry%d\n", i);
    fx_write("injectors/Test.Ids.User.txt", text.data);
    assert_int_equal(fx_generate(f), 0);
    for (int i = 0; i < 20; i++)
        buf_printf(&expected,
                   "injectors/Test.Ids.User.txt:%d:1: warning: duplicate entry 'Entry%d' ignored: 'Entry%d' is already declared at injectors/Test.Ids.User.txt:%d:1 (names compare case-insensitively)\n",
                   31 + i, i, i, 1 + i);
    buf_puts(&expected, "injectors/Test.Ids.User.txt:51:1: warning: 10 more duplicate entries of Test.Ids ignored from here on (the first 20 are warned about one by one)\n");
    assert_string_equal(f->diags.data, expected.data);
    buf_free(&text);
    buf_free(&expected);
}

/* Thirty entries of an injector replaced by thirty others: twenty likely renames a line each, then
 * one line for the rest (16,000 replaced printed 16,000 lines). */
static void test_identity_likely_renames_shown_up_to_twenty(void **state)
{
    fixture *f = *state;
    buf text = {0};
    fx_basic_config(NULL);
    for (int i = 0; i < 30; i++) buf_printf(&text, "Old%d\n", i);
    fx_write("injectors/Test.Ids.User.txt", text.data);
    assert_int_equal(fx_generate(f), 0);
    text.len = 0;
    for (int i = 0; i < 30; i++) buf_printf(&text, "New%d\n", i);
    fx_write("injectors/Test.Ids.User.txt", text.data);
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    size_t lines = 0;
    for (const char *p = f->summary.data; (p = strstr(p, "likely rename in User")); p++) lines++;
    assert_int_equal(lines, 20);
    assert_non_null(strstr(f->summary.data, "  likely rename in User: 'Old19' -> 'New19' "));
    assert_null(strstr(f->summary.data, "'Old20' -> 'New20'"));
    assert_non_null(strstr(f->summary.data, "  (and 10 more likely renames and rescopes)\n"));
    buf_free(&text);
}

static void test_identity_case_insensitive(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nALPHA\n");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data,
        "injectors/Test.Ids.User.txt:2:1: warning: duplicate entry 'ALPHA' ignored: 'Alpha' is already declared at injectors/Test.Ids.User.txt:1:1 (names compare case-insensitively)\n");
    /* A later respelling is the same entry: same value, the first name kept. */
    fx_write("injectors/Test.Ids.User.txt", "aLpHa\n");
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.alpha", "\"name\": \"Alpha\", \"scope\": \"User\", \"value\": 4185941620, \"seed_offset\": 0, \"tombstone\": false}");
    char *header = fx_read("generated/test_ids.h");
    assert_non_null(strstr(header, "    Test_Ids_Alpha = -109025676\n"));
    free(header);
}

static void test_identity_tombstone_and_revival(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nbeta\n");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.beta", "\"name\": \"Beta\", \"scope\": \"User\", \"value\": 52497432, \"seed_offset\": 0, \"tombstone\": false}");
    assert_string_equal(f->summary.data, "Test.Ids: 0 added, 0 removed (tombstoned), 1 revived\n  1 revived: Beta\n");
}

static void test_identity_ordinal_gaps(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Ev\", \"output\": \"ev.h\", \"kind\": \"ordinal\", \"native\": \"Ev.Native.txt\"}]}");
    fx_write("Ev.Native.txt", "OnBoot\nOnTick(float)\n");
    fx_write("injectors/Ev.User.txt", "OnA\nOnB\n");
    fx_write("injectors/Ev.Zed.txt", "OnZ\n");
    fx_write("injectors/Ev.Mod.txt", "OnM\n");
    assert_int_equal(fx_generate(f), 0);
    char *h = fx_read("generated/ev.h");
    /* Native, then User, then other injectors by name. */
    assert_non_null(strstr(h, "    Ev_OnBoot = 0,\n    Ev_OnTick = 1,\n    Ev_OnA = 2,\n    Ev_OnB = 3,\n    Ev_OnM = 4,\n    Ev_OnZ = 5\n} ev;"));
    free(h);
    /* The rename that retires OnA's index: tests/gen/golden/events-ordinal-rename-retires-index. */
}

/* Ordinal values are issued in order and the manifest keeps its entries so: values that go down
 * along the file were swapped by hand or a bad merge (every dispatch index of a shipped build
 * crossed), and are refused at the entry, nothing written. */
static void test_identity_ordinal_values_out_of_issue_order_are_refused(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Ev\", \"output\": \"ev.h\", \"kind\": \"ordinal\"}]}");
    fx_write("injectors/Ev.User.txt", "OnStart\nOnHit\n");
    assert_int_equal(fx_generate(f), 0);
    char *m = fx_read("generated/Ev.manifest.json");
    char *a = strstr(m, "\"value\": 0"), *b = strstr(m, "\"value\": 1");
    assert_non_null(a);
    assert_non_null(b);
    a[9] = '1', b[9] = '0';
    fx_write("generated/Ev.manifest.json", m);
    free(m);
    f->diags.len = 0;
    fx_expect_failure(f, fx_snapshot("generated"),
                      "generated/Ev.manifest.json:7: error: entry 'user.onhit': value 0 after 1: an ordinal manifest keeps its entries in the "
                      "order their values were issued (the manifest was edited by hand or corrupted)\n"
                      "generated/Ev.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of Ev)\n");
}

/* A domain whose manifest has an entry named None, then reserve_zero turned on: the sentinel
 * would be declared twice (a header that does not compile), so the entry is refused, with the
 * way through. */
static void test_identity_reserve_zero_over_an_entry_named_none(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nNone\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Test.Ids\", \"output\": \"test_ids.h\", \"reserve_zero\": true}]}");
    f->diags.len = 0;
    fx_expect_failure(f, fx_snapshot("generated"),
                      "generated/Test.Ids.manifest.json:7: error: entry 'user.none' is named None, a name this domain reserves (the sentinel "
                      "Test_Ids_None with reserve_zero): rename it first ('NewName <- None', then generate), then turn reserve_zero on\n"
                      "generated/Test.Ids.manifest.json: note: nothing was written: fix or restore the manifest (it is the identity store of "
                      "Test.Ids)\n");
}

/* An event's signature is recorded in its manifest entry, so a change is named in the summary
 * (and `diff` can call it breaking); a manifest from before it was recorded just gains it. */
static void test_identity_event_signature_recorded(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Ev\", \"output\": \"ev.h\", \"kind\": \"ordinal\"}]}");
    fx_write("injectors/Ev.User.txt", "OnHit( int ,float )\nOnQuit\n");
    assert_int_equal(fx_generate(f), 0);
    char *line = manifest_line("generated/Ev.manifest.json", "user.onhit");
    assert_string_equal(line, "{\"key\": \"user.onhit\", \"name\": \"OnHit\", \"scope\": \"User\", \"value\": 0, \"seed_offset\": 0, \"tombstone\": false, \"signature\": \"(int, float)\"}");
    free(line);
    line = manifest_line("generated/Ev.manifest.json", "user.onquit");
    assert_non_null(strstr(line, "\"tombstone\": false, \"signature\": \"()\"}"));
    free(line);

    fx_write("injectors/Ev.User.txt", "OnHit(int, float) -> bool\nOnQuit\n");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->summary.data, "Ev: 0 added, 0 removed, 0 revived\n  signature changed: OnHit from (int, float) to (int, float)->bool\n");

    /* Retired, the event keeps its last signature; revived with another, nothing is reported
     * (no listener was written against the retired one). */
    fx_write("injectors/Ev.User.txt", "OnQuit\n");
    assert_int_equal(fx_generate(f), 0);
    line = manifest_line("generated/Ev.manifest.json", "user.onhit");
    assert_non_null(strstr(line, "\"tombstone\": true, \"signature\": \"(int, float)->bool\"}"));
    free(line);

    /* A manifest written before signatures were recorded. */
    fx_write("generated/Ev.manifest.json",
             "{\"format\": 1, \"domain\": \"Ev\", \"kind\": \"ordinal\", \"entries\": [\n"
             "  {\"key\": \"user.onhit\", \"name\": \"OnHit\", \"scope\": \"User\", \"value\": 0, \"tombstone\": false},\n"
             "  {\"key\": \"user.onquit\", \"name\": \"OnQuit\", \"scope\": \"User\", \"value\": 1}]}\n");
    fx_write("injectors/Ev.User.txt", "OnHit(int)\nOnQuit\n");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_true(f->summary.len == 0 || strstr(f->summary.data, "signature") == NULL);
    line = manifest_line("generated/Ev.manifest.json", "user.onhit");
    assert_non_null(strstr(line, "\"tombstone\": false, \"signature\": \"(int)\"}"));
    free(line);
}

static void test_identity_name_collision_qualifies_newcomer(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.Audio.txt", "Splash\n");
    assert_int_equal(fx_generate(f), 0);
    /* The project's own entry arrives later: the incumbent keeps the plain name. */
    fx_write("injectors/Test.Ids.User.txt", "splash\n");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_entry("audio.splash", "\"name\": \"Splash\", \"scope\": \"Audio\", \"value\": 2200116984, \"seed_offset\": 0, \"tombstone\": false}");
    assert_entry("user.splash", "\"name\": \"User_splash\", \"scope\": \"User\", \"value\": 3856924792, \"seed_offset\": 0, \"tombstone\": false}");
    assert_non_null(strstr(f->summary.data, "  name collision: 'splash' from User (injectors/Test.Ids.User.txt:1:1) is named 'User_splash' ('Splash' has the plain name)\n"));
    /* In one fresh pass, the project's entries come first and win the plain name. */
    fx_remove("generated/Test.Ids.manifest.json");
    fx_remove("generated/test_ids.h");
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.splash", "\"name\": \"splash\", \"scope\": \"User\", \"value\": 3856924792, \"seed_offset\": 0, \"tombstone\": false}");
    assert_entry("audio.splash", "\"name\": \"Audio_Splash\", \"scope\": \"Audio\", \"value\": 2200116984, \"seed_offset\": 0, \"tombstone\": false}");
}

static void test_identity_name_collision_reports_the_name_given(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    /* The qualified name is taken too, so the newcomer gets a number: the summary says which. */
    fx_write("injectors/Test.Ids.User.txt", "Health\nCombat_Health\n");
    fx_write("injectors/Test.Ids.Combat.txt", "Health\n");
    assert_int_equal(fx_generate(f), 0);
    assert_entry("combat.health", "\"name\": \"Combat_Health_2\", \"scope\": \"Combat\", \"value\": 3450583395, \"seed_offset\": 0, \"tombstone\": false}");
}

static void test_identity_hash_collision_rehashed(void **state)
{
    fixture *f = *state;
    /* Found once by a birthday search over "user.k<N>": both keys hash to 413893733 under seed 0. */
    assert_int_equal(identity_hash("user.k71135", 11, 0), 413893733u);
    assert_int_equal(identity_hash("user.k171189", 12, 0), 413893733u);
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "k71135\nk171189\n");
    assert_int_equal(fx_generate(f), 0);
    char *expected = xasprintf("\"name\": \"k171189\", \"scope\": \"User\", \"value\": %u, \"seed_offset\": 1, \"tombstone\": false}",
                               identity_hash("user.k171189", 12, 1));
    assert_entry("user.k71135", "\"name\": \"k71135\", \"scope\": \"User\", \"value\": 413893733, \"seed_offset\": 0, \"tombstone\": false}");
    assert_entry("user.k171189", expected);
    /* Reproducible: the recorded offset is honoured on later runs, and a fresh run agrees. */
    char *snap = fx_snapshot("generated");
    assert_int_equal(fx_generate(f), 0);
    char *snap2 = fx_snapshot("generated");
    assert_string_equal(snap, snap2);
    fx_remove("generated/Test.Ids.manifest.json");
    fx_remove("generated/test_ids.h");
    assert_int_equal(fx_generate(f), 0);
    char *snap3 = fx_snapshot("generated");
    assert_string_equal(snap, snap3);
    free(expected), free(snap), free(snap2), free(snap3);
}

static void test_identity_reserve_zero_rehashes_a_zero_hash(void **state)
{
    fixture *f = *state;
    /* Found once by a search over "user.z<N>" from N = 0: the first key of that family whose
     * XXH32 (seed 0) is 0, the value reserve_zero keeps for the sentinel. */
    assert_int_equal(identity_hash("user.z2092932178", 16, 0), 0u);
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Test.Ids\", \"output\": \"test_ids.h\", \"reserve_zero\": true}]}");
    fx_write("injectors/Test.Ids.User.txt", "z2092932178\n");
    assert_int_equal(fx_generate(f), 0);
    char *expected = xasprintf("\"name\": \"z2092932178\", \"scope\": \"User\", \"value\": %u, \"seed_offset\": 1, \"tombstone\": false}",
                               identity_hash("user.z2092932178", 16, 1));
    assert_entry("user.z2092932178", expected);
    free(expected);
    /* Without reserve_zero, 0 is a value like any other. */
    fx_basic_config(NULL);
    fx_remove("generated/Test.Ids.manifest.json");
    fx_remove("generated/test_ids.h");
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.z2092932178", "\"name\": \"z2092932178\", \"scope\": \"User\", \"value\": 0, \"seed_offset\": 0, \"tombstone\": false}");
}

static void test_identity_hand_edited_output_is_restored(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    assert_int_equal(fx_generate(f), 0);
    char *good = fx_snapshot("generated");
    /* Up to date: a run changes nothing, and check agrees. */
    gen_result r;
    gen_options opt = {.command = GEN_GENERATE, .quiet = true, .banner_without_version = true};
    assert_int_equal(gen_run(&opt, &r), 0);
    assert_int_equal(r.changed, 0);
    opt.command = GEN_CHECK;
    assert_int_equal(gen_run(&opt, &r), 0);
    /* Someone edits the header by hand: check reports it, generate puts it back. */
    char *h = fx_read("generated/test_ids.h");
    h[strlen(h) - 2] = 'X';
    fx_write("generated/test_ids.h", h);
    free(h);
    assert_int_equal(gen_run(&opt, &r), 1);
    assert_int_equal(r.changed, 1);
    opt.command = GEN_GENERATE;
    assert_int_equal(gen_run(&opt, &r), 0);
    assert_int_equal(r.changed, 1);
    char *restored = fx_snapshot("generated");
    assert_string_equal(good, restored);
    /* And a manifest deleted behind the stamp's back is noticed too. */
    fx_remove("generated/Test.Ids.manifest.json");
    assert_int_equal(gen_run(&opt, &r), 0);
    assert_int_equal(r.changed, 1);
    char *again = fx_snapshot("generated");
    assert_string_equal(good, again);
    free(good), free(restored), free(again);
}

/* A stamp names the generator build that wrote it: a rebuilt generator of the same version
 * (whose outputs may differ) does not take the up-to-date path on another build's stamp. */
static void test_identity_stamp_names_generator_build(void **state)
{
    (void)state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    gen_result r;
    gen_options opt = {.command = GEN_GENERATE, .quiet = true, .banner_without_version = true,
                       .generator_build = "build-a"};
    assert_int_equal(gen_run(&opt, &r), 0);
    char *stamp_a = fx_read("generated/" STAMP_FILE);
    char *outputs = fx_snapshot("generated");
    /* The same build: up to date, the stamp stays. */
    assert_int_equal(gen_run(&opt, &r), 0);
    char *again = fx_read("generated/" STAMP_FILE);
    assert_string_equal(stamp_a, again);
    /* Another build: a full pass, which records its own stamp (and, here, the same outputs). */
    opt.generator_build = "build-b";
    assert_int_equal(gen_run(&opt, &r), 0);
    char *stamp_b = fx_read("generated/" STAMP_FILE);
    assert_string_not_equal(stamp_a, stamp_b);
    /* check shares generate's stamp: build b's run is up to date for build b. */
    opt.command = GEN_CHECK;
    assert_int_equal(gen_run(&opt, &r), 0);
    assert_int_equal(r.changed, 0);
    char *after = fx_snapshot("generated");
    assert_string_equal(outputs, after);
    free(stamp_a), free(again), free(stamp_b), free(outputs), free(after);
}

static void test_identity_large_domain_round_trip(void **state)
{
    fixture *f = *state;
    /* 40,000 entries: a manifest of several megabytes, read through the reader's window. */
    fx_basic_config(NULL);
    buf text = {0};
    for (int i = 0; i < 40000; i++) buf_printf(&text, "Entry%dWithALongerName\n", i);
    fx_write("injectors/Test.Ids.User.txt", text.data);
    assert_int_equal(fx_generate(f), 0);
    char *first = fx_snapshot("generated");
    fx_remove("generated/" STAMP_FILE); /* force the full path: parse the big manifest */
    buf_puts(&text, "OneMore\n");
    fx_write("injectors/Test.Ids.User.txt", text.data);
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->summary.data, "Test.Ids: 1 added, 0 removed (tombstoned), 0 revived\n  1 added: OneMore\n");
    char *m = fx_read("generated/Test.Ids.manifest.json");
    assert_non_null(strstr(m, "{\"key\": \"user.entry39999withalongername\", \"name\": \"Entry39999WithALongerName\""));
    free(m);
    free(first);
    buf_free(&text);
}

/* ---- renames ("Elixir <- Potion", issue 48) ---------------------------------------------------- */

#define POTION_VALUE "646096977"
#define POTION_ENTRY "\"issued_key\": \"user.potion\", \"name\": \"Elixir\", \"scope\": \"User\", \"value\": " POTION_VALUE ", \"seed_offset\": 0, \"tombstone\": false, \"renamed_from\": [{\"key\": \"user.potion\", \"name\": \"Potion\"}]}"

static void potion_project(fixture *f)
{
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nPotion\n");
    fx_write("injectors/Test.Ids.Mod.txt", "Omega\n");
    assert_int_equal(fx_generate(f), 0);
    f->summary.len = 0;
}

/* The entry keeps its value under its new key and name; the old name stays in the header as a
 * deprecated alias, and name lookups know both. A second pass changes nothing, with or without
 * the arrow. */
static void test_identity_rename_keeps_value(void **state)
{
    fixture *f = *state;
    potion_project(f);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir <- Potion\n");
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.elixir", POTION_ENTRY);
    char *manifest = fx_read("generated/Test.Ids.manifest.json");
    assert_null(strstr(manifest, "\n    {\"key\": \"user.potion\"")); /* only a record of the renamed entry has it */
    free(manifest);
    assert_string_equal(f->summary.data, "Test.Ids: 0 added, 0 removed (tombstoned), 0 revived, 1 renamed\n"
                                         "  1 renamed (values kept; each old name stays as a deprecated alias): Potion -> Elixir\n");
    char *header = fx_read("generated/test_ids.h");
    assert_non_null(strstr(header, "    Test_Ids_Elixir = " POTION_VALUE ",\n    Test_Ids_Potion TL_DEPRECATED_ENTRY(\"renamed to "
                                   "Test_Ids_Elixir; the old name is kept so code using it still compiles\") = " POTION_VALUE ",\n"));
    assert_non_null(strstr(header, "    X(Test_Ids_Elixir, Elixir) \\\n"));
    assert_null(strstr(header, "X(Test_Ids_Potion"));
    free(header);
    char *before = fx_snapshot("generated");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir\n");
    assert_int_equal(fx_generate(f), 0);
    char *after = fx_snapshot("generated");
    assert_string_equal(before, after);
    assert_string_equal(f->summary.data, "");
    free(before), free(after);
}

/* Renamed again later: every earlier name stays an alias; renaming back to one of them makes it
 * the member again. A move to another injector keeps the member name (no alias). */
static void test_identity_rename_twice_back_and_rescope(void **state)
{
    fixture *f = *state;
    potion_project(f);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir <- Potion\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nTonic <- Elixir\n");
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.tonic", "\"issued_key\": \"user.potion\", \"name\": \"Tonic\", \"scope\": \"User\", \"value\": " POTION_VALUE
                               ", \"seed_offset\": 0, \"tombstone\": false, \"renamed_from\": [{\"key\": \"user.potion\", \"name\": \"Potion\"}, "
                               "{\"key\": \"user.elixir\", \"name\": \"Elixir\"}]}");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir <- Tonic\n");
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.elixir", "\"issued_key\": \"user.potion\", \"name\": \"Elixir\", \"scope\": \"User\", \"value\": " POTION_VALUE
                                ", \"seed_offset\": 0, \"tombstone\": false, \"renamed_from\": [{\"key\": \"user.potion\", \"name\": \"Potion\"}, "
                                "{\"key\": \"user.tonic\", \"name\": \"Tonic\"}]}");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir\nOmega <- Mod.Omega\n");
    fx_write("injectors/Test.Ids.Mod.txt", "");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.omega", "\"issued_key\": \"mod.omega\", \"name\": \"Omega\", \"scope\": \"User\", \"value\": 3084451626, \"seed_offset\": 0, "
                               "\"tombstone\": false, \"renamed_from\": [{\"key\": \"mod.omega\", \"name\": \"Omega\"}]}");
    assert_string_equal(f->summary.data, "Test.Ids: 0 added, 0 removed (tombstoned), 0 revived, 1 renamed\n"
                                         "  1 renamed (values kept; each old name stays as a deprecated alias): Mod.Omega -> Omega\n");
    char *header = fx_read("generated/test_ids.h");
    assert_null(strstr(header, "renamed to Test_Ids_Omega"));
    free(header);
}

/* A removed entry renamed: declared again under its new name, with its value. */
static void test_identity_rename_of_a_tombstone(void **state)
{
    fixture *f = *state;
    potion_project(f);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir <- Potion\n");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_entry("user.elixir", POTION_ENTRY);
    assert_string_equal(f->summary.data, "Test.Ids: 0 added, 0 removed (tombstoned), 0 revived, 1 renamed\n"
                                         "  1 renamed (values kept; each old name stays as a deprecated alias): Potion (removed) -> Elixir\n");
}

/* Every refusal names the line and leaves every output as it was. */
static void expect_refused(fixture *f, const char *user, const char *diagnostics)
{
    fx_write("injectors/Test.Ids.User.txt", user);
    f->diags.len = 0;
    fx_expect_failure(f, fx_snapshot("generated"), diagnostics);
}

/* A rename line in a domain without a manifest (generated/ deleted): the manifest is what is
 * missing, and restoring it is the way back; nothing is written. */
static void test_identity_rename_without_a_manifest_says_restore_it(void **state)
{
    fixture *f = *state;
    potion_project(f);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir <- Potion\n");
    assert_int_equal(system("rm -rf generated"), 0);
    f->diags.len = 0;
    fx_expect_failure(f, fx_snapshot_all(),
                      "injectors/Test.Ids.User.txt:2:11: error: cannot rename 'Potion': Test.Ids has no manifest, so no entry to rename: restore "
                      "Test.Ids.manifest.json from version control (a manifest rebuilt from the injectors forgets renamed and removed entries)\n");
}

/* A name written in another case than its member name is the same entry, and keeps its name:
 * said, with the line, and nothing else changes. */
static void test_identity_case_only_change_is_said(void **state)
{
    fixture *f = *state;
    potion_project(f);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nPOTION\n");
    f->diags.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_non_null(strstr(f->diags.data, "injectors/Test.Ids.User.txt:2:1: warning: 'POTION' is the entry Potion: names compare "
                                          "case-insensitively and its member name is kept; write Potion"));
}

static void test_identity_rename_refusals(void **state)
{
    fixture *f = *state;
    potion_project(f);
    expect_refused(f, "Alpha\nPotion\nZeta <- Nope\n",
                   "injectors/Test.Ids.User.txt:3:9: error: cannot rename 'Nope': Test.Ids has no entry 'Nope' in User, live or removed (an entry of another injector is written Scope.Name)\n");
    expect_refused(f, "Alpha <- Potion\n",
                   "injectors/Test.Ids.User.txt:1:1: error: cannot rename 'Potion' to 'Alpha': Test.Ids already has the entry 'Alpha' (value 4185941620); pick another name, or, "
                   "if this change added 'Alpha' and it has not shipped, restore Test.Ids.manifest.json from the base branch and run generate again\n");
    expect_refused(f, "Alpha\nPotion\nElixir <- Potion\n",
                   "injectors/Test.Ids.User.txt:3:11: error: cannot rename 'Potion': it is still declared at injectors/Test.Ids.User.txt:2:1 (a rename replaces the old line)\n");
    expect_refused(f, "Alpha\nOmega <- Potion\n",
                   "injectors/Test.Ids.User.txt:2:1: error: cannot rename to 'Omega': the member name Omega is taken by 'Omega' (mod.omega, value 3084451626), and renaming would collide with it\n");
    expect_refused(f, "A <- Potion\nB <- Potion\nAlpha\n",
                   "injectors/Test.Ids.User.txt:2:6: error: two renames of one entry: 'Potion' is already renamed at injectors/Test.Ids.User.txt:1:6\n");
    expect_refused(f, "Alpha\nB <- Potion\nB <- Alpha\n",
                   "injectors/Test.Ids.User.txt:3:6: error: two renames to one name: 'B' already takes the value of 'Potion' at injectors/Test.Ids.User.txt:2:1\n");
    expect_refused(f, "Alpha\nTonic <- Elixir\nElixir <- Potion\n",
                   "injectors/Test.Ids.User.txt:3:11: error: a chain of renames in one pass: 'Elixir' is renamed to 'Tonic' and takes the value of 'Potion' (also injectors/Test.Ids.User.txt:2:10); one step per generate pass (an entry renamed twice: 'Tonic <- Potion')\n");
    expect_refused(f, "Alpha\nPOTION <- Potion\n",
                   "injectors/Test.Ids.User.txt:2:11: error: 'POTION' <- 'Potion' is no rename: names compare case-insensitively, so both are the key user.potion (a member name, once assigned, is kept)\n");
    /* After the rename, the old name is the entry's alias: it names nothing new. */
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir <- Potion\n");
    assert_int_equal(fx_generate(f), 0);
    expect_refused(f, "Alpha\nElixir\nPotion\n",
                   "injectors/Test.Ids.User.txt:3:1: error: 'Potion' was renamed to 'Elixir' (value " POTION_VALUE "), and its old key names no other entry: declare Elixir, or rename it back ('Potion <- Elixir')\n");
    expect_refused(f, "Alpha\nTonic <- Potion\n",
                   "injectors/Test.Ids.User.txt:2:10: error: 'Potion' was already renamed to 'Elixir' (value " POTION_VALUE "): rename that one ('New <- Elixir')\n");
    /* In another injector the name is a newcomer's like any taken one: qualified. */
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nElixir\n");
    fx_write("injectors/Test.Ids.Mod.txt", "Omega\nPotion\n");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_non_null(strstr(f->summary.data, "  name collision: 'Potion' from Mod (injectors/Test.Ids.Mod.txt:2:1) is named 'Mod_Potion' ('Potion' has the plain name)\n"));
}

/* A domain spelled in lowercase shares one prefix between its enumerators and its helpers:
 * entries named like a helper (name, from_name) or like the sentinel are qualified by their
 * scope; names of other lengths are never reserved. */
static void test_identity_lowercase_domain_reserves_helper_names(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"game.ids\", \"output\": \"ids.h\"}]}\n");
    fx_write("injectors/game.ids.User.txt", "name\nfrom_name\nnames\nFine\n");
    assert_int_equal(fx_generate(f), 0);
    char *header = fx_read("generated/ids.h");
    assert_non_null(strstr(header, "    game_ids_User_name = "));
    assert_non_null(strstr(header, "    game_ids_User_from_name = "));
    assert_non_null(strstr(header, "    game_ids_names = "));
    assert_non_null(strstr(header, "    game_ids_Fine = "));
    free(header);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
    const struct CMUnitTest tests[] = {
        T(test_identity_golden_values),
        T(test_identity_removal_keeps_other_values),
        T(test_identity_reordering_writes_nothing),
        T(test_identity_case_insensitive),
        T(test_identity_likely_renames_shown_up_to_twenty),
        T(test_identity_many_duplicates_warned_about_once),
        T(test_identity_tombstone_and_revival),
        T(test_identity_ordinal_gaps),
        T(test_identity_event_signature_recorded),
        T(test_identity_name_collision_qualifies_newcomer),
        T(test_identity_name_collision_reports_the_name_given),
        T(test_identity_hash_collision_rehashed),
        T(test_identity_reserve_zero_rehashes_a_zero_hash),
        T(test_identity_ordinal_values_out_of_issue_order_are_refused),
        T(test_identity_reserve_zero_over_an_entry_named_none),
        T(test_identity_hand_edited_output_is_restored),
        T(test_identity_stamp_names_generator_build),
        T(test_identity_large_domain_round_trip),
        T(test_identity_rename_keeps_value),
        T(test_identity_rename_twice_back_and_rescope),
        T(test_identity_rename_of_a_tombstone),
        T(test_identity_rename_refusals),
        T(test_identity_case_only_change_is_said),
        T(test_identity_rename_without_a_manifest_says_restore_it),
        T(test_identity_lowercase_domain_reserves_helper_names),
    };
    return cmocka_run_group_tests_name("gen_identity", tests, NULL, NULL);
}
