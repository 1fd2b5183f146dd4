/* Benchmark of threadlink-gen against the schema compilers users already run: flatc --cpp and
 * protoc-c generating one enum of the same size. For 10k, 100k and 1M entries (spread over eight
 * injectors): full generation (no manifest yet), a no-op run (everything up to date), peak memory;
 * then an edit (one declaration added or removed, then generate), check and diff.
 * Prints medians and ratios (wall time, and CPU time, user + system, which a shared machine moves
 * less); never fails on time.
 *
 *   bench_gen THREADLINK_GEN [max_entries]   */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct run { double seconds, cpu_seconds; long peak_kb; int status; } run;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs argv in dir with stdout/stderr discarded; wall time and the child's peak RSS. */
static run spawn(const char *dir, char *const argv[])
{
    run r = {0, 0, 0, -1};
    double t0 = now();
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(dir) != 0) _exit(126);
        freopen("/dev/null", "w", stdout);
        freopen("/dev/null", "w", stderr);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    r.seconds = now() - t0;
    r.cpu_seconds = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    r.peak_kb = ru.ru_maxrss;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void write_project(const char *dir, long n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/injectors", dir);
    mkdir(dir, 0755);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/threadlink.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{\"domains\": [{\"name\": \"Bench.Ids\", \"output\": \"bench_ids.h\"}]}\n", f);
    fclose(f);
    static const char *const scopes[8] = {"User", "Audio", "Combat", "Items", "Maps", "Net", "Quests", "Ui"};
    for (int s = 0; s < 8; s++) {
        snprintf(path, sizeof path, "%s/injectors/Bench.Ids.%s.txt", dir, scopes[s]);
        f = fopen(path, "w");
        for (long i = s; i < n; i += 8) fprintf(f, "Entry%ldName\n", i);
        fclose(f);
    }
    /* The same enum for the baselines. */
    snprintf(path, sizeof path, "%s/bench.fbs", dir);
    f = fopen(path, "w");
    fputs("namespace bench;\nenum BenchIds : int {\n", f);
    for (long i = 0; i < n; i++) fprintf(f, "  Entry%ldName%s\n", i, i + 1 < n ? "," : "");
    fputs("}\ntable T { id: BenchIds; }\nroot_type T;\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/bench.proto", dir);
    f = fopen(path, "w");
    fputs("syntax = \"proto3\";\npackage bench;\nenum BenchIds {\n", f);
    for (long i = 0; i < n; i++) fprintf(f, "  Entry%ldName = %ld;\n", i, i);
    fputs("}\n", f);
    fclose(f);
}

static void clean_outputs(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/generated' '%s/out'", dir, dir);
    if (system(cmd) != 0) exit(1);
}

/* A developer's edit of a generated project: one declaration added to an injector, then removed
 * again, each followed by a generate (the manifest read, the change recorded, both outputs written). */
static bool bench_edit(char *gen, const char *dir, int runs)
{
    char *gen_argv[] = {gen, "generate", "--quiet", NULL};
    char path[128];
    struct stat st;
    double edit[14];
    snprintf(path, sizeof path, "%s/injectors/Bench.Ids.Net.txt", dir);
    if (spawn(dir, gen_argv).status != 0 || stat(path, &st) != 0) return false;
    for (int r = 0; r < runs; r++) {
        FILE *f = fopen(path, "a");
        if (!f || fputs("EditedEntry\n", f) < 0 || fclose(f) != 0) return false;
        run added = spawn(dir, gen_argv);
        if (truncate(path, st.st_size) != 0) return false;
        run removed = spawn(dir, gen_argv);
        if (added.status != 0 || removed.status != 0) return false;
        edit[2 * r] = added.seconds * 1e3;
        edit[2 * r + 1] = removed.seconds * 1e3;
    }
    printf("%9s edit (a declaration added or removed, then generate) %.1f ms\n", "", median(edit, 2 * runs));
    return true;
}

/* check with nothing changed (with the stamp a developer has, and without it, as on a fresh CI
 * clone), and diff of two manifests 1,000 changes apart; false if the changed copy cannot be made. */
static bool bench_check_and_diff(char *gen, const char *dir, int runs)
{
    char *gen_argv[] = {gen, "generate", "--quiet", NULL};
    double chk[7], chk_cold[7], dif[7];
    char *check_argv[] = {gen, "check", NULL};
    char stamp_path[128];
    snprintf(stamp_path, sizeof stamp_path, "%s/generated/.threadlink-gen.stamp", dir);
    spawn(dir, gen_argv);
    for (int r = 0; r < runs; r++) chk[r] = spawn(dir, check_argv).seconds * 1e3;
    for (int r = 0; r < runs; r++) {
        unlink(stamp_path);
        chk_cold[r] = spawn(dir, check_argv).seconds * 1e3;
    }
    char changed[80], cmd[4800];
    snprintf(changed, sizeof changed, "%s-changed", dir);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s' && cd '%s' && sed -i '1,500d' injectors/Bench.Ids.User.txt && "
             "seq 1 500 | sed 's/^/Added/' >> injectors/Bench.Ids.Audio.txt && '%s' generate --quiet",
             changed, dir, changed, changed, gen);
    if (system(cmd) != 0) return false;
    char old_m[128], new_m[128];
    snprintf(old_m, sizeof old_m, "%s/generated", dir);
    snprintf(new_m, sizeof new_m, "%s/generated", changed);
    char *diff_argv[] = {gen, "diff", old_m, new_m, NULL};
    for (int r = 0; r < runs; r++) dif[r] = spawn(dir, diff_argv).seconds * 1e3;
    printf("%9s check %.1f ms (stamp), %.1f ms (no stamp); diff with 1,000 changes %.1f ms\n", "",
           median(chk, runs), median(chk_cold, runs), median(dif, runs));
    fflush(stdout);
    return true;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_gen THREADLINK_GEN [max_entries]\n");
        return 2;
    }
    char gen[4096];
    if (!realpath(argv[1], gen)) {
        perror(argv[1]);
        return 2;
    }
    long max_entries = argc > 2 ? atol(argv[2]) : 1000000;
    bool have_flatc = system("command -v flatc >/dev/null 2>&1") == 0;
    bool have_protoc = system("command -v protoc-c >/dev/null 2>&1") == 0;
    char root[] = "/tmp/tlg-bench-XXXXXX";
    if (!mkdtemp(root)) return 1;

    printf("threadlink-gen benchmark (median of runs; ratio = baseline / ours, > 1 means we are faster)\n");
    printf("%9s %12s %12s %12s %10s %12s %8s %12s %8s\n", "entries", "full ms", "no-op ms", "peak MB",
           "B/entry", "flatc ms", "ratio", "protoc-c ms", "ratio");
    static const long sizes[] = {10000, 100000, 1000000};
    for (int si = 0; si < 3; si++) {
        long n = sizes[si];
        if (n > max_entries) break;
        int runs = n >= 1000000 ? 3 : 7;
        char dir[64]; /* root (21 bytes), "/n" and the count */
        snprintf(dir, sizeof dir, "%s/n%ld", root, n);
        write_project(dir, n);
        double full[7], noop[7], flat[7], proto[7], full_cpu[7], noop_cpu[7], flat_cpu[7];
        long peak = 0;
        char *gen_argv[] = {gen, "generate", "--quiet", NULL};
        for (int r = 0; r < runs; r++) {
            clean_outputs(dir);
            run a = spawn(dir, gen_argv);
            if (a.status != 0) {
                fprintf(stderr, "threadlink-gen failed (%d) at %ld entries\n", a.status, n);
                return 1;
            }
            full[r] = a.seconds * 1e3;
            full_cpu[r] = a.cpu_seconds * 1e3;
            if (a.peak_kb > peak) peak = a.peak_kb;
            run b = spawn(dir, gen_argv); /* nothing changed since the previous run */
            noop[r] = b.seconds * 1e3;
            noop_cpu[r] = b.cpu_seconds * 1e3;
            if (b.peak_kb > peak) peak = b.peak_kb;
        }
        double flat_ms = 0, proto_ms = 0, flat_cpu_ms = 0;
        if (have_flatc) {
            char *argv_f[] = {"flatc", "--cpp", "-o", "out", "bench.fbs", NULL};
            for (int r = 0; r < runs; r++) {
                run f = spawn(dir, argv_f);
                flat[r] = f.seconds * 1e3;
                flat_cpu[r] = f.cpu_seconds * 1e3;
            }
            flat_ms = median(flat, runs);
            flat_cpu_ms = median(flat_cpu, runs);
        }
        if (have_protoc) {
            mkdir(strcat(strcpy((char[4300]){0}, dir), "/out"), 0755);
            char *argv_p[] = {"protoc-c", "--c_out=out", "bench.proto", NULL};
            for (int r = 0; r < runs; r++) proto[r] = spawn(dir, argv_p).seconds * 1e3;
            proto_ms = median(proto, runs);
        }
        double full_ms = median(full, runs), noop_ms = median(noop, runs);
        printf("%9ld %12.1f %12.1f %12.1f %10.0f %12.1f %7.2fx %12.1f %7.2fx\n", n, full_ms, noop_ms,
               peak / 1024.0, peak * 1024.0 / (double)n, flat_ms, flat_ms / full_ms, proto_ms,
               proto_ms / full_ms);
        double full_cpu_ms = median(full_cpu, runs);
        printf("%9s cpu: full %.1f ms, no-op %.1f ms, flatc %.1f ms (ratio %.2fx)\n", "", full_cpu_ms, median(noop_cpu, runs),
               flat_cpu_ms, flat_cpu_ms / full_cpu_ms);
        fflush(stdout);

        if (!bench_edit(gen, dir, runs) || !bench_check_and_diff(gen, dir, runs)) return 1;
    }
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : 1;
}
