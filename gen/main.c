/* threadlink-gen: the command line. Everything it does is a library call (generate.h). */
#include "diag.h"
#include "diff.h"
#include "fsio.h"
#include "generate.h"
#include "pack.h"
#include "suggest.h"
#include "watch.h"
#include "tlg_build_id.h"
#include "tlg_version.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: threadlink-gen <command> [options]\n"
    "\n"
    "commands:\n"
    "  generate   run every domain: update manifests and the generated directory\n"
    "  headers    write the headers into -o DIR (the build step); manifests are only read\n"
    "  check      exit 1 and print a diff of the files that generate would change; writes nothing\n"
    "  diff OLD NEW  compare two manifest sets (files or directories): exit 1 on breaking changes\n"
    "  watch      generate, then again whenever an input changes, until interrupted\n"
    "  pack       build content profiles: catalogs and archives (pack --help)\n"
    "\n"
    "options:\n"
    "  -C DIR                   run as if started in DIR\n"
    "  --config FILE            the project config (default: threadlink.json)\n"
    "  -o DIR                   headers: the output directory\n"
    "  --strict                 headers: entries missing from a manifest are an error\n"
    "  --quiet                  no summary\n"
    "  --depfile FILE           generate, headers: write a Make/Ninja depfile\n"
    "  --deptarget NAME         the depfile's target (default: the first output)\n"
    "  --diagnostics-format F   gcc (default), msvc, json or github\n"
    "  --banner-without-version leave the version out of banners (golden tests)\n"
    "  --format FMT             diff: text (default), json, markdown or github\n"
    "  --allow KEY              diff: approve a breaking change of KEY, Domain:KEY or Domain:*\n"
    "  --allow-file FILE        diff: approvals, one a line\n"
    "  --help, --version\n"
    "\n"
    "exit status: 0 ok (check: up to date), 1 input errors (check: stale), 2 usage\n";

static int usage_error(const char *fmt, const char *arg)
{
    fputs("threadlink-gen: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(run threadlink-gen --help for usage)\n", stderr);
    return 2;
}

/* usage_error for an argument that matched none of `known` (NULL-terminated), naming the one
 * meant when it looks like a typo of one; an option's "=value" is left out of the comparison. */
static int unknown_argument(const char *what, const char *arg, const char *const *known)
{
    const size_t len = strcspn(arg, "=");
    const char *near = suggest_nearest(arg, len, known, SIZE_MAX);
    if (near && strlen(near) == len && strncmp(near, arg, len) == 0) near = NULL; /* its value is missing */
    char *message = near ? xasprintf("unknown %s '%s' (did you mean '%s'?)", what, arg, near)
                         : xasprintf("unknown %s '%s'", what, arg);
    int rc = usage_error("%s", message);
    free(message);
    return rc;
}

static const char pack_usage[] =
    "usage: threadlink-gen pack [-C DIR] [--config FILE] [--profile NAME|all] [overrides] [--quiet]\n"
    "\n"
    "Builds content profiles into their output folders: generate first (asset ids into the\n"
    "manifests), then the catalog and the archives (or flat files) and archives.json.\n"
    "\n"
    "  --profile NAME|all       which profile (default: the only one, else all)\n"
    "  --output DIR             override the output folder (one profile only)\n"
    "  --archive none|packed    override the archive mode\n"
    "  --max-archive-mb N       override the archive size limit (whole number >= 1)\n"
    "  --compression none|lz4|zstd  override the codec\n"
    "  --progress / --no-progress   progress line (default: when stderr is a terminal)\n"
    "\n"
    "exit status: 0 ok, 1 input or build errors (the previous output stays usable), 2 usage\n";

/* pack: a thin parser over pack_run (gen/pack.c). */
static int run_pack(int argc, char **argv)
{
    pack_options opt = {0};
    opt.progress = -1;
    opt.generator_build = TLG_BUILD_ID;
    const char *dir = NULL;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "-C") == 0 && has_value) dir = argv[++i];
        else if (strcmp(a, "--config") == 0 && has_value) opt.config_path = argv[++i];
        else if (strcmp(a, "--profile") == 0 && has_value) opt.profile = argv[++i];
        else if (strcmp(a, "--output") == 0 && has_value) opt.output = argv[++i];
        else if (strcmp(a, "--archive") == 0 && has_value) opt.archive = argv[++i];
        else if (strcmp(a, "--compression") == 0 && has_value) opt.compression = argv[++i];
        else if (strcmp(a, "--max-archive-mb") == 0 && has_value) {
            const char *v = argv[++i];
            char *end;
            errno = 0;
            unsigned long n = strtoul(v, &end, 10);
            if (!*v || *end || errno || n < 1 || n > (1ul << 20) || v[0] == '-')
                return usage_error("--max-archive-mb takes a whole number from 1 to 1048576, not '%s'", v);
            opt.max_archive_mb = (uint32_t)n;
        } else if (strcmp(a, "--quiet") == 0) opt.quiet = true;
        else if (strcmp(a, "--progress") == 0) opt.progress = 1;
        else if (strcmp(a, "--no-progress") == 0) opt.progress = 0;
        else if (strcmp(a, "--banner-without-version") == 0) opt.banner_without_version = true;
        else if (strcmp(a, "--help") == 0) {
            fputs(pack_usage, stdout);
            return 0;
        } else if (strncmp(a, "--diagnostics-format=", 21) == 0) {
            diag_style style;
            if (!diag_parse_style(a + 21, &style)) return usage_error("unknown diagnostics format '%s' (gcc, msvc, json, github)", a + 21);
            diag_set_style(style);
        } else if (!has_value && (strcmp(a, "-C") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "--profile") == 0 ||
                                  strcmp(a, "--output") == 0 || strcmp(a, "--archive") == 0 ||
                                  strcmp(a, "--compression") == 0 || strcmp(a, "--max-archive-mb") == 0))
            return usage_error("option '%s' needs a value", a);
        else {
            static const char *const known[] = {"-C", "--config", "--profile", "--output", "--archive",
                "--compression", "--max-archive-mb", "--quiet", "--progress", "--no-progress",
                "--banner-without-version", "--help", "--diagnostics-format", NULL};
            return unknown_argument("pack option", a, known);
        }
    }
    if (dir && chdir(dir) != 0) {
        fprintf(stderr, "threadlink-gen: error: cannot enter %s: %s\n", dir, strerror(errno));
        return 2;
    }
    return pack_run(&opt);
}

static int run_diff(int argc, char **argv)
{
    diff_options opt = {0};
    const char *paths[2] = {NULL, NULL};
    int n = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--format") == 0 && has_value) {
            const char *f = argv[++i];
            if (strcmp(f, "text") == 0) opt.format = DIFF_TEXT;
            else if (strcmp(f, "json") == 0) opt.format = DIFF_JSON;
            else if (strcmp(f, "markdown") == 0) opt.format = DIFF_MARKDOWN;
            else if (strcmp(f, "github") == 0) opt.format = DIFF_GITHUB;
            else return usage_error("unknown diff format '%s' (text, json, markdown, github)", f);
        } else if (strcmp(a, "--allow") == 0 && has_value) {
            *vec_push(&opt.allow) = argv[++i];
        } else if (strcmp(a, "--allow-file") == 0 && has_value) {
            opt.allow_file = argv[++i];
        } else if (strncmp(a, "--diagnostics-format=", 21) == 0) {
            diag_style style;
            if (!diag_parse_style(a + 21, &style)) return usage_error("unknown diagnostics format '%s' (gcc, msvc, json, github)", a + 21);
            diag_set_style(style);
        } else if (a[0] == '-' && a[1]) {
            static const char *const known[] = {"--format", "--allow", "--allow-file", "--diagnostics-format", NULL};
            return unknown_argument("or incomplete diff option", a, known);
        } else if (n < 2) {
            paths[n++] = a;
        } else {
            return usage_error("diff takes two paths, OLD and NEW; extra argument '%s'", a);
        }
    }
    if (n != 2) return usage_error("%s needs two paths: OLD and NEW (manifest files or directories)", "diff");
    opt.old_path = paths[0];
    opt.new_path = paths[1];
    int rc = diff_run(&opt);
    vec_free(&opt.allow);
    return rc;
}

int main(int argc, char **argv)
{
    gen_options opt = {0};
    opt.generator_build = TLG_BUILD_ID;
    const char *dir = NULL;
    bool watching = false;
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        puts("threadlink-gen " TLG_VERSION " (build " TLG_BUILD_ID ")");
        return 0;
    }
    if (strcmp(cmd, "diff") == 0) return run_diff(argc, argv);
    if (strcmp(cmd, "pack") == 0) return run_pack(argc, argv);
    if (strcmp(cmd, "generate") == 0) opt.command = GEN_GENERATE;
    else if (strcmp(cmd, "headers") == 0) opt.command = GEN_HEADERS;
    else if (strcmp(cmd, "check") == 0) opt.command = GEN_CHECK;
    else if (strcmp(cmd, "watch") == 0) watching = true;
    else {
        static const char *const known[] = {"generate", "headers", "check", "diff", "pack", "watch", NULL};
        return unknown_argument("command", cmd, known);
    }

    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "-C") == 0 && has_value) dir = argv[++i];
        else if (strcmp(a, "--config") == 0 && has_value) opt.config_path = argv[++i];
        else if (strcmp(a, "-o") == 0 && has_value) opt.headers_dir = argv[++i];
        else if (strcmp(a, "--strict") == 0) opt.strict = true;
        else if (strcmp(a, "--depfile") == 0 && has_value) opt.depfile = argv[++i];
        else if (strcmp(a, "--deptarget") == 0 && has_value) opt.deptarget = argv[++i];
        else if (strcmp(a, "--quiet") == 0) opt.quiet = true;
        else if (strcmp(a, "--banner-without-version") == 0) opt.banner_without_version = true;
        else if (strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strncmp(a, "--diagnostics-format=", 21) == 0) {
            diag_style style;
            if (!diag_parse_style(a + 21, &style)) return usage_error("unknown diagnostics format '%s' (gcc, msvc, json, github)", a + 21);
            diag_set_style(style);
        } else if (a[0] == '-' && (strcmp(a, "-C") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "-o") == 0 ||
                                   strcmp(a, "--depfile") == 0 || strcmp(a, "--deptarget") == 0))
            return usage_error("option '%s' needs a value", a);
        else {
            static const char *const known[] = {"-C", "--config", "-o", "--strict", "--depfile", "--deptarget",
                "--quiet", "--banner-without-version", "--help", "--diagnostics-format", NULL};
            return unknown_argument("option", a, known);
        }
    }
    if (opt.command == GEN_HEADERS && !opt.headers_dir) return usage_error("%s needs -o DIR", "headers");
    if (opt.command != GEN_HEADERS && (opt.headers_dir || opt.strict))
        return usage_error("-o and --strict belong to the headers command, not '%s'", cmd);
    /* -o and --depfile name paths as the caller sees them (a build system's working directory),
     * not relative to -C. */
    char *headers_dir = NULL, *depfile = NULL;
    if (dir) {
        char cwd[4096];
        if (!getcwd(cwd, sizeof cwd)) return usage_error("cannot get the working directory%s", "");
        if (opt.headers_dir && opt.headers_dir[0] != '/') opt.headers_dir = headers_dir = path_join(cwd, opt.headers_dir);
        if (opt.depfile && opt.depfile[0] != '/') opt.depfile = depfile = path_join(cwd, opt.depfile);
    }
    if (dir && chdir(dir) != 0) {
        fprintf(stderr, "threadlink-gen: error: cannot enter %s: %s\n", dir, strerror(errno));
        return 2;
    }
    int rc = watching ? watch_run(&opt) : gen_run(&opt, NULL);
    free(headers_dir);
    free(depfile);
    return rc;
}
