#include "gen_fixture.h"

#include "base/stamp.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

static fixture *current;

static void capture(void *ctx, diag_level level, src_loc loc, const char *message)
{
    fixture *f = ctx;
    diag_format(&f->diags, level, loc, message);
    buf_putc(&f->diags, '\n');
}

int fixture_setup(void **state)
{
    fixture *f = xcalloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/tlg-test-XXXXXX");
    if (!mkdtemp(f->dir)) return -1;
    if (!getcwd(f->old_cwd, sizeof f->old_cwd)) return -1;
    if (chdir(f->dir) != 0) return -1;
    /* pack's record of input hashes goes to the user's cache folder: for a test, its own. */
    char *cache = xasprintf("%s/.cache", f->dir);
    setenv("XDG_CACHE_HOME", cache, 1);
    free(cache);
    f->prev_sink = diag_set_sink((diag_sink){capture, f});
    buf_cstr(&f->diags);
    buf_cstr(&f->summary);
    current = f;
    *state = f;
    return 0;
}

int fixture_teardown(void **state)
{
    fixture *f = *state;
    diag_set_sink(f->prev_sink);
    if (chdir(f->old_cwd) != 0) return -1;
    unsetenv("XDG_CACHE_HOME");
    char *cmd = xasprintf("rm -rf '%s'", f->dir);
    int rc = system(cmd);
    free(cmd);
    buf_free(&f->diags);
    buf_free(&f->summary);
    free(f);
    current = NULL;
    return rc == 0 ? 0 : -1;
}

void fx_write(const char *path, const char *text)
{
    char *copy = xstrdup(path);
    for (char *p = copy + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(copy, 0755);
            *p = '/';
        }
    free(copy);
    FILE *fp = fopen(path, "wb");
    if (!fp) abort();
    fwrite(text, 1, strlen(text), fp);
    fclose(fp);
}

char *fx_read(const char *path)
{
    buf b = {0};
    if (!fs_read_file(path, &b)) {
        buf_free(&b);
        return NULL;
    }
    return b.data ? b.data : xstrdup("");
}

bool fx_exists(const char *path) { return fs_kind_of(path) != FS_MISSING; }
void fx_remove(const char *path) { unlink(path); }

int fx_run(fixture *f, gen_command cmd)
{
    char *name = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&name, &size);
    gen_options opt = {.command = cmd, .quiet = false, .summary = out, .banner_without_version = true,
                       .headers_dir = cmd == GEN_HEADERS ? "build-out" : NULL};
    int rc = gen_run(&opt, NULL);
    fclose(out);
    buf_put(&f->summary, name, size);
    free(name);
    return rc;
}

int fx_generate(fixture *f) { return fx_run(f, GEN_GENERATE); }

static void snapshot_into(buf *out, const char *dir)
{
    name_list names = {0};
    if (!fs_list_dir(dir, &names)) return;
    for (size_t i = 0; i < names.count; i++) {
        if (strcmp(names.items[i], STAMP_FILE) == 0 || strcmp(names.items[i], QUICK_STAMP_FILE) == 0)
            continue; /* a cache, not an output */
        char *path = path_join(dir, names.items[i]);
        fs_kind k = fs_kind_of(path);
        if (k == FS_DIR) {
            snapshot_into(out, path);
        } else {
            char *text = fx_read(path);
            buf_printf(out, "%s\n%s\n", path, text ? text : "<unreadable>");
            free(text);
        }
        free(path);
    }
    name_list_free(&names);
}

char *fx_snapshot(const char *dir)
{
    buf out = {0};
    buf_cstr(&out);
    snapshot_into(&out, dir);
    return out.data;
}

void fx_basic_config(const char *extra_domains)
{
    char *cfg = xasprintf("{\n  \"domains\": [\n    { \"name\": \"Test.Ids\", \"output\": \"test_ids.h\" }%s%s\n  ]\n}\n",
                          extra_domains ? ",\n    " : "", extra_domains ? extra_domains : "");
    fx_write("threadlink.json", cfg);
    free(cfg);
}

void fx_expect_failure(fixture *f, char *snapshot, const char *diagnostics)
{
    assert_int_equal(fx_generate(f), 1);
    if (strcmp(f->diags.data, diagnostics) != 0) fprintf(stderr, "ACTUAL:\n%sEND\n", f->diags.data);
    assert_string_equal(f->diags.data, diagnostics);
    char *after = fx_snapshot("generated");
    assert_string_equal(snapshot, after);
    free(after);
    free(snapshot);
}

/* ---- Content projects and pack ---------------------------------------------------------------- */

void fx_write_bytes(const char *path, const void *data, size_t n)
{
    fx_write(path, ""); /* creates the directories */
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    fwrite(data, 1, n, fp);
    fclose(fp);
}

int fx_pack_with(fixture *f, pack_options opt)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    opt.summary = out;
    opt.banner_without_version = true;
    int rc = pack_run(&opt);
    fclose(out);
    buf_put(&f->summary, text, size);
    free(text);
    return rc;
}

int fx_pack(fixture *f)
{
    pack_options opt = {0};
    return fx_pack_with(f, opt);
}

void fx_clear(fixture *f)
{
    f->diags.len = 0;
    f->diags.data[0] = 0;
    f->summary.len = 0;
    if (f->summary.data) f->summary.data[0] = 0;
}

static const char *main_profile =
    "{\n"
    "  \"domains\": [],\n"
    "  \"content\": [\n"
    "    { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\",\n"
    "      \"categories\": [ { \"name\": \"Icons\", \"folder\": \"Icons\" }, { \"name\": \"Levels\", \"folder\": \"Levels\" } ],\n"
    "      \"max_archive_mb\": 1, \"compression\": \"%s\" }\n"
    "  ]\n"
    "}\n";

void fx_config_main(const char *codec)
{
    char *cfg = xasprintf(main_profile, codec);
    fx_write("threadlink.json", cfg);
    free(cfg);
}

void fx_small_tree(void)
{
    fx_write("assets/Icons/sword.png", "sword bytes");
    fx_write("assets/Icons/shield.png", "shield shield shield shield shield shield shield shield");
    fx_write("assets/Levels/forest.txt", "level one level one level one level one level one level one");
}

char *fx_snapshot_all(void)
{
    char *a = fx_snapshot("generated"), *b = fx_snapshot("out");
    char *s = xasprintf("%s%s", a, b);
    free(a);
    free(b);
    return s;
}

char *fx_good_build(fixture *f)
{
    fx_config_main("zstd");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    fx_clear(f);
    return fx_snapshot_all();
}

void fx_expect_pack_failure(fixture *f, char *before, const char *diagnostics)
{
    assert_int_equal(fx_pack(f), 1);
    assert_string_equal(f->diags.data, diagnostics);
    char *after = fx_snapshot_all();
    assert_string_equal(before, after);
    free(after);
    free(before);
}

void fx_expect_config_error(fixture *f, const char *profile_json, const char *diagnostics)
{
    char *before = fx_good_build(f);
    char *cfg = xasprintf("{\n  \"domains\": [],\n  \"content\": [\n    %s\n  ]\n}\n", profile_json);
    fx_write("threadlink.json", cfg);
    free(cfg);
    fx_expect_pack_failure(f, before, diagnostics);
}
