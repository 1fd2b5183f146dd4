/* threadlink-gen: the command line. Everything it does is a library call (generate.h). */
#include "generate.h"
#include "tlg_version.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: threadlink-gen <command> [options]\n"
    "\n"
    "commands:\n"
    "  generate   run every domain: update manifests and the generated directory\n"
    "  headers    write the headers into -o DIR (the build step); manifests are only read\n"
    "  check      exit 1 and name the files that generate would change; writes nothing\n"
    "\n"
    "options:\n"
    "  -C DIR                   run as if started in DIR\n"
    "  --config FILE            the project config (default: threadlink.json)\n"
    "  -o DIR                   headers: the output directory\n"
    "  --strict                 headers: entries missing from a manifest are an error\n"
    "  --quiet                  no summary\n"
    "  --banner-without-version leave the version out of banners (golden tests)\n"
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

int main(int argc, char **argv)
{
    gen_options opt = {0};
    const char *dir = NULL;
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
        puts("threadlink-gen " TLG_VERSION);
        return 0;
    }
    if (strcmp(cmd, "generate") == 0) opt.command = GEN_GENERATE;
    else if (strcmp(cmd, "headers") == 0) opt.command = GEN_HEADERS;
    else if (strcmp(cmd, "check") == 0) opt.command = GEN_CHECK;
    else return usage_error("unknown command '%s'", cmd);

    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "-C") == 0 && has_value) dir = argv[++i];
        else if (strcmp(a, "--config") == 0 && has_value) opt.config_path = argv[++i];
        else if (strcmp(a, "-o") == 0 && has_value) opt.headers_dir = argv[++i];
        else if (strcmp(a, "--strict") == 0) opt.strict = true;
        else if (strcmp(a, "--quiet") == 0) opt.quiet = true;
        else if (strcmp(a, "--banner-without-version") == 0) opt.banner_without_version = true;
        else if (strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (a[0] == '-' && (strcmp(a, "-C") == 0 || strcmp(a, "--config") == 0 || strcmp(a, "-o") == 0))
            return usage_error("option '%s' needs a value", a);
        else return usage_error("unknown option '%s'", a);
    }
    if (opt.command == GEN_HEADERS && !opt.headers_dir) return usage_error("%s needs -o DIR", "headers");
    if (opt.command != GEN_HEADERS && (opt.headers_dir || opt.strict))
        return usage_error("-o and --strict belong to the headers command, not '%s'", cmd);
    if (dir && chdir(dir) != 0) {
        fprintf(stderr, "threadlink-gen: error: cannot enter %s: %s\n", dir, strerror(errno));
        return 2;
    }
    return gen_run(&opt, NULL);
}
