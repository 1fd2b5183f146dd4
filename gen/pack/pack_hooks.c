/* A profile's post-build commands, run after its build is in place, in order, each through
 * /bin/sh in the project root. Each gets the build's result as JSON (pack.h) on its standard
 * input, and the path of a file holding the same text in TL_CONTENT_RESULT, beside the
 * TL_CONTENT_PROFILE, TL_CONTENT_OUTPUT and TL_CONTENT_ARCHIVE variables. The text goes through
 * a temporary file rather than a pipe, so that a command that does not read it never blocks the
 * build, and one that reads it twice (stdin, then the file) sees the same bytes. */
#include "pack/pack_internal.h"

#include "base/fsio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The result in a new temporary file; its path (to unlink) in *path. false after reporting. */
static bool write_result_file(const content_profile *pr, const buf *result, char **path)
{
    const char *tmp = getenv("TMPDIR");
    *path = xasprintf("%s/threadlink-pack-result-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    int fd = mkstemp(*path);
    bool ok = fd >= 0;
    for (size_t at = 0; ok && at < result->len;) {
        ssize_t n = write(fd, result->data + at, result->len - at);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        at += ok ? (size_t)n : 0;
    }
    if (fd >= 0 && close(fd) != 0) ok = false;
    if (!ok) {
        content_profile_error(pr, "post_build", "cannot write the build result for the post-build commands (%s): %s", *path,
                              strerror(errno));
        if (fd >= 0) unlink(*path);
        free(*path);
        *path = NULL;
    }
    return ok;
}

/* In the child: the project root, the variables, the result as standard input, then the shell. */
static void exec_hook(const content_profile *pr, const char *project_root, const char *result_path, const char *cmd)
{
    if (project_root && strcmp(project_root, ".") != 0 && chdir(project_root) != 0) _exit(127);
    int in = open(result_path, O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0) _exit(127);
    if (in != 0) close(in);
    setenv("TL_CONTENT_PROFILE", pr->name, 1);
    setenv("TL_CONTENT_OUTPUT", pr->output, 1);
    setenv("TL_CONTENT_ARCHIVE", content_archive_name(pr->archive), 1);
    setenv("TL_CONTENT_RESULT", result_path, 1);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}

static bool run_hook(const content_profile *pr, const char *project_root, const char *result_path, const char *cmd)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        content_profile_error(pr, "post_build", "cannot start the post-build command: %s", strerror(errno));
        return false;
    }
    if (pid == 0) exec_hook(pr, project_root, result_path, cmd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
    content_profile_error(pr, "post_build",
                          "post-build command of profile \"%s\" failed (%s %d): %s; the output is left in place", pr->name,
                          WIFEXITED(status) ? "exit status" : "signal",
                          WIFEXITED(status)     ? WEXITSTATUS(status)
                          : WIFSIGNALED(status) ? WTERMSIG(status)
                                                : -1,
                          cmd);
    return false;
}

bool pack_run_hooks(const content_profile *pr, const char *project_root, const buf *result)
{
    if (!pr->post_build.count) return true;
    char *path = NULL;
    /* An absolute path: the commands run in the project root. */
    if (!write_result_file(pr, result, &path)) return false;
    char *abs = path[0] == '/' ? xstrdup(path) : NULL;
    if (!abs) {
        char *cwd = getcwd(NULL, 0);
        abs = cwd ? path_join(cwd, path) : xstrdup(path);
        free(cwd);
    }
    bool ok = true;
    for (size_t i = 0; ok && i < pr->post_build.count; i++) ok = run_hook(pr, project_root, abs, pr->post_build.items[i]);
    unlink(path);
    free(path);
    free(abs);
    return ok;
}
