/* patch.h: plans over a temporary installed folder. What is kept is decided by the file's bytes
   (name, size and XXH64), never by the name alone; what is downloaded and its byte count; what is
   deleted (dropped archives and leftovers of the profile, never a file the new index lists); bad
   new indexes refused with a located message, the plan empty and the folder untouched. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

/* Every strcmp of the implementations compiled here (patch.h, content_format.h, text.h) is
   counted: the macro comes after <string.h>, whose guard makes the headers' own include of it a
   no-op. A plan's work is shown by its count of name comparisons, never by a timing. */
static unsigned long long string_comparisons;
static int counted_strcmp(const char *a, const char *b) {
    string_comparisons++;
    return strcmp(a, b);
}
#define strcmp(a, b) counted_strcmp(a, b)
#define TL_IMPLEMENTATION
#include <threadlink/patch.h>
#undef strcmp

typedef struct fixture {
    char dir[64];
} fixture;

/* What the last call said: its detail, and its log line (patch has no context object). */
static tl_patch_detail last;
static struct {
    int count;
    uint32_t item;
    char line[TL_LOG_LINE_MAX];
} logged;
static void capture(void *user, const tl_log_record *record) {
    (void)user;
    logged.count++;
    logged.item = record->item;
    snprintf(logged.line, sizeof logged.line, "%s", record->line);
}
static const tl_logger capturing = { capture, NULL, 0 };

/* One archive of an index the test writes: its name and its file's bytes. */
typedef struct arc {
    const char *name;
    const char *bytes;
    int catalog;
} arc;

static void path_of(const fixture *f, const char *name, char *buf, size_t cap) {
    snprintf(buf, cap, "%s/%s", f->dir, name);
}

static void write_file(const fixture *f, const char *name, const char *bytes, size_t len) {
    char path[256];
    FILE *out;
    path_of(f, name, path, sizeof path);
    out = fopen(path, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(bytes, 1, len, out), len);
    fclose(out);
}

/* archives.json for the archives (sizes and XXH64 of their bytes), profile given. */
static char *index_json(const char *profile, const arc *a, size_t n) {
    size_t cap = 256 + n * 256, used, i;
    char *out = malloc(cap);
    used = (size_t)snprintf(out, cap, "{\"format\": 1, \"profile\": \"%s\", \"archives\": [", profile);
    for (i = 0; i < n; i++) {
        size_t len = strlen(a[i].bytes);
        used += (size_t)snprintf(out + used, cap - used,
                                 "%s{\"name\": \"%s\", \"role\": \"%s\", \"size\": %zu, \"input_bytes\": %zu, "
                                 "\"xxh64\": \"%016llx\", \"files\": [%s]}",
                                 i ? ", " : "", a[i].name, a[i].catalog ? "catalog" : "assets", len, len,
                                 (unsigned long long)tl_cf_xxh64(a[i].bytes, len), a[i].catalog ? "" : "\"a/x\"");
        /* every asset archive lists one file; make them distinct */
        if (!a[i].catalog) out[used - 4] = (char)('a' + i);
    }
    snprintf(out + used, cap - used, "]}");
    return out;
}

/* Installs the archives and their index (a "version" as pack leaves it). */
static void install(const fixture *f, const char *profile, const arc *a, size_t n) {
    char *json = index_json(profile, a, n);
    size_t i;
    for (i = 0; i < n; i++) write_file(f, a[i].name, a[i].bytes, strlen(a[i].bytes));
    write_file(f, "archives.json", json, strlen(json));
    free(json);
}

static tl_patch_result plan_for(const fixture *f, const char *json, tl_patch_plan *plan) {
    tl_patch_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.installed_dir = f->dir;
    desc.index = json;
    desc.index_size = strlen(json);
    desc.logger = &capturing;
    return tl_patch_plan_make(plan, &desc, &last);
}

static const tl_patch_archive *planned(const tl_patch_plan *plan, const char *name) {
    uint32_t i;
    for (i = 0; i < plan->archive_count; i++)
        if (strcmp(plan->archives[i].name, name) == 0) return &plan->archives[i];
    return NULL;
}

/* Every file of the folder with its bytes, one line each, in name order (ls -1 through popen). */
static char *snapshot(const fixture *f) {
    char cmd[256], *out = malloc(1 << 16);
    size_t n;
    FILE *p;
    snprintf(cmd, sizeof cmd, "cd '%s' && for x in $(ls -A | sort); do echo \"$x\"; cat \"$x\"; echo; done", f->dir);
    p = popen(cmd, "r");
    assert_non_null(p);
    n = fread(out, 1, (1 << 16) - 1, p);
    pclose(p);
    out[n] = '\0';
    return out;
}

static int setup(void **state) {
    fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/tl-patch-XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fixture *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    if (system(cmd) != 0) return -1;
    free(f);
    return 0;
}

static const arc v1[] = {
    {"Main.catalog-1111111111111111.tlpk", "catalog one", 1},
    {"Main.t0-2222222222222222.tlpk", "archive zero, first build", 0},
    {"Main.t1-3333333333333333.tlpk", "archive one, unchanged", 0},
};
static const arc v2[] = {
    {"Main.catalog-4444444444444444.tlpk", "catalog two, with the added asset", 1},
    {"Main.t00-5555555555555555.tlpk", "archive zero-zero, edited", 0},
    {"Main.t01-6666666666666666.tlpk", "archive zero-one, added", 0},
    {"Main.t1-3333333333333333.tlpk", "archive one, unchanged", 0},
};

static void test_patch_first_install_downloads_everything(void **state) {
    fixture *f = *state;
    char missing[128], *json = index_json("Main", v2, 4);
    tl_patch_plan plan;
    tl_patch_desc desc;
    tl_patch_result r;
    uint32_t i;
    snprintf(missing, sizeof missing, "%s/not-yet", f->dir);
    memset(&desc, 0, sizeof desc);
    desc.installed_dir = missing;
    desc.index = json;
    desc.index_size = strlen(json);
    r = tl_patch_plan_make(&plan, &desc, &last);
    assert_int_equal(r, TL_PATCH_OK);
    assert_string_equal(last.message, "ok");
    assert_string_equal(plan.profile, "Main");
    assert_int_equal(plan.archive_count, 4);
    assert_int_equal(plan.download_count, 4);
    assert_int_equal(plan.keep_count, 0);
    assert_int_equal(plan.delete_count, 0);
    assert_false(plan.installed_index_found);
    for (i = 0; i < 4; i++) assert_int_equal(plan.archives[i].action, TL_PATCH_DOWNLOAD);
    assert_int_equal(plan.download_bytes, plan.total_bytes);
    assert_int_equal(plan.total_bytes, strlen(v2[0].bytes) + strlen(v2[1].bytes) + strlen(v2[2].bytes) + strlen(v2[3].bytes));
    assert_true(plan.archives[0].is_catalog);
    tl_patch_plan_free(&plan);
    free(json);
}

static void test_patch_update_downloads_only_changed_archives(void **state) {
    fixture *f = *state;
    char *json = index_json("Main", v2, 4);
    tl_patch_plan plan;
    tl_patch_result r;
    install(f, "Main", v1, 3);
    r = plan_for(f, json, &plan);
    assert_int_equal(r, TL_PATCH_OK);
    assert_true(plan.installed_index_found);
    assert_int_equal(plan.keep_count, 1);
    assert_int_equal(planned(&plan, v2[3].name)->action, TL_PATCH_KEEP);
    assert_int_equal(plan.download_count, 3);
    assert_int_equal(plan.download_bytes, strlen(v2[0].bytes) + strlen(v2[1].bytes) + strlen(v2[2].bytes));
    assert_int_equal(plan.keep_bytes, strlen(v2[3].bytes));
    /* v1's catalog and t0 go, after the switch; t1 stays (v2 lists it); sorted by name */
    assert_int_equal(plan.delete_count, 2);
    assert_string_equal(plan.deletes[0], v1[0].name);
    assert_string_equal(plan.deletes[1], v1[1].name);
    tl_patch_plan_free(&plan);
    free(json);
}

/* Same name, same size, other bytes (a damaged or tampered install): downloaded, not kept. The
   same name with a missing file, or a longer one, is downloaded too. */
static void test_patch_keep_needs_bytes_not_name(void **state) {
    fixture *f = *state;
    char *json = index_json("Main", v2, 4);
    char damaged[64];
    tl_patch_plan plan;
    install(f, "Main", v1, 3);
    strcpy(damaged, v2[3].bytes);
    damaged[3] ^= 1;
    write_file(f, v2[3].name, damaged, strlen(damaged));
    write_file(f, v2[1].name, "archive zero-zero, edited!", strlen(v2[1].bytes) + 1);
    assert_int_equal(plan_for(f, json, &plan), TL_PATCH_OK);
    assert_int_equal(plan.keep_count, 0);
    assert_int_equal(plan.download_count, 4);
    assert_int_equal(planned(&plan, v2[3].name)->action, TL_PATCH_DOWNLOAD);
    assert_int_equal(planned(&plan, v2[1].name)->action, TL_PATCH_DOWNLOAD);
    assert_int_equal(plan.download_bytes, plan.total_bytes);
    tl_patch_plan_free(&plan);
    free(json);
}

/* Leftovers of the profile (an update killed after its switch) are deleted; other files stay. */
static void test_patch_deletes_leftovers_of_the_profile_only(void **state) {
    fixture *f = *state;
    char *json = index_json("Main", v2, 4);
    tl_patch_plan plan;
    uint32_t i;
    install(f, "Main", v2, 4);
    write_file(f, "Main.t0-2222222222222222.tlpk", "old", 3);
    write_file(f, "Other.t-7777777777777777.tlpk", "another profile", 15);
    write_file(f, "Main.notes.txt", "not an archive", 14);
    write_file(f, "MainX.t-8888888888888888.tlpk", "a longer profile", 16);
    assert_int_equal(plan_for(f, json, &plan), TL_PATCH_OK);
    assert_int_equal(plan.keep_count, 4);
    assert_int_equal(plan.download_bytes, 0);
    assert_int_equal(plan.delete_count, 1);
    assert_string_equal(plan.deletes[0], "Main.t0-2222222222222222.tlpk");
    for (i = 0; i < 4; i++) assert_int_equal(planned(&plan, v2[i].name)->action, TL_PATCH_KEEP);
    tl_patch_plan_free(&plan);
    free(json);
}

/* A damaged installed archives.json: no profile check against it, files still kept by bytes. */
static void test_patch_damaged_installed_index_still_keeps_verified_files(void **state) {
    fixture *f = *state;
    char *json = index_json("Main", v2, 4);
    tl_patch_plan plan;
    install(f, "Main", v1, 3);
    write_file(f, "archives.json", "{\"format\": 1, \"prof", 19);
    assert_int_equal(plan_for(f, json, &plan), TL_PATCH_OK);
    assert_false(plan.installed_index_found);
    assert_int_equal(plan.keep_count, 1);
    /* v1's archives are still found as leftovers of the profile */
    assert_int_equal(plan.delete_count, 2);
    tl_patch_plan_free(&plan);
    free(json);
}

/* One refused new index: the code, a message containing `says`, an empty plan, the folder as it
   was (every file, every byte). */
static void refused(const fixture *f, const char *json, tl_patch_result code, const char *says) {
    char *before = snapshot(f), *after;
    tl_patch_plan plan;
    tl_patch_plan zero;
    tl_patch_result r;
    memset(&zero, 0, sizeof zero);
    memset(&plan, 0xab, sizeof plan);
    r = plan_for(f, json, &plan);
    if (r != code || !strstr(last.message, says))
        fail_msg("want code %d with '%s', got %d: %s (input %.80s)", (int)code, says, (int)r, last.message, json);
    assert_memory_equal(&plan, &zero, sizeof plan);
    tl_patch_plan_free(&plan);
    after = snapshot(f);
    assert_string_equal(before, after);
    free(before);
    free(after);
}

/* The index of `profile` listing arcs[0..n) refused with `code` saying `says`. */
static void refused_index(const fixture *f, const char *profile, const arc *arcs, size_t n, tl_patch_result code,
                          const char *says) {
    char *json = index_json(profile, arcs, n);
    refused(f, json, code, says);
    free(json);
}

static void test_patch_refuses_bad_new_index(void **state) {
    fixture *f = *state;
    char *json;
    install(f, "Main", v1, 3);
    refused(f, "", TL_PATCH_BAD_INDEX, "new archives.json, byte 0: not a valid archive index");
    refused(f, "<html>404</html>", TL_PATCH_BAD_INDEX, "not a valid archive index");
    json = index_json("Main", v2, 4);
    json[strlen(json) / 2] = '\0'; /* a download cut midway */
    refused(f, json, TL_PATCH_BAD_INDEX, "not a valid archive index");
    free(json);
    refused(f, "{\"format\": 2, \"profile\": \"Main\", \"archives\": []}", TL_PATCH_BAD_INDEX, "newer format");
    {
        static const arc escape[] = {{"Main.catalog-1.tlpk", "c", 1}, {"../escape.tlpk", "x", 0}};
        static const arc index_name[] = {{"Main.catalog-1.tlpk", "c", 1}, {"archives.json", "x", 0}};
        static const arc hidden[] = {{"Main.catalog-1.tlpk", "c", 1}, {".threadlink-patch.tlpk", "x", 0}};
        refused_index(f, "Main", escape, 2, TL_PATCH_BAD_INDEX, "not a valid archive index");
        refused_index(f, "Main", index_name, 2, TL_PATCH_BAD_INDEX, "archive name 'archives.json' is not an archive file name");
        refused_index(f, "Main", hidden, 2, TL_PATCH_BAD_INDEX, "archive name '.threadlink-patch.tlpk'");
    }
}

/* A refused index is located: the byte where reading stopped (or where the archive at fault
   starts), the archive's position and name, and the key whose value is wrong. */
static void located(const fixture *f, const char *json, const char *at, const char *says) {
    char want[256];
    snprintf(want, sizeof want, "byte %zu%s", at ? (size_t)(strstr(json, at) - json) : strlen(json), says);
    refused(f, json, TL_PATCH_BAD_INDEX, want);
}

#define LOCATED_HEAD "{\"format\": 1, \"profile\": \"Main\", \"archives\": [{\"name\": \"Main.c-1.tlpk\", \"role\": \"catalog\", " \
                     "\"size\": 1, \"xxh64\": \"0000000000000000\", \"files\": []}, "

static void test_patch_bad_index_says_where(void **state) {
    fixture *f = *state;
    const char *wrong_size = LOCATED_HEAD "{\"name\": \"Main.t-1.tlpk\", \"role\": \"assets\", \"size\": \"12\", "
                                          "\"xxh64\": \"0000000000000000\", \"files\": [\"a\"]}]}";
    const char *twice = LOCATED_HEAD "{\"name\": \"Main.t-1.tlpk\", \"role\": \"assets\", \"size\": 1, "
                                     "\"xxh64\": \"0000000000000000\", \"files\": [\"a\"]}, "
                                     "{\"name\": \"Main.t-1.tlpk\", \"role\": \"assets\", \"size\": 2, "
                                     "\"xxh64\": \"0000000000000000\", \"files\": [\"b\"]}]}";
    const char *file_twice = LOCATED_HEAD "{\"name\": \"Main.t-1.tlpk\", \"role\": \"assets\", \"size\": 1, "
                                          "\"xxh64\": \"0000000000000000\", \"files\": [\"a\"]}, "
                                          "{\"name\": \"Main.t-2.tlpk\", \"role\": \"assets\", \"size\": 2, "
                                          "\"xxh64\": \"0000000000000000\", \"files\": [\"b\", \"a\"]}]}";
    const char *two_catalogs = LOCATED_HEAD "{\"name\": \"Main.t-1.tlpk\", \"role\": \"catalog\", \"size\": 1, "
                                            "\"xxh64\": \"0000000000000000\", \"files\": []}]}";
    char *cut = index_json("Main", v2, 4);
    install(f, "Main", v1, 3);
    located(f, wrong_size, "\"12\"", ", archive 1 (Main.t-1.tlpk), key \"size\": not a valid archive index");
    located(f, twice, "{\"name\": \"Main.t-1.tlpk\", \"role\": \"assets\", \"size\": 2",
            ", archive 2 (Main.t-1.tlpk), key \"name\": archives.json gives two archives this name");
    located(f, file_twice, "{\"name\": \"Main.t-2.tlpk\"",
            ", archive 2 (Main.t-2.tlpk), key \"files\": archives.json lists a file twice");
    located(f, two_catalogs, "{\"name\": \"Main.t-1.tlpk\"",
            ", archive 1 (Main.t-1.tlpk), key \"role\": archives.json must list exactly one catalog archive");
    located(f, "<html>404</html>", "<", ": not a valid archive index");
    cut[strlen(cut) / 2] = '\0'; /* a download cut midway: reading stops at its end */
    located(f, cut, NULL, ", archive 1");
    free(cut);
}

/* Two names for one archive's bytes (a size and XXH64 listed twice): a build never stores an
   asset twice, so its runtime could not mount it; an updater may stage a download under its size
   and XXH64 alone. */
static void test_patch_refuses_one_content_under_two_names(void **state) {
    fixture *f = *state;
    static const arc twice[] = {{"Main.catalog-1.tlpk", "c", 1},
                                {"Main.t0-1.tlpk", "same bytes", 0},
                                {"Main.t1-1.tlpk", "other bytes", 0},
                                {"Main.t2-1.tlpk", "same bytes", 0}};
    char *json = index_json("Main", twice, 4);
    install(f, "Main", v1, 3);
    refused(f, json, TL_PATCH_BAD_INDEX,
            "new archives.json: archives Main.t0-1.tlpk and Main.t2-1.tlpk have one size and XXH64");
    free(json);
}

/* 2049 archives of 2^53 - 1 bytes each add up past 2^64. */
static void test_patch_refuses_sizes_past_2_64(void **state) {
    fixture *f = *state;
    size_t cap = 2100 * 160, used, i;
    char *json = malloc(cap);
    used = (size_t)snprintf(json, cap, "{\"format\": 1, \"profile\": \"Main\", \"archives\": [");
    for (i = 0; i < 2049; i++)
        used += (size_t)snprintf(json + used, cap - used,
                                 "%s{\"name\": \"Main.t%zu-0.tlpk\", \"role\": \"%s\", \"size\": 9007199254740991, "
                                 "\"xxh64\": \"0000000000000000\", \"files\": [%s%zu%s]}",
                                 i ? "," : "", i, i ? "assets" : "catalog", i ? "\"f" : "", i, i ? "\"" : "");
    snprintf(json + used, cap - used, "]}");
    /* the catalog's "files": [0] is not a string list: make it empty */
    {
        char *zero = strstr(json, "\"files\": [0]");
        memmove(zero + 10, zero + 11, strlen(zero + 11) + 1);
    }
    refused(f, json, TL_PATCH_BAD_INDEX, "sizes add up past 2^64");
    free(json);
}

/* Against the installed index: another profile, or an installed name with other bytes. */
static void test_patch_refuses_other_profile_and_reused_names(void **state) {
    fixture *f = *state;
    static const arc reused[] = {
        {"Main.catalog-1111111111111111.tlpk", "catalog one", 1},
        {"Main.t0-2222222222222222.tlpk", "archive zero, another build", 0},
    };
    install(f, "Main", v1, 3);
    refused_index(f, "Other", v2, 4, TL_PATCH_OTHER_PROFILE, "profile 'Other' is not the installed folder's profile");
    refused_index(f, "Main", reused, 2, TL_PATCH_NAME_REUSED, "archive Main.t0-2222222222222222.tlpk is installed with another size or XXH64");
}

/* Names one file system takes for one: on Windows and macOS a name in other letter case (or in
   another Unicode form) is the same file, so the new index may not give one to other bytes
   (renaming the staged archive onto it broke the installed version, and the deletes then took the
   new one), nor use two such names itself. */
static void test_patch_refuses_names_one_file_system_takes_for_one(void **state) {
    fixture *f = *state;
    static const arc other_case[] = {
        {"Main.catalog-4444444444444444.tlpk", "catalog two", 1},
        {"MAIN.T0-2222222222222222.tlpk", "archive zero, another build", 0},
    };
    static const arc two_cases[] = {
        {"Main.catalog-4444444444444444.tlpk", "catalog two", 1},
        {"Main.t9-7777777777777777.tlpk", "one", 0},
        {"main.T9-7777777777777777.tlpk", "two", 0},
    };
    static const arc two_forms[] = { /* e-acute precomposed, and e with a combining acute */
        {"Main.catalog-4444444444444444.tlpk", "catalog two", 1},
        {"Main.caf\xc3\xa9-7777777777777777.tlpk", "one", 0},
        {"Main.cafe\xcc\x81-7777777777777777.tlpk", "two", 0},
    };
    install(f, "Main", v1, 3);
    refused_index(f, "Main", other_case, 2, TL_PATCH_NAME_REUSED, "archive MAIN.T0-2222222222222222.tlpk is the installed Main.t0-2222222222222222.tlpk on file systems that ignore case");
    refused_index(f, "Main", two_cases, 3, TL_PATCH_BAD_INDEX, "archive main.T9-7777777777777777.tlpk and archive Main.t9-7777777777777777.tlpk on file");
    refused_index(f, "Main", two_forms, 3, TL_PATCH_BAD_INDEX, "Unicode form (Windows, macOS): one file");
}

/* Names Windows cannot hold: a device (opening CON.tlpk opens the console) or a character it
   refuses. A build is served to every system. */
static void test_patch_refuses_names_windows_cannot_hold(void **state) {
    fixture *f = *state;
    static const arc device[] = {{"Main.catalog-4444444444444444.tlpk", "catalog two", 1}, {"CON.tlpk", "x", 0}};
    static const arc wild[] = {{"Main.catalog-4444444444444444.tlpk", "catalog two", 1}, {"Main.a?b*.tlpk", "x", 0}};
    install(f, "Main", v1, 3);
    refused_index(f, "Main", device, 2, TL_PATCH_BAD_INDEX, "archive name 'CON.tlpk' is a Windows device name");
    refused_index(f, "Main", wild, 2, TL_PATCH_BAD_INDEX, "archive name 'Main.a?b*.tlpk' contains '?'");
}

/* A new archives.json content.h would not mount (over 16 MiB) is refused before it is read; and
   one of more than 65,536 archives says so. */
static void test_patch_refuses_indexes_content_would_not_mount(void **state) {
    fixture *f = *state;
    size_t big = (size_t)TL_PATCH_MAX_INDEX_BYTES + 1, cap = 65537u * 120 + 128, used, i;
    char *json = index_json("Main", v2, 4), *padded = malloc(big + 1);
    install(f, "Main", v1, 3);
    memset(padded, ' ', big); /* v2's index, then spaces past the bound */
    memcpy(padded, json, strlen(json));
    padded[big] = '\0';
    refused(f, padded, TL_PATCH_BAD_INDEX, "new archives.json: larger than TL_PATCH_MAX_INDEX_BYTES");
    free(padded);
    free(json);
    json = malloc(cap);
    used = (size_t)snprintf(json, cap, "{\"format\": 1, \"profile\": \"Main\", \"archives\": [");
    for (i = 0; i < 65537u; i++)
        used += (size_t)snprintf(json + used, cap - used,
                                 "%s{\"name\": \"Main.m%06zu.tlpk\", \"role\": \"%s\", \"size\": 1, "
                                 "\"xxh64\": \"%016zx\", \"files\": [%s%zu%s]}",
                                 i ? "," : "", i, i ? "assets" : "catalog", i, i ? "\"f" : "", i, i ? "\"" : "");
    snprintf(json + used, cap - used, "]}");
    {
        char *zero = strstr(json, "\"files\": [0]"); /* the catalog lists no file */
        memmove(zero + 10, zero + 11, strlen(zero + 11) + 1);
    }
    refused(f, json, TL_PATCH_BAD_INDEX, "archives.json lists more than 65,536 archives (TL_CF_INDEX_MAX_ARCHIVES)");
    free(json);
}

static void test_patch_verify_file(void **state) {
    fixture *f = *state;
    char path[256];
    const char *text = "twelve bytes";
    uint64_t h = tl_cf_xxh64(text, 12);
    tl_patch_result r;
    path_of(f, "x.tlpk", path, sizeof path);
    r = tl_patch_verify_file(path, 12, h, &capturing, &last);
    assert_int_equal(r, TL_PATCH_MISSING);
    assert_non_null(strstr(last.message, "x.tlpk: the file is missing or unreadable"));
    write_file(f, "x.tlpk", text, 12);
    assert_int_equal(tl_patch_verify_file(path, 12, h, &capturing, &last), TL_PATCH_OK);
    assert_int_equal(tl_patch_verify_file(path, 11, tl_cf_xxh64(text, 11), &capturing, &last), TL_PATCH_WRONG_SIZE);
    assert_int_equal(tl_patch_verify_file(path, 13, h, &capturing, &last), TL_PATCH_WRONG_SIZE);
    r = tl_patch_verify_file(path, 12, h ^ 1, &capturing, &last);
    assert_int_equal(r, TL_PATCH_WRONG_HASH);
    assert_non_null(strstr(last.message, "x.tlpk: the file's XXH64 is not the recorded one"));
    assert_int_equal(tl_patch_verify_file(NULL, 12, h, &capturing, &last), TL_PATCH_INVALID_ARGUMENT);
}

/* A FIFO where the plan reads an installed archive or archives.json: an open without O_NONBLOCK
   would wait for a writer forever (the alarm then ends the test as a failure). The plan treats
   both as missing (download, no installed index) and tl_patch_verify_file refuses a FIFO. */
static void test_patch_fifo_never_blocks(void **state) {
    fixture *f = *state;
    char *json = index_json("Main", v2, 4), path[256];
    tl_patch_plan plan;
    tl_patch_result r;
    install(f, "Main", v1, 3);
    path_of(f, v2[3].name, path, sizeof path);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0600), 0);
    alarm(20);
    r = tl_patch_verify_file(path, 1, 0, &capturing, &last);
    assert_int_equal(r, TL_PATCH_MISSING);
    assert_non_null(strstr(last.message, "not a regular file"));
    assert_int_equal(plan_for(f, json, &plan), TL_PATCH_OK);
    assert_int_equal(planned(&plan, v2[3].name)->action, TL_PATCH_DOWNLOAD);
    assert_true(plan.installed_index_found);
    tl_patch_plan_free(&plan);
    path_of(f, "archives.json", path, sizeof path);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(plan_for(f, json, &plan), TL_PATCH_OK);
    assert_false(plan.installed_index_found);
    alarm(0);
    tl_patch_plan_free(&plan);
    free(json);
}

/* The largest index tl_cf_index_parse accepts, 65,536 archives (about 10 MB here), is planned with
   O(n log n) name comparisons (sorting): 1.8 million, 6 million allowed. A check of every pair of
   names made n(n-1)/2 = 2.1 billion (10 s of CPU for a 15 MB index). */
static void test_patch_large_index_needs_no_pairwise_comparison(void **state) {
    fixture *f = *state;
    const uint32_t n = TL_CF_INDEX_MAX_ARCHIVES;
    size_t cap = (size_t)n * 200 + 128, used, i;
    char *json = malloc(cap);
    tl_patch_plan plan;
    used = (size_t)snprintf(json, cap, "{\"format\": 1, \"profile\": \"Main\", \"archives\": [");
    for (i = 0; i < n; i++)
        used += (size_t)snprintf(json + used, cap - used,
                                 "%s{\"name\": \"Main.t%06zu-%016zx.tlpk\", \"role\": \"%s\", \"size\": %zu, "
                                 "\"xxh64\": \"%016zx\", \"files\": [\"Data/level%06zu/asset\"]}",
                                 i ? "," : "", i, i * 2654435761u, i ? "assets" : "catalog", 1000 + i, i * 40503u, i);
    snprintf(json + used, cap - used, "]}");
    string_comparisons = 0;
    assert_int_equal(plan_for(f, json, &plan), TL_PATCH_OK);
    assert_int_equal(plan.archive_count, n);
    assert_int_equal(plan.download_count, n);
    if (string_comparisons > 6000000u)
        fail_msg("%llu name comparisons for %u archives: not O(n log n)", string_comparisons, n);
    tl_patch_plan_free(&plan);
    free(json);
}

/* 8,192 leftover archives of the profile in the folder: each deleted once, found without
   comparing every pair of them (33.7 million comparisons did; sorting does 0.13 million,
   0.5 million allowed). */
static void test_patch_many_leftovers_need_no_pairwise_comparison(void **state) {
    fixture *f = *state;
    char *json = index_json("Main", v2, 4), name[64];
    tl_patch_plan plan;
    uint32_t i;
    install(f, "Main", v2, 4);
    for (i = 0; i < 8192; i++) {
        snprintf(name, sizeof name, "Main.x%05u-0000000000000000.tlpk", (unsigned)i);
        write_file(f, name, "", 0);
    }
    string_comparisons = 0;
    assert_int_equal(plan_for(f, json, &plan), TL_PATCH_OK);
    assert_int_equal(plan.delete_count, 8192);
    assert_string_equal(plan.deletes[0], "Main.x00000-0000000000000000.tlpk");
    assert_string_equal(plan.deletes[8191], "Main.x08191-0000000000000000.tlpk");
    if (string_comparisons > 500000u)
        fail_msg("%llu name comparisons for 8192 leftovers: not O(n log n)", string_comparisons);
    tl_patch_plan_free(&plan);
    free(json);
}

/* docs/errors.md: a failure's result and message are the header's; the sentence (the file, the
   byte) and the errno reach the caller through tl_patch_detail and are in the one log line. */
static void test_patch_result_convention(void **state) {
    fixture *f = *state;
    char path[256], native[32];
    tl_patch_plan plan;
    logged.count = 0;
    assert_int_equal(plan_for(f, "{\"format\": 1, \"profile\": 7}", &plan), TL_PATCH_BAD_INDEX);
    assert_string_equal(tl_patch_result_message(TL_PATCH_BAD_INDEX),
                        "the new archives.json is not a valid archive index");
    assert_non_null(strstr(last.message, "new archives.json, byte "));
    assert_int_equal(last.native_error, 0);
    assert_int_equal(logged.count, 1);
    assert_int_equal(logged.item, TL_PATCH_LOG_PLAN_FAILED);
    assert_non_null(strstr(logged.line, f->dir));
    assert_non_null(strstr(logged.line, last.message));

    path_of(f, "gone.tlpk", path, sizeof path);
    assert_int_equal(tl_patch_verify_file(path, 1, 0, &capturing, &last), TL_PATCH_MISSING);
    assert_int_equal(last.native_error, ENOENT);
    assert_int_equal(logged.count, 2);
    assert_int_equal(logged.item, TL_PATCH_LOG_VERIFY_FAILED);
    assert_non_null(strstr(logged.line, "gone.tlpk: the file is missing or unreadable"));
    snprintf(native, sizeof native, "(native error %d)", ENOENT);
    assert_non_null(strstr(logged.line, native));

    assert_int_equal(tl_patch_verify_file(path, 1, 0, &capturing, NULL), TL_PATCH_MISSING);
    assert_int_equal(logged.count, 3); /* a NULL detail: still logged, once */
    assert_string_equal(tl_patch_result_message(TL_PATCH_OK), "ok");
    assert_string_equal(tl_patch_result_message(TL_PATCH_RESULT_END_), "unknown result");
}

static void test_patch_invalid_arguments(void **state) {
    tl_patch_plan plan;
    tl_patch_desc desc;
    (void)state;
    memset(&desc, 0, sizeof desc);
    assert_int_equal(tl_patch_plan_make(&plan, &desc, NULL), TL_PATCH_INVALID_ARGUMENT);
    assert_int_equal(tl_patch_plan_make(&plan, NULL, NULL), TL_PATCH_INVALID_ARGUMENT);
    assert_int_equal(tl_patch_plan_make(NULL, &desc, NULL), TL_PATCH_INVALID_ARGUMENT);
    tl_patch_plan_free(&plan);
    tl_patch_plan_free(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_patch_first_install_downloads_everything, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_update_downloads_only_changed_archives, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_keep_needs_bytes_not_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_deletes_leftovers_of_the_profile_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_damaged_installed_index_still_keeps_verified_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_refuses_bad_new_index, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_bad_index_says_where, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_refuses_sizes_past_2_64, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_refuses_one_content_under_two_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_refuses_other_profile_and_reused_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_refuses_names_one_file_system_takes_for_one, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_refuses_names_windows_cannot_hold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_refuses_indexes_content_would_not_mount, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_verify_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_result_convention, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_fifo_never_blocks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_large_index_needs_no_pairwise_comparison, setup, teardown),
        cmocka_unit_test_setup_teardown(test_patch_many_leftovers_need_no_pairwise_comparison, setup, teardown),
        cmocka_unit_test(test_patch_invalid_arguments),
    };
    return cmocka_run_group_tests_name("patch", tests, NULL, NULL);
}
