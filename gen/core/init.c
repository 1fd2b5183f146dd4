#include "core/init.h"

#include "base/diag.h"
#include "base/fsio.h"
#include "base/output.h"
#include "base/util.h"

#include <errno.h>
#include <string.h>

static const char *const build_names[] = {"meson", "cmake", "make"}; /* in init_build's order */

bool init_parse_build(const char *name, init_build *out)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, build_names[i]) == 0) {
            *out = (init_build)i;
            return true;
        }
    return false;
}

const char *init_build_name(init_build build) { return build_names[build]; }

/* Names the templates or the build systems give targets of their own: an executable of one of
 * them does not configure (Meson: "Multiple producers for Ninja target"). */
static bool target_name_taken(const char *name)
{
    static const char *const taken[] = {"generate",  "check", "all",  "clean",   "install",     "uninstall", "test",
                                        "benchmark", "dist",  "help", "package", "reconfigure", "depend"};
    for (size_t i = 0; i < sizeof taken / sizeof *taken; i++)
        if (ascii_ieq(name, strlen(name), taken[i], strlen(taken[i]))) return true;
    return strncmp(name, "meson-", 6) == 0 || strncmp(name, "threadlink-", 11) == 0;
}

char *init_project_name(const char *dir)
{
    char *resolved = fs_resolve(dir, false);
    const char *base = path_basename(resolved ? resolved : dir);
    buf name = {0};
    for (const char *p = base; *p; p++)
        if (ascii_is_word((unsigned char)*p) || *p == '-') buf_putc(&name, *p);
    free(resolved);
    if (!name.len || name.data[0] == '-' || (name.data[0] >= '0' && name.data[0] <= '9')) {
        buf_free(&name);
        return xstrdup("game");
    }
    if (target_name_taken(name.data)) buf_puts(&name, "-game"); /* a folder named "generate" */
    return name.data;
}

/* Where a template goes in the project: NULL for another build system's file. */
static char *destination(const char *path, init_build build)
{
    const char *slash = strchr(path, '/');
    if (strcmp(path, "gitignore") == 0) return xstrdup(".gitignore");
    for (int i = 0; slash && i < 3; i++) {
        size_t n = strlen(build_names[i]);
        if ((size_t)(slash - path) == n && strncmp(path, build_names[i], n) == 0)
            return i == (int)build ? xstrdup(slash + 1) : NULL;
    }
    return xstrdup(path);
}

/* The template's bytes with every @NAME@ replaced by the project's name. */
static void substitute(buf *out, const tlg_embedded_file *f, const char *name)
{
    static const char token[] = "@NAME@";
    const char *p = f->data, *end = f->data + f->size;
    while (p < end) {
        const char *at = end - p >= 6 ? memchr(p, '@', (size_t)(end - p)) : NULL;
        if (at && end - at >= 6 && memcmp(at, token, 6) == 0) {
            buf_put(out, p, (size_t)(at - p));
            buf_puts(out, name);
            p = at + 6;
        } else {
            size_t n = at ? (size_t)(at - p) + 1 : (size_t)(end - p);
            buf_put(out, p, n);
            p += n;
        }
    }
}

/* A project goes into a new or empty folder only: nothing of the user's is ever replaced. */
static bool folder_usable(const char *dir)
{
    fs_kind k = fs_kind_follow(dir);
    if (k == FS_MISSING && errno == ENOENT) return true;
    if (k != FS_DIR) {
        if (k == FS_MISSING)
            diag_error(loc_file(dir), "init writes a new project into a folder, and this path cannot be reached: %s",
                       fs_path_failure(dir, errno));
        else diag_error(loc_file(dir), "init writes a new project into a folder, and this is not a folder");
        return false;
    }
    name_list names = {0};
    bool ok = fs_list_dir(dir, &names);
    if (!ok) diag_error(loc_file(dir), "cannot list the folder: %s", strerror(errno));
    else if (names.count)
        diag_error(
            loc_file(dir),
            "the folder is not empty (%zu entr%s, such as '%s'): init writes a new project only into a new or empty folder, so that nothing of yours is replaced",
            names.count, names.count == 1 ? "y" : "ies", names.items[0]);
    ok = ok && names.count == 0;
    name_list_free(&names);
    return ok;
}

bool init_write_project(const char *dir, init_build build)
{
    if (!folder_usable(dir)) return false;
    char *name = init_project_name(dir);
    output_set set = {.mode = OUTPUT_WRITE};
    bool ok = true;
    for (size_t i = 0; i < tlg_init_file_count && ok; i++) {
        char *rel = destination(tlg_init_files[i].path, build);
        if (!rel) continue;
        out_file *o = output_begin_below(&set, dir, rel);
        substitute(&o->chunk, &tlg_init_files[i], name);
        ok = output_end(o);
        free(rel);
    }
    ok = ok && output_commit(&set);
    if (!ok) output_abort(&set);
    output_set_free(&set);
    free(name);
    return ok;
}
