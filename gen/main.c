/* threadlink-gen: the command line. Everything it does is a library call (generate.h). */
#include "base/args.h"
#include "base/diag.h"
#include "core/diff.h"
#include "base/fsio.h"
#include "core/generate.h"
#include "core/init.h"
#include "pack/pack.h"
#include "base/suggest.h"
#include "watch.h"
#include "tlg_build_id.h"
#include "tlg_version.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static const char usage[] =
    "usage: threadlink-gen <command> [options]\n"
    "\n"
    "commands:\n"
    "  init [--build meson|cmake|make] DIR   a new project in DIR that builds and runs (default: meson)\n"
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
    "  --list-outputs           headers: print the outputs' paths below -o DIR, one a line; writes nothing\n"
    "  --expect-outputs LIST    headers: the outputs the build declares, below -o DIR, separated by ';'\n"
    "                           (repeatable); any output missing or extra is an error, nothing written\n"
    "  --outputs-file FILE      headers: the outputs the build declares, as --list-outputs prints them;\n"
    "                           rewritten when they change (the build then configures again)\n"
    "  --jobs N, -j N           generate, headers, check, watch: threads that lex, hash and write a big\n"
    "                           project (default: one per core); the outputs are the same for any N\n"
    "  --diagnostics-format F   gcc (default), msvc, json or github\n"
    "  --generate-command CMD   the command messages tell to run for generate (default: threadlink-gen\n"
    "                           generate); a build passes its own (cmake --build build --target generate)\n"
    "  --banner-without-version leave the version out of banners (golden tests)\n"
    "  --format FMT             diff: text (default), json, markdown or github\n"
    "  --allow KEY              diff: approve a breaking change of KEY, Domain:KEY or Domain:*\n"
    "  --allow-file FILE        diff: approvals, one a line\n"
    "  --help, --version\n"
    "\n"
    "exit status: 0 ok (check: up to date), 1 input errors (check: stale), 2 usage\n";

/* What a usage error points at: pack has a help text of its own. */
static const char *help_command = "threadlink-gen --help";

static int usage_error(const char *fmt, ...) TLG_PRINTF(1, 2);
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("threadlink-gen: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(run %s for usage)\n", help_command);
    return 2;
}

/* clang-format off */
/* Every option of every command, grouped by command; each command's table lists the ones it takes
 * (laid out by hand: the formatter would put one on a line). */
enum option_id {
    OPT_DIR, OPT_CONFIG, OPT_QUIET, OPT_BANNER_WITHOUT_VERSION, OPT_DIAGNOSTICS_FORMAT, OPT_GENERATE_COMMAND, OPT_HELP,
    OPT_HEADERS_DIR, OPT_STRICT, OPT_DEPFILE, OPT_DEPTARGET,                         /* generate family */
    OPT_LIST_OUTPUTS, OPT_EXPECT_OUTPUTS, OPT_OUTPUTS_FILE,                           /* headers */
    OPT_PROFILE, OPT_OUTPUT, OPT_ARCHIVE, OPT_COMPRESSION, OPT_COMPRESSION_LEVEL, OPT_MAX_ARCHIVE_MB, /* pack */
    OPT_PROGRESS, OPT_NO_PROGRESS, OPT_BUILD_STEP, OPT_STAMP,
    OPT_SOURCE, OPT_PARTITIONER, OPT_POST_BUILD, OPT_NO_POST_BUILD, OPT_JOBS,
    OPT_FORMAT, OPT_ALLOW, OPT_ALLOW_FILE,                                            /* diff */
    OPT_BUILD,                                                                        /* init */
};

#define COMMON_OPTIONS                                                                         \
    {"-C", true, OPT_DIR}, {"--config", true, OPT_CONFIG}, {"--quiet", false, OPT_QUIET},      \
    {"--banner-without-version", false, OPT_BANNER_WITHOUT_VERSION},                           \
    {"--diagnostics-format", true, OPT_DIAGNOSTICS_FORMAT}, {"--help", false, OPT_HELP},       \
    {"-h", false, OPT_HELP}, {"--generate-command", true, OPT_GENERATE_COMMAND}

static const args_option generate_option_table[] = {
    COMMON_OPTIONS,
    {"-o", true, OPT_HEADERS_DIR}, {"--strict", false, OPT_STRICT},
    {"--depfile", true, OPT_DEPFILE}, {"--deptarget", true, OPT_DEPTARGET},
    {"--list-outputs", false, OPT_LIST_OUTPUTS}, {"--expect-outputs", true, OPT_EXPECT_OUTPUTS},
    {"--outputs-file", true, OPT_OUTPUTS_FILE},
    {"--jobs", true, OPT_JOBS}, {"-j", true, OPT_JOBS},
    {NULL, false, 0},
};

static const args_option pack_option_table[] = {
    COMMON_OPTIONS,
    {"--profile", true, OPT_PROFILE}, {"--output", true, OPT_OUTPUT}, {"--archive", true, OPT_ARCHIVE},
    {"--compression", true, OPT_COMPRESSION}, {"--compression-level", true, OPT_COMPRESSION_LEVEL},
    {"--max-archive-mb", true, OPT_MAX_ARCHIVE_MB},
    {"--progress", false, OPT_PROGRESS}, {"--no-progress", false, OPT_NO_PROGRESS},
    {"--build-step", false, OPT_BUILD_STEP}, {"--strict", false, OPT_STRICT},
    {"--depfile", true, OPT_DEPFILE}, {"--deptarget", true, OPT_DEPTARGET}, {"--stamp", true, OPT_STAMP},
    {"--source", true, OPT_SOURCE}, {"--partitioner", true, OPT_PARTITIONER},
    {"--post-build", true, OPT_POST_BUILD}, {"--no-post-build", false, OPT_NO_POST_BUILD},
    {"--jobs", true, OPT_JOBS}, {"-j", true, OPT_JOBS},
    {NULL, false, 0},
};

static const args_option diff_option_table[] = {
    {"--format", true, OPT_FORMAT}, {"--allow", true, OPT_ALLOW}, {"--allow-file", true, OPT_ALLOW_FILE},
    {"--diagnostics-format", true, OPT_DIAGNOSTICS_FORMAT}, {"--help", false, OPT_HELP}, {"-h", false, OPT_HELP},
    {NULL, false, 0},
};
/* clang-format on */

static int args_error(args_cursor *args)
{
    int rc = usage_error("%s", args->error);
    free(args->error);
    return rc;
}

/* --diagnostics-format: 0, or the usage error's exit status. */
static int set_diagnostics_format(const char *name)
{
    diag_style style;
    if (!diag_parse_style(name, &style)) return usage_error("unknown diagnostics format '%s' (gcc, msvc, json, github)", name);
    diag_set_style(style);
    return 0;
}

/* --generate-command: 0, or the usage error's exit status. */
static int set_generate_command(const char *command)
{
    if (!command[0])
        return usage_error("--generate-command takes the command that runs generate, as the build spells it "
                           "(cmake --build build --target generate), not an empty one");
    diag_set_generate_command(command);
    return 0;
}

/* A relative *path made absolute against the working directory, before -C changes it; the joined
 * path goes into *owned. false (reported) when the working directory is unknown. */
static bool caller_relative(const char **path, char **owned)
{
    if (!*path || (*path)[0] == '/') return true;
    char *cwd = getcwd(NULL, 0); /* as long as it is (a deep tree passes PATH_MAX) */
    if (!cwd) {
        diag_error(loc_file(NULL), "cannot get the working directory: %s", strerror(errno));
        return false;
    }
    *path = *owned = path_join(cwd, *path);
    free(cwd);
    return true;
}

/* -C DIR: a directory that cannot be entered is an input error, printed in the diagnostics style
 * (a github annotation under --diagnostics-format github), with the usage exit status. */
static bool enter_dir(const char *dir)
{
    if (chdir(dir) == 0) return true;
    diag_error(loc_file(dir), "cannot enter the directory given with -C: %s", strerror(errno));
    return false;
}

static const char pack_usage[] =
    "usage: threadlink-gen pack [-C DIR] [--config FILE] [--profile NAME|all] [overrides] [--quiet]\n"
    "\n"
    "Builds content profiles into their output folders: generate first (asset ids into the\n"
    "manifests), then the catalog and the archives (or flat files) and archives.json.\n"
    "--output is relative to the project (-C); --depfile and --stamp to where pack runs.\n"
    "\n"
    "  --profile NAME|all       which profile (all in any case; default: the only one, else all)\n"
    "  --output DIR             override the output folder (one profile only)\n"
    "  --source DIR             override the source root (relative to the project; the generate\n"
    "                           pass names the catalog against it)\n"
    "  --archive none|packed    override the archive mode\n"
    "  --max-archive-mb N       override the archive size limit (whole number, 1 to 1048576)\n"
    "  --compression none|lz4|zstd  override the codec\n"
    "  --compression-level N    override the codec's level (lz4 1-12: 3 and up LZ4 HC, slower to\n"
    "                           pack, faster to load; zstd 1-19)\n"
    "  --partitioner trie|sequential  override the partitioner\n"
    "  --post-build CMD         run CMD after the build instead of the profile's post_build\n"
    "                           (repeatable, in order); --no-post-build: run none\n"
    "  --jobs N, -j N           threads that read, hash and compress (default: one per core);\n"
    "                           the output is the same for any N\n"
    "  --progress / --no-progress   progress line (default: when stderr is a terminal)\n"
    "  --build-step             as a build step: read the manifests, write nothing into the source tree\n"
    "                           (no generate pass); assets a manifest lacks are warned about\n"
    "  --strict                 --build-step: assets a manifest lacks are an error\n"
    "  --depfile FILE           write a Make/Ninja depfile (every config file, asset and folder read)\n"
    "  --deptarget NAME         the depfile's target (default: the stamp, else the first index file)\n"
    "  --stamp FILE             write FILE (its time renewed) after every successful run\n"
    "  --generate-command CMD   the command messages tell to run for generate (default: threadlink-gen\n"
    "                           generate); a build passes its own\n"
    "\n"
    "exit status: 0 ok, 1 input or build errors (an unknown profile or key too, named with the\n"
    "known ones; the previous output stays usable), 2 usage (a key without its value or with a\n"
    "malformed one, a stray argument)\n";

/* pack's options are the keys of a profile's build settings: an unknown one is an input error
 * (exit 1, as the seed's builder has it), shown with every key pack knows. */
static int unknown_key(args_cursor *args)
{
    fprintf(stderr, "threadlink-gen: error: %s\nknown keys: ", args->error);
    for (const args_option *o = args->options; o->name; o++) fprintf(stderr, "%s%s", o == args->options ? "" : ", ", o->name);
    fputc('\n', stderr);
    free(args->error);
    return 1;
}

/* A whole number from 1 to `max`, or a usage error naming the option. 0 or the usage status. */
static int parse_count(const char *option, const char *v, unsigned long max, unsigned long *out)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (!*v || *end || errno || n < 1 || n > max || !(v[0] >= '0' && v[0] <= '9')) /* no blank or sign before */
        return usage_error("%s takes a whole number from 1 to %lu, not '%s'", option, max, v);
    *out = n;
    return 0;
}

typedef VEC(const char *) arg_list;

/* pack's options into *opt; -C into *dir, --post-build commands into *hooks. -1 to go on, else
 * the exit status (--help, a usage error). */
static int parse_pack_args(int argc, char **argv, pack_options *opt, const char **dir, arg_list *hooks)
{
    args_cursor args = {.argc = argc, .argv = argv, .next = 2, .options = pack_option_table, .what = "key"};
    unsigned long n;
    for (int id, rc; (id = args_next(&args)) != ARGS_END;) {
        const char *v = args.value;
        switch (id) {
        case ARGS_ERROR: return args.unknown ? unknown_key(&args) : args_error(&args);
        case ARGS_OPERAND: return usage_error("pack takes options only; unexpected argument '%s'", v);
        case OPT_DIR: *dir = v; break;
        case OPT_CONFIG: opt->config_path = v; break;
        case OPT_PROFILE: opt->profile = v; break;
        case OPT_OUTPUT: opt->output = v; break;
        case OPT_SOURCE: opt->source = v; break;
        case OPT_ARCHIVE: opt->archive = v; break;
        case OPT_COMPRESSION: opt->compression = v; break;
        case OPT_PARTITIONER: opt->partitioner = v; break;
        case OPT_POST_BUILD: *vec_push(hooks) = v; break;
        case OPT_NO_POST_BUILD: opt->no_post_build = true; break;
        case OPT_COMPRESSION_LEVEL:
            if ((rc = parse_count("--compression-level", v, 19, &n)) != 0) return rc;
            opt->compression_level = (uint32_t)n;
            break;
        case OPT_MAX_ARCHIVE_MB:
            if ((rc = parse_count("--max-archive-mb", v, 1ul << 20, &n)) != 0) return rc;
            opt->max_archive_mb = (uint32_t)n;
            break;
        case OPT_JOBS:
            if ((rc = parse_count("--jobs", v, 1024, &n)) != 0) return rc;
            opt->jobs = (unsigned)n;
            break;
        case OPT_QUIET: opt->quiet = true; break;
        case OPT_PROGRESS: opt->progress = 1; break;
        case OPT_NO_PROGRESS: opt->progress = 0; break;
        case OPT_BUILD_STEP: opt->build_step = true; break;
        case OPT_STRICT: opt->strict = true; break;
        case OPT_DEPFILE: opt->depfile = v; break;
        case OPT_DEPTARGET: opt->deptarget = v; break;
        case OPT_STAMP: opt->stamp = v; break;
        case OPT_BANNER_WITHOUT_VERSION: opt->banner_without_version = true; break;
        case OPT_HELP: fputs(pack_usage, stdout); return 0;
        case OPT_DIAGNOSTICS_FORMAT:
            if ((rc = set_diagnostics_format(v)) != 0) return rc;
            break;
        case OPT_GENERATE_COMMAND:
            if ((rc = set_generate_command(v)) != 0) return rc;
            break;
        }
    }
    if (opt->strict && !opt->build_step)
        return usage_error("--strict belongs to --build-step (pack without it records every asset)");
    if (opt->no_post_build && hooks->count) return usage_error("%s", "--post-build and --no-post-build contradict each other");
    opt->post_build = hooks->items;
    opt->post_build_count = hooks->count;
    return -1;
}

/* pack: a thin parser over pack_run (gen/pack/pack.c). */
static int run_pack(int argc, char **argv)
{
    pack_options opt = {0};
    help_command = "threadlink-gen pack --help";
    opt.progress = -1;
    opt.generator_build = TLG_BUILD_ID;
    const char *dir = NULL;
    arg_list hooks = {0};
    int rc = parse_pack_args(argc, argv, &opt, &dir, &hooks);
    /* --depfile and --stamp name paths as the build system sees them, not relative to -C. */
    char *depfile = NULL, *stamp = NULL;
    if (rc >= 0) {
        /* --help or a usage error */
    } else if (dir && (!caller_relative(&opt.depfile, &depfile) || !caller_relative(&opt.stamp, &stamp))) {
        rc = 2;
    } else if (dir && !enter_dir(dir)) {
        rc = 2;
    } else {
        diag_set_file_prefix(dir);
        opt.project_dir = dir;
        rc = pack_run(&opt);
    }
    free(depfile);
    free(stamp);
    vec_free(&hooks);
    return rc;
}

static int run_diff(int argc, char **argv)
{
    diff_options opt = {0};
    const char *paths[2] = {NULL, NULL};
    int n = 0;
    bool diagnostics_format_given = false;
    args_cursor args = {.argc = argc, .argv = argv, .next = 2, .options = diff_option_table, .what = "diff option"};
    for (int id, rc; (id = args_next(&args)) != ARGS_END;) {
        const char *v = args.value;
        rc = -1;
        switch (id) {
        case ARGS_ERROR: rc = args_error(&args); break;
        case ARGS_OPERAND:
            if (n < 2) paths[n++] = v;
            else rc = usage_error("diff takes two paths, OLD and NEW; extra argument '%s'", v);
            break;
        case OPT_FORMAT:
            if (strcmp(v, "text") == 0) opt.format = DIFF_TEXT;
            else if (strcmp(v, "json") == 0) opt.format = DIFF_JSON;
            else if (strcmp(v, "markdown") == 0) opt.format = DIFF_MARKDOWN;
            else if (strcmp(v, "github") == 0) opt.format = DIFF_GITHUB;
            else rc = usage_error("unknown diff format '%s' (text, json, markdown, github)", v);
            break;
        case OPT_ALLOW: *vec_push(&opt.allow) = v; break;
        case OPT_ALLOW_FILE: opt.allow_file = v; break;
        case OPT_HELP:
            fputs(usage, stdout);
            rc = 0;
            break;
        case OPT_DIAGNOSTICS_FORMAT:
            if (set_diagnostics_format(v) != 0) rc = 2;
            diagnostics_format_given = true;
            break;
        }
        if (rc >= 0) {
            vec_free(&opt.allow);
            return rc;
        }
    }
    /* A github report with gcc-style errors beside it would leave the errors out of the annotations. */
    if (opt.format == DIFF_GITHUB && !diagnostics_format_given) diag_set_style(DIAG_GITHUB);
    if (n != 2) return usage_error("diff needs two paths: OLD and NEW (manifest files or directories)");
    opt.old_path = paths[0];
    opt.new_path = paths[1];
    opt.extras = tlg_diff_extras;
    int rc = diff_run(&opt);
    vec_free(&opt.allow);
    return rc;
}

static const args_option init_option_table[] = {
    {"--build", true, OPT_BUILD},
    {"--help", false, OPT_HELP},
    {"-h", false, OPT_HELP},
    {NULL, false, 0},
};

/* `s` as one shell word: as it is when it needs no quoting, else in single quotes. */
static char *shell_word(const char *s)
{
    bool plain = *s != 0;
    for (const char *p = s; *p && plain; p++) plain = ascii_is_word((unsigned char)*p) || strchr("/.-+@%=:,", *p);
    if (plain) return xstrdup(s);
    buf b = {0};
    buf_putc(&b, '\'');
    for (const char *p = s; *p; p++) {
        if (*p == '\'') buf_puts(&b, "'\\''");
        else buf_putc(&b, *p);
    }
    buf_putc(&b, '\'');
    return b.data;
}

/* What to type next, for the build system chosen. */
static void print_next_steps(const char *dir, init_build build)
{
    char *name = init_project_name(dir), *word = shell_word(dir);
    static const char *const builds[] = {
        /* (each in parentheses: clang's -Wstring-concatenation) */
        ("meson setup build && meson compile -C build && ./build/%s\n"
         "(threadlink installed, PKG_CONFIG_PATH=<its prefix>/lib/<multiarch>/pkgconfig if pkg-config does\n"
         "not look there, or in %s/subprojects/threadlink: a clone, a link or a .wrap)\n"),
        ("cmake -S . -B build && cmake --build build && ./build/%s\n"
         "(threadlink installed, -DCMAKE_PREFIX_PATH=<its prefix> if CMake does not look there, or its\n"
         "source in %s/threadlink: a clone or a link)\n"),
        ("make && ./build/%s\n"
         "(threadlink installed, or make THREADLINK_PREFIX=<its prefix>)\n"),
    };
    printf("threadlink-gen init: a %s project in %s; next:\n  cd %s\n  ", init_build_name(build), dir, word);
    printf(builds[build], name, word); /* the make line names no folder: the extra argument is unused */
    free(name);
    free(word);
}

/* init [--build meson|cmake|make] DIR: the project written, then a generate pass over it (its
 * manifests and generated/ headers, so that its first build records nothing). */
static int run_init(int argc, char **argv)
{
    help_command = "threadlink-gen --help";
    init_build build = INIT_MESON;
    const char *dir = NULL;
    args_cursor args = {.argc = argc, .argv = argv, .next = 2, .options = init_option_table, .what = "option"};
    for (int id; (id = args_next(&args)) != ARGS_END;) {
        if (id == ARGS_ERROR) return args_error(&args);
        if (id == OPT_HELP) {
            fputs(usage, stdout);
            return 0;
        }
        if (id == OPT_BUILD && !init_parse_build(args.value, &build))
            return usage_error("--build takes meson, cmake or make, not '%s'", args.value);
        if (id == ARGS_OPERAND && dir) return usage_error("init takes one folder; extra argument '%s'", args.value);
        if (id == ARGS_OPERAND) dir = args.value;
    }
    if (!dir) return usage_error("init needs the folder of the new project: threadlink-gen init [--build meson|cmake|make] DIR");
    if (!init_write_project(dir, build) || !enter_dir(dir)) return 1;
    gen_options opt = {.command = GEN_GENERATE, .quiet = true, .generator_build = TLG_BUILD_ID};
    diag_set_file_prefix(dir);
    int rc = gen_run(&opt, NULL);
    if (rc == 0) print_next_steps(dir, build);
    return rc;
}

/* The outputs named by --expect-outputs (kept here, reachable until exit). */
static name_list expected_outputs;

/* --expect-outputs LIST: its ';'-separated names (CMake's list separator; `';'.join(names)` in
 * Meson), empty ones skipped. */
static void add_expected_outputs(const char *list)
{
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ";");
        if (n) *vec_push(&expected_outputs) = xstrndup(p, n);
        p += n;
        if (*p) p++;
    }
}

/* A pack lives for seconds at most, a generate, headers, check or diff less: memory they free is
 * kept for their next allocations (generate at 100,000 entries: 48 -> 45.5 ms, no munmap and its
 * TLB flush on both cores per freed big block; 12 MB more peak memory).
 * glibc's defaults give every block over 128 KiB (growing to 32 MiB) its own mapping and hand
 * freed heap back to the system, so a pack's buffers come as fresh pages each time: a page fault
 * per 4 KiB and an unmapping per buffer, while the pool's threads run. Measured on one-file edits
 * of a 1 GB tree (2-core VM): 10 of 25 took 40-90 ms longer, 5 of 25 with these settings. */
static void keep_freed_memory(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

/* The options that belong together: 0, or the usage error's exit status. */
static int check_generate_options(gen_options *opt, const char *cmd)
{
    if (opt->command != GEN_HEADERS &&
        (opt->headers_dir || opt->strict || opt->list_outputs || opt->expect_outputs_given || opt->outputs_file))
        return usage_error(
            "-o, --strict, --list-outputs, --expect-outputs and --outputs-file belong to the headers command, not '%s'", cmd);
    if (opt->list_outputs && (opt->depfile || opt->expect_outputs_given || opt->outputs_file))
        return usage_error("--list-outputs writes nothing: it takes no --depfile, --expect-outputs or --outputs-file");
    if (opt->expect_outputs_given && opt->outputs_file)
        return usage_error("--expect-outputs and --outputs-file are two ways to declare the outputs: give one");
    if (opt->list_outputs && !opt->headers_dir) opt->headers_dir = "."; /* the list is relative to it */
    if (opt->command == GEN_HEADERS && !opt->headers_dir) return usage_error("headers needs -o DIR");
    return 0;
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
    if (strcmp(cmd, "diff") == 0) {
        xmalloc_use_huge_pages(), keep_freed_memory(); /* two whole manifest sets, once */
        return run_diff(argc, argv);
    }
    if (strcmp(cmd, "init") == 0) return run_init(argc, argv);
    if (strcmp(cmd, "pack") == 0) {
        keep_freed_memory(); /* not for watch, which runs for hours */
        return run_pack(argc, argv);
    }
    if (strcmp(cmd, "generate") == 0) opt.command = GEN_GENERATE;
    else if (strcmp(cmd, "headers") == 0) opt.command = GEN_HEADERS;
    else if (strcmp(cmd, "check") == 0) opt.command = GEN_CHECK;
    else if (strcmp(cmd, "watch") == 0) watching = true;
    else {
        static const char *const commands[] = {"init", "generate", "headers", "check", "diff", "pack", "watch", NULL};
        const char *near = suggest_nearest(cmd, strlen(cmd), commands, SIZE_MAX);
        if (near) return usage_error("unknown command '%s' (did you mean '%s'?)", cmd, near);
        return usage_error("unknown command '%s'", cmd);
    }
    if (!watching) xmalloc_use_huge_pages(), keep_freed_memory(); /* one run over a whole project (watch runs for hours) */

    args_cursor args = {.argc = argc, .argv = argv, .next = 2, .options = generate_option_table, .what = "option"};
    for (int id, rc; (id = args_next(&args)) != ARGS_END;) {
        const char *v = args.value;
        switch (id) {
        case ARGS_ERROR: return args_error(&args);
        case ARGS_OPERAND: return usage_error("%s takes options only; unexpected argument '%s'", cmd, v);
        case OPT_DIR: dir = v; break;
        case OPT_CONFIG: opt.config_path = v; break;
        case OPT_HEADERS_DIR: opt.headers_dir = v; break;
        case OPT_STRICT: opt.strict = true; break;
        case OPT_DEPFILE: opt.depfile = v; break;
        case OPT_DEPTARGET: opt.deptarget = v; break;
        case OPT_LIST_OUTPUTS: opt.list_outputs = true; break;
        case OPT_EXPECT_OUTPUTS:
            opt.expect_outputs_given = true;
            add_expected_outputs(v);
            break;
        case OPT_OUTPUTS_FILE: opt.outputs_file = v; break;
        case OPT_JOBS: {
            unsigned long n;
            if ((rc = parse_count("--jobs", v, 1024, &n)) != 0) return rc;
            opt.jobs = (unsigned)n;
            break;
        }
        case OPT_QUIET: opt.quiet = true; break;
        case OPT_BANNER_WITHOUT_VERSION: opt.banner_without_version = true; break;
        case OPT_HELP: fputs(usage, stdout); return 0;
        case OPT_DIAGNOSTICS_FORMAT:
            if ((rc = set_diagnostics_format(v)) != 0) return rc;
            break;
        case OPT_GENERATE_COMMAND:
            if ((rc = set_generate_command(v)) != 0) return rc;
            break;
        }
    }
    int refused = check_generate_options(&opt, cmd);
    if (refused) return refused;
    opt.expect_outputs = (const char *const *)expected_outputs.items;
    opt.expect_output_count = expected_outputs.count;
    /* -o and --depfile name paths as the caller sees them (a build system's working directory),
     * not relative to -C. */
    char *headers_dir = NULL, *depfile = NULL, *outputs_file = NULL;
    if (dir && (!caller_relative(&opt.headers_dir, &headers_dir) || !caller_relative(&opt.depfile, &depfile) ||
                !caller_relative(&opt.outputs_file, &outputs_file))) {
        free(headers_dir);
        free(depfile);
        return 2;
    }
    if (dir && !enter_dir(dir)) return 2;
    diag_set_file_prefix(dir);
    opt.project_dir = dir;
    int rc = watching ? watch_run(&opt) : gen_run(&opt, NULL);
    free(headers_dir);
    free(depfile);
    free(outputs_file);
    return rc;
}
