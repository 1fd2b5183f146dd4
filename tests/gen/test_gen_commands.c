/* The commands besides generate: check (a diff, never a write) and headers (the build step:
 * the same headers as generate, manifests never written). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gen_fixture.h"
#include "base/stamp.h"
#include "base/udiff.h"

static void test_commands_udiff_format(void **state)
{
    (void)state;
    buf out = {0};
    const char *a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    const char *b = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n";
    udiff(&out, "a/f", a, strlen(a), "b/f", b, strlen(b));
    assert_string_equal(out.data,
        "--- a/f\n+++ b/f\n"
        "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
        "@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n");
    out.len = 0;
    udiff(&out, "a/f", a, strlen(a), "b/f", a, strlen(a));
    assert_int_equal(out.len, 0);
    assert_true(udiff(&out, "/dev/null", "", 0, "b/f", "x\n", 2)); /* the shortest */
    assert_string_equal(out.data, "--- /dev/null\n+++ b/f\n@@ -0,0 +1,1 @@\n+x\n");
    /* Two texts of 20,000 lines with none in common: the search runs out of its budget, and the
     * diff (still correct: every line replaced) says it is not the shortest. */
    buf a2 = {0}, b2 = {0};
    for (int i = 0; i < 20000; i++) buf_printf(&a2, "a%d\n", i), buf_printf(&b2, "b%d\n", i);
    out.len = 0;
    assert_false(udiff(&out, "a/f", a2.data, a2.len, "b/f", b2.data, b2.len));
    assert_non_null(strstr(out.data, "@@ -1,20000 +1,20000 @@\n"));
    buf_free(&a2), buf_free(&b2);
    buf_free(&out);
}

/* Applies a unified diff of `a` (as udiff writes it) and returns the text it gives. */
static char *apply_udiff(const char *a, const char *diff)
{
    buf out = {0};
    const char *ap = a, *d = strchr(strchr(diff, '\n') + 1, '\n') + 1; /* past ---, +++ */
    size_t a_line = 1;
    while (*d) {
        size_t from = 0, len = 0;
        assert_int_equal(sscanf(d, "@@ -%zu,%zu", &from, &len), 2);
        for (; a_line < from || (len == 0 && a_line <= from); a_line++) {
            const char *nl = strchr(ap, '\n');
            buf_put(&out, ap, (size_t)(nl + 1 - ap));
            ap = nl + 1;
        }
        d = strchr(d, '\n') + 1;
        while (*d && *d != '@') {
            const char *nl = strchr(d, '\n');
            if (*d != '+') { /* the line of a it keeps or removes */
                assert_memory_equal(ap, d + 1, (size_t)(nl - d));
                ap = strchr(ap, '\n') + 1, a_line++;
            }
            if (*d != '-') buf_put(&out, d + 1, (size_t)(nl - d));
            d = nl + 1;
        }
    }
    buf_puts(&out, ap);
    return out.data;
}

/* The lines a diff removes or adds. */
static size_t changed_lines(const char *diff)
{
    size_t changed = 0;
    for (const char *l = diff; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        changed += (*l == '+' || *l == '-') && strncmp(l, "---", 3) != 0 && strncmp(l, "+++", 3) != 0;
    return changed;
}

/* A header of thousands of lines whose first line changed and which gained an entry near its end
 * (an injector file added): the diff shows those two places, not the whole file replaced. */
static void test_commands_udiff_large_file_shows_only_the_changes(void **state)
{
    (void)state;
    buf a = {0}, b = {0};
    buf_puts(&a, "// sources: A\n");
    buf_puts(&b, "// sources: A B\n");
    for (int i = 0; i < 40000; i++) {
        if (i == 30000) buf_puts(&b, "    NEW_ENTRY = 7,\n");
        buf_printf(&a, "    ENTRY_%d = %d,\n", i, i);
        buf_printf(&b, "    ENTRY_%d = %d,\n", i, i);
        if (i % 997 == 0) buf_puts(&a, "}\n"), buf_puts(&b, "}\n"); /* lines repeated */
    }
    buf out = {0};
    udiff(&out, "a/h", a.data, a.len, "b/h", b.data, b.len);
    assert_int_equal(changed_lines(out.data), 3); /* the first line removed and added, one entry added */
    char *patched = apply_udiff(a.data, out.data);
    assert_string_equal(patched, b.data);
    free(patched), buf_free(&a), buf_free(&b), buf_free(&out);
}

/* Texts edited at random in many places, with lines repeated (as blank lines and braces are):
 * the diff turns one into the other, with no more changes than were made. */
static void test_commands_udiff_random_edits_apply(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    for (int round = 0; round < 40; round++) {
        buf a = {0}, b = {0};
        int lines = round < 20 ? 300 : 6000, kinds = round % 2 ? 8 : 100000;
        size_t edits = 0; /* lines removed or added */
        for (int i = 0; i < lines; i++) {
            seed = seed * 1103515245u + 12345u;
            int v = (int)((seed >> 8) % (uint32_t)kinds);
            buf_printf(&a, "line %d\n", v);
            uint32_t edit = (seed >> 4) % 50;
            edits += edit == 0 || edit == 1 ? 1 : edit == 2 ? 2 : 0;
            if (edit == 0) continue; /* removed */
            if (edit == 1) buf_printf(&b, "new %d\n", i);
            buf_printf(&b, edit == 2 ? "changed %d\n" : "line %d\n", v);
        }
        buf out = {0};
        udiff(&out, "a", a.data ? a.data : "", a.len, "b", b.data ? b.data : "", b.len);
        assert_in_range(changed_lines(out.data), 1, edits);
        if (out.len) {
            char *patched = apply_udiff(a.data, out.data);
            assert_string_equal(patched, b.data);
            free(patched);
        }
        buf_free(&a), buf_free(&b), buf_free(&out);
    }
}

static void test_commands_check_prints_diff_and_writes_nothing(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    assert_int_equal(fx_generate(f), 0);
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
    char *before = fx_snapshot("generated");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    f->summary.len = 0;
    assert_int_equal(fx_run(f, GEN_CHECK), 1); /* the exact diff: tests/gen/golden/check-prints-diff */
    char *after = fx_snapshot("generated");
    assert_string_equal(before, after);
    assert_false(fx_exists("generated/.test_ids.h.tmp"));
    free(before), free(after);
}

/* headers -o build-out gives byte-identical headers to what generate then writes, whatever the
 * manifest lacks. */
static void assert_headers_match_generate(fixture *f, bool expect_unrecorded)
{
    f->diags.len = 0;
    f->diags.data[0] = 0;
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    assert_int_equal(strstr(f->diags.data, "run threadlink-gen generate") != NULL, expect_unrecorded);
    char *manifest_before = fx_read("generated/Test.Ids.manifest.json");
    char *built = fx_read("build-out/test_ids.h");
    assert_int_equal(fx_generate(f), 0);
    char *generated = fx_read("generated/test_ids.h");
    assert_non_null(built);
    assert_string_equal(built, generated);
    assert_false(fx_exists("build-out/Test.Ids.manifest.json"));
    free(manifest_before), free(built), free(generated);
}

static void test_commands_headers_equal_generate(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    assert_headers_match_generate(f, true); /* no manifest at all yet */
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n");
    assert_headers_match_generate(f, true); /* an addition */
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nGamma\n");
    assert_headers_match_generate(f, true); /* a removal: tombstoned in both */
    fx_write("injectors/Test.Ids.Mod.txt", "gamma\nk71135\nk171189\n");
    assert_headers_match_generate(f, true); /* name and hash collisions */
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nGamma\nBeta\n");
    assert_headers_match_generate(f, true); /* a revival */
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nDelta <- Gamma\nBeta\n");
    assert_headers_match_generate(f, true); /* a rename: the value kept, the old name an alias */
    assert_headers_match_generate(f, false); /* nothing new */
}

static void test_commands_headers_strict_refuses_unrecorded(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n");
    gen_options opt = {.command = GEN_HEADERS, .headers_dir = "build-out", .strict = true, .summary = stdout};
    assert_int_equal(gen_run(&opt, NULL), 1);
    assert_string_equal(f->diags.data,
        "generated/Test.Ids.manifest.json: error: 2 new entries of Test.Ids not recorded in the manifest: run threadlink-gen generate to record 2 new entries\n");
    assert_false(fx_exists("build-out/test_ids.h"));
    /* A new entry named with its injector (another has its name) says so after the warning. */
    fx_write("injectors/Test.Ids.Mod.txt", "alpha\n");
    f->diags.len = 0;
    assert_int_equal(gen_run(&opt, NULL), 1);
    assert_string_equal(f->diags.data,
        "generated/Test.Ids.manifest.json: error: 3 new entries of Test.Ids not recorded in the manifest: run threadlink-gen generate to record 3 new entries\n"
        "generated/Test.Ids.manifest.json: note: name collision: 'alpha' from Mod (injectors/Test.Ids.Mod.txt:1:1) is named 'Mod_alpha' ('Alpha' has the plain name)\n");
    fx_remove("injectors/Test.Ids.Mod.txt");
    /* A removal or a changed signature is as unrecorded as an addition: diff compares manifests. */
    fx_write("threadlink.json", "{\"domains\": [{\"name\": \"Ev\", \"output\": \"ev.h\", \"kind\": \"ordinal\"}]}");
    fx_remove("injectors/Test.Ids.User.txt");
    fx_remove("generated/Test.Ids.manifest.json");
    fx_write("injectors/Ev.User.txt", "OnA(int)\nOnB\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("injectors/Ev.User.txt", "OnA(float)\n");
    f->diags.len = 0;
    assert_int_equal(gen_run(&opt, NULL), 1);
    assert_string_equal(f->diags.data,
        "generated/Ev.manifest.json: error: changes to Ev not recorded in the manifest (0 added, 1 removed, 0 revived, 1 signature changed): run threadlink-gen generate to record them\n");
    /* So is a rename. */
    fx_write("injectors/Ev.User.txt", "OnA(int)\nOnC <- OnB\n");
    f->diags.len = 0;
    assert_int_equal(gen_run(&opt, NULL), 1);
    assert_string_equal(f->diags.data,
        "generated/Ev.manifest.json: error: changes to Ev not recorded in the manifest (0 added, 0 removed, 0 revived, 1 renamed): run threadlink-gen generate to record them\n");
}

/* Outputs a run no longer produces go (a stale header would shadow the new one on the include
 * path), unless changed by hand since; manifests stay, and one of an undeclared domain is named. */
static void test_commands_stale_outputs_removed(void **state)
{
    fixture *f = *state;
    fx_basic_config("{ \"name\": \"Test.More\", \"output\": \"more.h\" }");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    fx_write("injectors/Test.More.User.txt", "Beta\n");
    assert_int_equal(fx_generate(f), 0);
    gen_options headers = {.command = GEN_HEADERS, .headers_dir = "build-out", .summary = stdout};
    assert_int_equal(gen_run(&headers, NULL), 0);
    assert_true(fx_exists("build-out/test_ids.h") && fx_exists("build-out/more.h"));

    /* An output moved: the old header goes, from the generated directory and the build's. */
    fx_basic_config("{ \"name\": \"Test.More\", \"output\": \"more/more.h\" }");
    char *manifest = fx_read("generated/Test.More.manifest.json");
    fx_write("generated/more/Test.More.manifest.json", manifest);
    free(manifest);
    fx_remove("generated/Test.More.manifest.json");
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->summary.data, "removed generated/more.h: no longer generated\n");
    assert_true(fx_exists("generated/more/more.h"));
    assert_false(fx_exists("generated/more.h"));
    assert_int_equal(gen_run(&headers, NULL), 0);
    assert_false(fx_exists("build-out/more.h"));
    assert_true(fx_exists("build-out/more/more.h"));

    /* A domain removed: its header goes unless edited since, its manifest stays and is named. */
    fx_write("build-out/more/more.h", "/* edited by hand */\n");
    fx_remove("injectors/Test.More.User.txt");
    fx_basic_config(NULL);
    f->diags.len = 0;
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->summary.data, "removed generated/more/more.h: no longer generated\n");
    assert_true(fx_exists("generated/more/Test.More.manifest.json"));
    assert_string_equal(f->diags.data,
        "generated/more/Test.More.manifest.json: warning: no domain 'Test.More' is declared: to retire the domain, delete this manifest (diff then reports the domain as removed); else declare it again\n");
    assert_int_equal(gen_run(&headers, NULL), 0);
    assert_true(fx_exists("build-out/more/more.h"));
    assert_true(fx_exists("build-out/test_ids.h"));
}

/* `text` with every LF made CRLF, as Git for Windows checks text files out (caller frees). */
static char *with_crlf(const char *text)
{
    buf b = {0};
    for (const char *p = text; *p; p++) {
        if (*p == '\n') buf_putc(&b, '\r');
        buf_putc(&b, *p);
    }
    buf_cstr(&b);
    return b.data;
}

/* Outputs checked out with CRLF line endings are up to date: check passes, and generate keeps
 * them (and records them in its stamp, so the next run has nothing to do). An output that differs
 * in more than its line endings is out of date, and a change rewrites it. */
static void test_commands_crlf_checkout_is_up_to_date(void **state)
{
    fixture *f = *state;
    const char *outputs[] = {"generated/test_ids.h", "generated/Test.Ids.manifest.json"};
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\r\nBeta\r\n");
    assert_int_equal(fx_generate(f), 0);
    char *crlf[2];
    for (int i = 0; i < 2; i++) {
        char *lf = fx_read(outputs[i]);
        crlf[i] = with_crlf(lf);
        fx_write(outputs[i], crlf[i]);
        free(lf);
    }
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_int_equal(f->summary.len, 0);
    for (int i = 0; i < 2; i++) {
        char *now = fx_read(outputs[i]);
        assert_string_equal(now, crlf[i]);
        free(now);
    }
    stamp st;
    assert_true(stamp_read("generated/" STAMP_FILE, &st));
    assert_true(stamp_outputs_intact(&st));
    stamp_free(&st);

    char *edited = xasprintf("%s/* edited */\r\n", crlf[0]);
    fx_write(outputs[0], edited);
    assert_int_equal(fx_run(f, GEN_CHECK), 1);
    free(edited);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n");
    assert_int_equal(fx_generate(f), 0);
    char *header = fx_read(outputs[0]);
    assert_null(strchr(header, '\r'));
    assert_non_null(strstr(header, "Test_Ids_Gamma"));
    free(header), free(crlf[0]), free(crlf[1]);
}

/* The stamp is a cache: a run that cannot write it (a read-only generated directory in a fresh
 * clone, where the stamp is git-ignored; here a directory in its place) still succeeds. */
static void test_commands_unwritable_stamp_is_a_warning(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    fx_write("generated/" STAMP_FILE "/x", "");
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data, "generated/" STAMP_FILE ": warning: cannot record the stamp: the next run will regenerate in full\n");
    assert_true(fx_exists("generated/test_ids.h"));
}

/* fs_respell, what stale-output removal calls before deleting an output whose path changed in
 * case: on a case-insensitive file system both spellings reach the file just written, and the
 * directory lists one of them. Here (case-sensitive) the directory lists both: two files, or two
 * links to one, and the stale one may go. (The case-insensitive side was checked on FAT.) */
static void test_commands_respell_only_one_entry(void **state)
{
    (void)state;
    fx_write("generated/sub/more.h", "kept\n");
    assert_int_equal(link("generated/sub/more.h", "generated/sub/More.h"), 0);
    assert_false(fs_respell("generated/sub/more.h", "generated/sub/More.h"));
    fx_write("generated/Sub/more.h", "other\n");
    assert_false(fs_respell("generated/sub/more.h", "generated/Sub/more.h"));
    assert_false(fs_respell("generated/sub/missing.h", "generated/sub/MISSING.h"));
    assert_false(fs_respell("generated/sub/more.h", "generated/sub/mores"));
    /* Only the wanted spelling there: nothing to do, and nothing to delete. */
    assert_true(fs_respell("generated/SUB/more.h", "generated/Sub/more.h"));
    /* fs_respell_at, what pack's clean-up calls, one entry of a folder it holds open: the same answers. */
    int fd = open("generated/sub", O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_false(fs_respell_at(fd, "more.h", "More.h"));
    assert_false(fs_respell_at(fd, "missing.h", "MISSING.h"));
    assert_false(fs_respell_at(fd, "more.h", "mores"));
    assert_false(fs_respell_at(fd, "../sub/more.h", "../Sub/more.h"));
    close(fd);
    fd = open("generated/Sub", O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    assert_true(fs_respell_at(fd, "MORE.h", "more.h")); /* only the wanted spelling there */
    close(fd);
    char *listing = fx_snapshot("generated");
    assert_string_equal(listing, "generated/Sub/more.h\nother\n\ngenerated/sub/More.h\nkept\n\ngenerated/sub/more.h\nkept\n\n");
    free(listing);
}

/* Temporary files a killed run left beside its outputs (named for one of them: .<output>.XXXXXX,
 * six letters or digits): check reports each as an error, so that CI fails before they are
 * committed; generate and headers remove them and say so, on the fast path too (the killed run
 * left the stamp as it was). Names of another pattern, a temporary file a live run holds (locked)
 * and one written in the last seconds (a live run's between its creation and its lock) stay. */
static void written_a_minute_ago(const char *path)
{
    struct timespec times[2];
    clock_gettime(CLOCK_REALTIME, &times[0]);
    times[0].tv_sec -= 60;
    times[1] = times[0];
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

static void test_commands_leftover_temporaries_removed(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    assert_int_equal(fx_generate(f), 0);
    fx_write("generated/.test_ids.h.Ab3dE9", "partial");
    fx_write("generated/.Test.Ids.manifest.json.zzzzzz", "partial");
    fx_write("generated/." STAMP_FILE ".Sx4Sx4", "partial"); /* the stamp's */
    fx_write("generated/.test_ids.h.Ab3dE", "not ours: five letters");
    fx_write("generated/.other.h.Ab3dE9", "not ours: no such output");
    fx_write("generated/.test_ids.h.held01", "a live run's");
    written_a_minute_ago("generated/.test_ids.h.Ab3dE9");
    written_a_minute_ago("generated/.Test.Ids.manifest.json.zzzzzz");
    written_a_minute_ago("generated/." STAMP_FILE ".Sx4Sx4");
    written_a_minute_ago("generated/.test_ids.h.held01");
    fx_write("generated/.test_ids.h.young1", "a live run's, not locked yet");
    int held = open("generated/.test_ids.h.held01", O_RDONLY);
    assert_true(held >= 0);
    assert_int_equal(flock(held, LOCK_EX), 0);
    f->diags.len = 0;
    assert_int_equal(fx_run(f, GEN_CHECK), 1);
    assert_string_equal(f->diags.data,
        "generated/..threadlink-gen.stamp.Sx4Sx4: error: left-over temporary file of a killed run: run threadlink-gen generate to remove it; do not commit it\n"
        "generated/.Test.Ids.manifest.json.zzzzzz: error: left-over temporary file of a killed run: run threadlink-gen generate to remove it; do not commit it\n"
        "generated/.test_ids.h.Ab3dE9: error: left-over temporary file of a killed run: run threadlink-gen generate to remove it; do not commit it\n");
    assert_true(fx_exists("generated/.test_ids.h.Ab3dE9"));

    f->diags.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_string_equal(f->diags.data,
        "generated/..threadlink-gen.stamp.Sx4Sx4: warning: removed left-over temporary file of a killed run\n"
        "generated/.Test.Ids.manifest.json.zzzzzz: warning: removed left-over temporary file of a killed run\n"
        "generated/.test_ids.h.Ab3dE9: warning: removed left-over temporary file of a killed run\n");
    assert_false(fx_exists("generated/.test_ids.h.Ab3dE9"));
    assert_false(fx_exists("generated/.Test.Ids.manifest.json.zzzzzz"));
    assert_true(fx_exists("generated/.test_ids.h.Ab3dE") && fx_exists("generated/.other.h.Ab3dE9"));
    assert_true(fx_exists("generated/.test_ids.h.held01") && fx_exists("generated/.test_ids.h.young1"));
    close(held);
    fx_remove("generated/.test_ids.h.held01");
    fx_remove("generated/.test_ids.h.young1");
    f->diags.len = 0;
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
    assert_int_equal(f->diags.len, 0);

    /* headers -o DIR: its own outputs' directory. */
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    fx_write("build-out/.test_ids.h.Q1w2E3", "partial");
    written_a_minute_ago("build-out/.test_ids.h.Q1w2E3");
    f->diags.len = 0;
    assert_int_equal(fx_run(f, GEN_HEADERS), 0);
    assert_string_equal(f->diags.data, "build-out/.test_ids.h.Q1w2E3: warning: removed left-over temporary file of a killed run\n");
    assert_false(fx_exists("build-out/.test_ids.h.Q1w2E3"));
}

/* A stale output is deleted through its directory's descriptor: when its folder has become a
 * link to a folder outside, the file there (byte for byte what was written) stays. */
static void test_commands_stale_output_not_deleted_through_a_link(void **state)
{
    fixture *f = *state;
    fx_basic_config("{ \"name\": \"Test.More\", \"output\": \"sub/more.h\" }");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\n");
    fx_write("injectors/Test.More.User.txt", "Beta\n");
    assert_int_equal(fx_generate(f), 0);
    fx_remove("injectors/Test.More.User.txt");
    fx_basic_config(NULL);
    assert_int_equal(rename("generated/sub", "outside"), 0);
    assert_int_equal(symlink("../outside", "generated/sub"), 0);
    f->summary.len = 0;
    assert_int_equal(fx_generate(f), 0);
    assert_true(fx_exists("outside/more.h"));
    assert_null(strstr(buf_cstr(&f->summary), "removed"));
}

/* ---- Only asset bytes changed ------------------------------------------------------------ */

/* An identity domain and a content profile (its catalog header lists each asset's size and hash). */
static void contents_project(void)
{
    fx_write("threadlink.json", "{\n  \"domains\": [ { \"name\": \"Test.Ids\", \"output\": \"test_ids.h\" } ],\n"
                                "  \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\" } ]\n}\n");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    fx_write("assets/sword.png", "sword bytes");
    fx_write("assets/shield.png", "shield bytes");
}

/* generate; the outputs it emitted (the stamp vouched for the others). */
static size_t generate_emitting(void)
{
    gen_options opt = {.command = GEN_GENERATE, .quiet = true, .banner_without_version = true};
    gen_result r = {0};
    assert_int_equal(gen_run(&opt, &r), 0);
    return r.emitted;
}

/* What a generate from nothing writes for the project as it is now (the stamp and the stale
 * leftovers of the fast path would show here). */
static char *fresh_generate(void)
{
    assert_int_equal(system("rm -rf generated-kept && cp -a generated generated-kept && rm -f generated/*.h generated/" STAMP_FILE), 0);
    assert_true(generate_emitting() > 1);
    char *fresh = fx_snapshot("generated");
    assert_int_equal(system("rm -rf generated && mv generated-kept generated"), 0);
    return fresh;
}

/* An asset edited in place (same name, new bytes): generate emits the catalog header alone, and
 * everything it leaves, the stamp included, is what a generate from nothing writes. */
static void test_commands_only_asset_bytes_changed(void **state)
{
    fixture *f = *state;
    contents_project();
    assert_true(generate_emitting() > 1);
    fx_write("assets/sword.png", "sword bytes, sharper");
    assert_int_equal(generate_emitting(), 1);
    char *now = fx_snapshot("generated"), *fresh = fresh_generate();
    assert_string_equal(now, fresh);
    free(now), free(fresh);
    assert_int_equal(generate_emitting(), 0); /* and the stamp vouches for all of it */
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
}

/* Anything else changed with the bytes goes the whole way: a new asset (a new manifest entry), an
 * injector edit, a header edited by hand (not what the stamp recorded). */
static void test_commands_asset_bytes_and_more_changed(void **state)
{
    (void)state;
    contents_project();
    generate_emitting();
    assert_int_equal(generate_emitting(), 0);
    fx_write("assets/sword.png", "sword v2");
    fx_write("assets/bow.png", "bow bytes");
    assert_true(generate_emitting() > 1);
    char *manifest = fx_read("generated/Content.Main.manifest.json");
    assert_non_null(strstr(manifest, "main.bow"));
    free(manifest);
    fx_write("assets/sword.png", "sword v3");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\nGamma\n");
    assert_true(generate_emitting() > 1);
    char *header = fx_read("generated/test_ids.h");
    assert_non_null(strstr(header, "Test_Ids_Gamma"));
    char *edited = xasprintf("%s/* edited */\n", header);
    fx_write("generated/test_ids.h", edited);
    fx_write("assets/sword.png", "sword v4");
    assert_true(generate_emitting() > 1);
    char *restored = fx_read("generated/test_ids.h");
    assert_string_equal(restored, header);
    free(header), free(edited), free(restored);
}

/* ---- The quick stamp ---------------------------------------------------------------------- */

/* Past the clock tick of the last write: files written before a run began are settled for it. */
static void settle(void) { usleep(30 * 1000); }

/* generate as a build runs it; whether the quick stamp vouched for everything. */
static bool generate_quick(void)
{
    gen_options opt = {.command = GEN_GENERATE, .quiet = true, .banner_without_version = true};
    gen_result r = {0};
    assert_int_equal(gen_run(&opt, &r), 0);
    assert_true(!r.quick || (r.emitted == 0 && r.outputs == 2));
    return r.quick;
}

/* A project generated once, whose next generate the quick stamp answers. */
static void quick_project(void)
{
    fx_basic_config(NULL);
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    settle();
    assert_false(generate_quick());
    assert_true(generate_quick());
    assert_true(generate_quick());
}

/* Nothing changed: the second generate returns before reading the injectors or the manifest,
 * and leaves every output as it was. */
static void test_commands_quick_stamp_answers_a_no_op(void **state)
{
    (void)state;
    quick_project();
    char *before = fx_snapshot("generated");
    assert_true(generate_quick());
    char *after = fx_snapshot("generated");
    assert_string_equal(before, after);
    free(before), free(after);
}

/* An injector edited to the same size at once: its times changed, so the run goes the whole way. */
static void test_commands_quick_stamp_sees_a_same_size_edit(void **state)
{
    (void)state;
    quick_project();
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nZeta\n"); /* as long as Alpha, Beta */
    assert_false(generate_quick());
    char *header = fx_read("generated/test_ids.h");
    assert_non_null(strstr(header, "Test_Ids_Zeta"));
    free(header);
}

/* An output edited by hand, to the same size: restored by a full run. */
static void test_commands_quick_stamp_sees_an_edited_output(void **state)
{
    (void)state;
    quick_project();
    char *header = fx_read("generated/test_ids.h");
    char *edited = xstrdup(header);
    edited[0] = edited[0] == '/' ? '#' : '/';
    fx_write("generated/test_ids.h", edited);
    assert_false(generate_quick());
    char *restored = fx_read("generated/test_ids.h");
    assert_string_equal(restored, header);
    free(header), free(edited), free(restored);
}

/* Asked another way (a banner with the version), a deleted stamp, a new file beside the outputs:
 * each a full run. */
static void test_commands_quick_stamp_needs_the_same_run(void **state)
{
    fixture *f = *state;
    quick_project();
    gen_options versioned = {.command = GEN_GENERATE, .quiet = true}; /* the version in the banner */
    gen_result r = {0};
    assert_int_equal(gen_run(&versioned, &r), 0);
    assert_false(r.quick);
    quick_project();
    fx_remove("generated/" STAMP_FILE);
    assert_false(generate_quick());
    assert_true(fx_exists("generated/" STAMP_FILE));
    assert_true(generate_quick());
    fx_write("generated/.test_ids.h.Ab3dE9", "partial");
    written_a_minute_ago("generated/.test_ids.h.Ab3dE9");
    f->diags.len = 0;
    assert_false(generate_quick());
    assert_string_equal(f->diags.data, "generated/.test_ids.h.Ab3dE9: warning: removed left-over temporary file of a killed run\n");
}

/* A run that warned leaves no quick stamp: the next run, which the stamp finds up to date, warns
 * again. */
static void test_commands_quick_stamp_not_after_a_warning(void **state)
{
    fixture *f = *state;
    quick_project();
    fx_write("injectors/Test.Ids.Extra.TXT", "Gamma\n");
    settle();
    for (int i = 0; i < 3; i++) {
        f->diags.len = 0;
        assert_false(generate_quick());
        assert_string_equal(f->diags.data, "injectors/Test.Ids.Extra.TXT: warning: ignored: entries files end in \".txt\", in lower case\n");
        assert_false(fx_exists("generated/" QUICK_STAMP_FILE));
    }
}

/* An input changed after the run began (its ctime not before the run's start): what the run read
 * may not be what it would record, so no quick stamp holds it. */
static void test_commands_quick_stamp_input_changed_during_the_run(void **state)
{
    (void)state;
    fx_write("input.txt", "x");
    struct timespec now;
    clock_gettime(CLOCK_REALTIME_COARSE, &now);
    quick_stamp q;
    quick_stamp_start(&q, 1, (struct timespec){now.tv_sec - 60, 0}); /* began a minute ago */
    quick_stamp_add(&q, "input.txt", QUICK_INPUT);
    assert_false(q.settled);
    quick_stamp_free(&q);
    quick_stamp_start(&q, 1, (struct timespec){now.tv_sec + 60, 0});
    quick_stamp_add(&q, "input.txt", QUICK_INPUT);
    quick_stamp_add(&q, "gone.txt", QUICK_INPUT);
    assert_true(q.settled);
    buf text = {0};
    quick_stamp_format(&q, &text);
    fx_write("quick", text.data);
    size_t outputs = 9;
    assert_true(quick_stamp_holds("quick", 1, &outputs));
    assert_int_equal(outputs, 0);
    assert_false(quick_stamp_holds("quick", 2, &outputs)); /* other options */
    fx_write("gone.txt", "");
    assert_false(quick_stamp_holds("quick", 1, &outputs));
    fx_remove("gone.txt");
    text.data[text.len - 2] = 'x'; /* cut short: no "end" line */
    fx_write("quick", text.data);
    assert_false(quick_stamp_holds("quick", 1, &outputs));
    buf_free(&text);
    quick_stamp_free(&q);
}

static int generate_with_jobs(unsigned jobs)
{
    gen_options opt = {.command = GEN_GENERATE, .quiet = true, .banner_without_version = true, .jobs = jobs};
    return gen_run(&opt, NULL);
}

/* A first generation and an edit (a rename and a removal), with the Mod injector as it starts. */
static char *generate_twice_with_jobs(unsigned jobs)
{
    fx_write("injectors/Test.Ids.Mod.txt", "Gamma\nEntry7\n");
    assert_int_equal(generate_with_jobs(jobs), 0);
    fx_write("injectors/Test.Ids.Mod.txt", "Delta <- Gamma\n"); /* a rename and a removal */
    assert_int_equal(generate_with_jobs(jobs), 0);
    return fx_snapshot("generated");
}

/* The domains' headers and manifests are emitted side by side, and a big domain's keys are hashed
 * in ranges of 16,384 declarations (one thread per core unless --jobs says otherwise): every
 * output, of a first run and of an edit, has the same bytes for any number of threads, with name
 * and hash collisions, a rename and a removal among the entries. */
static void test_commands_outputs_same_for_any_job_count(void **state)
{
    (void)state;
    fx_basic_config("{ \"name\": \"Test.More\", \"output\": \"more/more.h\" },\n"
                    "    { \"name\": \"Test.Events\", \"output\": \"events/test_events.h\", \"kind\": \"ordinal\" }");
    buf ids = {0}, more = {0}, events = {0};
    for (int i = 0; i < 33000; i++) buf_printf(&ids, "Entry%d\n", i); /* three ranges */
    buf_puts(&ids, "gamma\nk71135\nk171189\n");
    for (int i = 0; i < 500; i++) buf_printf(&more, "More%d\n", i);
    for (int i = 0; i < 200; i++) buf_printf(&events, "OnThing%d(int32, float)\n", i);
    fx_write("injectors/Test.Ids.User.txt", ids.data);
    fx_write("injectors/Test.More.User.txt", more.data);
    fx_write("injectors/Test.Events.User.txt", events.data);
    char *one = generate_twice_with_jobs(1);
    static const unsigned jobs[] = {2, 3, 8};
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
        assert_int_equal(system("rm -rf generated"), 0); /* a first run again */
        char *many = generate_twice_with_jobs(jobs[j]);
        assert_string_equal(one, many);
        free(many);
    }
    free(one);
    buf_free(&ids), buf_free(&more), buf_free(&events);
}

/* Big injector files are lexed side by side: what they report comes out in file order, the same
 * for any number of threads, and nothing is written. */
static void test_commands_lexing_reports_in_file_order_for_any_job_count(void **state)
{
    fixture *f = *state;
    fx_basic_config(NULL);
    static const char *const scopes[] = {"Alpha", "Beta", "Gamma"};
    for (int s = 0; s < 3; s++) {
        buf text = {0};
        for (int i = 0; i < 8000; i++) buf_printf(&text, "%sEntry%d\n", scopes[s], i); /* 3 x ~120 KB: past 256 KiB */
        buf_printf(&text, "%dBad\nFine\n", s);
        char *path = xasprintf("injectors/Test.Ids.%s.txt", scopes[s]);
        fx_write(path, text.data);
        free(path), buf_free(&text);
    }
    static const char expected[] =
        "injectors/Test.Ids.Alpha.txt:8001:1: error: identifier must start with a letter, not '0'\n"
        "injectors/Test.Ids.Beta.txt:8001:1: error: identifier must start with a letter, not '1'\n"
        "injectors/Test.Ids.Gamma.txt:8001:1: error: identifier must start with a letter, not '2'\n";
    static const unsigned jobs[] = {1, 2, 3, 8};
    for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
        fx_clear(f);
        assert_int_equal(generate_with_jobs(jobs[j]), 1);
        assert_string_equal(f->diags.data, expected);
        assert_false(fx_exists("generated/test_ids.h"));
    }
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, fixture_setup, fixture_teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commands_udiff_format),
        cmocka_unit_test(test_commands_udiff_large_file_shows_only_the_changes),
        cmocka_unit_test(test_commands_udiff_random_edits_apply),
        T(test_commands_check_prints_diff_and_writes_nothing),
        T(test_commands_headers_equal_generate),
        T(test_commands_headers_strict_refuses_unrecorded),
        T(test_commands_stale_outputs_removed),
        T(test_commands_crlf_checkout_is_up_to_date),
        T(test_commands_respell_only_one_entry),
        T(test_commands_unwritable_stamp_is_a_warning),
        T(test_commands_leftover_temporaries_removed),
        T(test_commands_stale_output_not_deleted_through_a_link),
        T(test_commands_only_asset_bytes_changed),
        T(test_commands_asset_bytes_and_more_changed),
        T(test_commands_quick_stamp_answers_a_no_op),
        T(test_commands_quick_stamp_sees_a_same_size_edit),
        T(test_commands_quick_stamp_sees_an_edited_output),
        T(test_commands_quick_stamp_needs_the_same_run),
        T(test_commands_quick_stamp_not_after_a_warning),
        T(test_commands_quick_stamp_input_changed_during_the_run),
        T(test_commands_outputs_same_for_any_job_count),
        T(test_commands_lexing_reports_in_file_order_for_any_job_count),
    };
    return cmocka_run_group_tests_name("gen_commands", tests, NULL, NULL);
}
