/* A real kill test of save.h: a child process commits generations of a three-file save in a loop
   over the POSIX backend; the parent kills it with SIGKILL at a random moment, reopens the store
   and checks that the save reads as one complete generation (every file carries the generation
   number the manifest gives, with its exact bytes) and that no committed generation went back.
   Bounded: KILLS rounds (default 300) or 45 seconds, whichever comes first.
   Usage: test_save_kill [KILLS] */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, nanosleep, kill */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <threadlink/save.h>

static const char *const file_ids[3] = { "header", "player", "world" };
static const size_t file_sizes[3] = { 64, 3000, 70000 };

/* The bytes of a file of generation g: its number, then a pattern of (g, file, position). */
static void fill(unsigned char *buf, size_t size, uint64_t g, int file) {
    memcpy(buf, &g, sizeof g);
    for (size_t i = sizeof g; i < size; i++) buf[i] = (unsigned char)(g * 31 + (uint64_t)file * 7 + i);
}

static void quiet(void *user, const tl_log_record *record) {
    (void)user;
    (void)record;
}

static tl_save_store *open_store(const char *root) {
    tl_save_store_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.root = root;
    desc.logger.sink = quiet;
    return tl_save_store_open(&desc, NULL);
}

static void child_loop(const char *root) {
    static unsigned char buf[70000];
    tl_save_store *store = open_store(root);
    if (!store) _exit(3);
    for (;;) {
        tl_save_info info;
        tl_save_txn txn;
        uint64_t g = tl_save_stat(store, "slot", &info) == TL_SAVE_OK ? info.generation + 1 : 1;
        if (tl_save_begin(store, "slot", &txn) != TL_SAVE_OK) _exit(4);
        for (int f = 0; f < 3; f++) {
            fill(buf, file_sizes[f], g, f);
            if (tl_save_txn_write(&txn, file_ids[f], buf, file_sizes[f]) != TL_SAVE_OK) _exit(5);
        }
        tl_save_txn_set_timestamp(&txn, (int64_t)g);
        if (tl_save_txn_commit(&txn) != TL_SAVE_OK) _exit(6);
    }
}

/* 0 when the save is absent or one complete generation; its number into *g. */
static int check(const char *root, uint64_t *g) {
    static unsigned char got[70000], want[70000];
    tl_save_store *store = open_store(root);
    tl_save_info info;
    if (!store) return fprintf(stderr, "reopen failed\n"), 1;
    tl_save_result r = tl_save_stat(store, "slot", &info);
    *g = 0;
    if (r == TL_SAVE_NOT_FOUND) {
        tl_save_store_close(store);
        return 0;
    }
    if (r != TL_SAVE_OK) return fprintf(stderr, "stat: %s\n", tl_save_result_message(r)), 1;
    if (info.file_count != 3 || info.timestamp != (int64_t)info.generation)
        return fprintf(stderr, "generation %llu: %u files, timestamp %lld\n",
                       (unsigned long long)info.generation, info.file_count, (long long)info.timestamp), 1;
    for (int f = 0; f < 3; f++) {
        size_t n = 0;
        r = tl_save_read(store, "slot", file_ids[f], got, sizeof got, &n);
        fill(want, file_sizes[f], info.generation, f);
        if (r != TL_SAVE_OK || n != file_sizes[f] || memcmp(got, want, n) != 0)
            return fprintf(stderr, "generation %llu: file %s is not that generation's (%s)\n",
                           (unsigned long long)info.generation, file_ids[f], tl_save_result_message(r)), 1;
    }
    *g = info.generation;
    tl_save_store_close(store);
    return 0;
}

int main(int argc, char **argv) {
    int kills = argc > 1 ? atoi(argv[1]) : 300, done = 0;
    char dir[] = "/tmp/tl-save-kill-XXXXXX", root[64], cmd[128];
    uint64_t last = 0, g = 0;
    time_t start = time(NULL);
    if (!mkdtemp(dir)) return 1;
    snprintf(root, sizeof root, "%s/saves", dir);
    srand((unsigned)getpid());
    int failed = 0;
    while (done < kills && time(NULL) - start < 45 && !failed) {
        pid_t pid = fork();
        if (pid < 0) return 1;
        if (pid == 0) child_loop(root);
        struct timespec t = { 0, (long)(rand() % 20000) * 1000 }; /* 0 to 20 ms */
        nanosleep(&t, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        if (!WIFSIGNALED(status)) {
            fprintf(stderr, "the child stopped by itself (status %d)\n", status);
            failed = 1;
            break;
        }
        failed = check(root, &g);
        if (!failed && g < last) {
            fprintf(stderr, "generation went back from %llu to %llu\n", (unsigned long long)last,
                    (unsigned long long)g);
            failed = 1;
        }
        last = g;
        done++;
    }
    printf("%d kills, last generation read %llu: %s\n", done, (unsigned long long)last,
           failed ? "FAILED" : "every reopen read one complete generation");
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) return 1;
    /* Commits must have happened between the kills, or the test tested nothing. */
    return failed || done < 50 || last < 20 ? 1 : 0;
}
