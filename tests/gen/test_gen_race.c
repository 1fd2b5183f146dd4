/* Confinement while the tree changes under the generator: a directory below the generated
 * directory that another process swaps for a symbolic link (to a directory outside) in the middle
 * of a run must never be written through. The run may fail (a located error) or write into the
 * real directory; no file may ever appear outside. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gen_fixture.h"
#include "base/output.h"
#include "pack/pack.h"
#include "base/stamp.h"

#define TRIES 2000
#define TIME_LIMIT_SECONDS 45.0

/* The swapper: while `run` is set, exchanges generated/sub (the real directory) and
 * generated/alt (a link to ../outside) as fast as it can; `swaps` counts the exchanges. */
typedef struct swapper {
    atomic_int run, quit, idle;
    atomic_long swaps;
} swapper;

static void *swap_loop(void *arg)
{
    swapper *s = arg;
    while (!atomic_load(&s->quit)) {
        if (!atomic_load(&s->run)) {
            atomic_store(&s->idle, 1);
            sched_yield();
            continue;
        }
        atomic_store(&s->idle, 0);
        if (renameat2(AT_FDCWD, "generated/sub", AT_FDCWD, "generated/alt", RENAME_EXCHANGE) == 0) atomic_fetch_add(&s->swaps, 1);
    }
    return NULL;
}

static void swapper_pause(swapper *s)
{
    atomic_store(&s->run, 0);
    while (!atomic_load(&s->idle)) sched_yield();
}

/* Removes every file in `dir` (flat), returning how many there were. */
static int empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char *path = path_join(dir, e->d_name);
        unlink(path);
        free(path);
        n++;
    }
    closedir(d);
    return n;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_race_swapped_directory_is_never_written_through(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{\n  \"domains\": [\n    { \"name\": \"Test.Ids\", \"output\": \"sub/x.h\" }\n  ]\n}\n");
    fx_write("injectors/Test.Ids.User.txt", "Alpha\nBeta\n");
    assert_int_equal(mkdir("outside", 0755), 0);
    assert_int_equal(fx_generate(f), 0); /* generated/sub exists, with the manifest */
    assert_int_equal(symlink("../outside", "generated/alt"), 0);
    swapper s = {0};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, swap_loop, &s), 0);
    int escapes = 0, written = 0, tries = 0;
    double start = seconds();
    for (; tries < TRIES && seconds() - start < TIME_LIMIT_SECONDS; tries++) {
        /* Each try must write: no header and no stamp, so neither the fast path nor
         * write-if-changed skips the temporary file and the rename. */
        unlink("generated/sub/x.h");
        unlink("generated/" STAMP_FILE);
        f->diags.len = 0;
        atomic_store(&s.run, 1);
        int rc = fx_generate(f);
        swapper_pause(&s);
        struct stat st;
        if (lstat("generated/sub", &st) == 0 && S_ISLNK(st.st_mode))
            assert_int_equal(renameat2(AT_FDCWD, "generated/sub", AT_FDCWD, "generated/alt", RENAME_EXCHANGE), 0);
        if (empty_dir("outside")) escapes++;
        written += rc == 0 && fx_exists("generated/sub/x.h");
        empty_dir("generated/alt"); /* (the link: the same directory as outside) */
    }
    atomic_store(&s.quit, 1);
    pthread_join(thread, NULL);
    printf("race: %d tries in %.1f s, %ld swaps, %d runs wrote the header, %d wrote outside\n", tries, seconds() - start,
           atomic_load(&s.swaps), written, escapes);
    assert_true(tries >= TRIES);
    assert_true(atomic_load(&s.swaps) > tries); /* the tree did change during the runs */
    assert_int_equal(escapes, 0);
}

/* The same, one step at a time through the output API: a link on the way is refused when the
 * output begins (a located error), and a directory swapped for a link between the temporary
 * file and the rename fails the rename; nothing lands outside either time. */
static void test_race_link_refused_at_each_step(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir("outside", 0755), 0);
    assert_int_equal(mkdir("generated", 0755), 0);
    assert_int_equal(symlink("../outside", "generated/sub"), 0);
    output_set set = {.mode = OUTPUT_WRITE};
    out_file *o = output_begin_below(&set, "generated", "sub/x.h");
    buf_puts(&o->chunk, "text\n");
    assert_false(output_end(o));
    output_abort(&set);
    output_set_free(&set);
    assert_string_equal(f->diags.data, "generated/sub: error: a symbolic link where a directory of outputs goes: threadlink-gen never "
                                       "writes through links; nothing was written\n");
    assert_int_equal(empty_dir("outside"), 0);

    /* Swapped after the temporary files were made: an output whose directory is walked to
     * again meets the link and fails, its temporary file left where it was made for the next
     * run's clean-up; the others are renamed into place. */
    assert_int_equal(unlink("generated/sub"), 0);
    assert_int_equal(mkdir("generated/sub", 0755), 0);
    f->diags.len = 0;
    output_set again = {.mode = OUTPUT_WRITE};
    o = output_begin_below(&again, "generated", "sub/x.h");
    buf_puts(&o->chunk, "text\n");
    assert_true(output_end(o));
    o = output_begin_below(&again, "generated", "other/y.h");
    buf_puts(&o->chunk, "text\n");
    assert_true(output_end(o));
    assert_int_equal(rename("generated/sub", "generated/real"), 0);
    assert_int_equal(symlink("../outside", "generated/sub"), 0);
    assert_false(output_commit(&again));
    output_set_free(&again);
    assert_string_equal(f->diags.data, "generated/sub: error: a symbolic link where a directory of outputs goes: threadlink-gen never "
                                       "writes through links; generated/sub/x.h was not replaced\n");
    assert_int_equal(empty_dir("outside"), 0);
    assert_int_equal(empty_dir("generated/real"), 1); /* x.h's temporary file */
    assert_true(fx_exists("generated/other/y.h"));

    /* The directory the set still holds (the last one walked to) is renamed in where it is now. */
    output_set held = {.mode = OUTPUT_WRITE};
    o = output_begin_below(&held, "generated", "one/z.h");
    buf_puts(&o->chunk, "text\n");
    assert_true(output_end(o));
    assert_int_equal(rename("generated/one", "generated/moved"), 0);
    assert_int_equal(symlink("../outside", "generated/one"), 0);
    assert_true(output_commit(&held));
    output_set_free(&held);
    assert_int_equal(empty_dir("outside"), 0);
    assert_true(fx_exists("generated/moved/z.h"));
}

#define PACK_TRIES 500

/* pack's flat build: out/Main/assets/Icons swapped with a link to ../../../outside while pack
 * copies the assets into it (and cleans the folder up). */
static void *swap_icons_loop(void *arg)
{
    swapper *s = arg;
    while (!atomic_load(&s->quit)) {
        if (!atomic_load(&s->run)) {
            atomic_store(&s->idle, 1);
            sched_yield();
            continue;
        }
        atomic_store(&s->idle, 0);
        if (renameat2(AT_FDCWD, "out/Main/assets/Icons", AT_FDCWD, "out/Main/assets/alt", RENAME_EXCHANGE) == 0)
            atomic_fetch_add(&s->swaps, 1);
    }
    return NULL;
}

/* Back to a real Icons folder (without the copy) and a link beside it, whatever the run and the
 * clean-up left (the clean-up deletes the link, or the folder under the link's name). */
static void reset_icons(void)
{
    struct stat st;
    if (lstat("out/Main/assets/Icons", &st) == 0 && S_ISLNK(st.st_mode))
        renameat2(AT_FDCWD, "out/Main/assets/Icons", AT_FDCWD, "out/Main/assets/alt", RENAME_EXCHANGE);
    if (lstat("out/Main/assets/alt", &st) == 0 && !S_ISLNK(st.st_mode)) {
        empty_dir("out/Main/assets/alt");
        rmdir("out/Main/assets/alt");
    }
    mkdir("out/Main/assets", 0755);
    mkdir("out/Main/assets/Icons", 0755);
    unlink("out/Main/assets/Icons/sword.png");
    symlink("../../../outside", "out/Main/assets/alt");
}

static void test_race_pack_flat_folder_is_never_written_through(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"archive\": \"none\" } ] }\n");
    fx_write("assets/Icons/sword.png", "sword bytes");
    assert_int_equal(mkdir("outside", 0755), 0);
    pack_options opt = {.quiet = true, .banner_without_version = true};
    assert_int_equal(pack_run(&opt), 0);
    swapper s = {0};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, swap_icons_loop, &s), 0);
    int escapes = 0, written = 0, tries = 0;
    double start = seconds();
    for (; tries < PACK_TRIES && seconds() - start < TIME_LIMIT_SECONDS; tries++) {
        reset_icons();
        f->diags.len = 0;
        atomic_store(&s.run, 1);
        int rc = pack_run(&opt);
        swapper_pause(&s);
        if (empty_dir("outside")) escapes++;
        written += rc == 0 && fx_exists("out/Main/assets/Icons/sword.png");
    }
    atomic_store(&s.quit, 1);
    pthread_join(thread, NULL);
    printf("pack race: %d tries in %.1f s, %ld swaps, %d runs wrote the asset, %d wrote outside\n", tries, seconds() - start,
           atomic_load(&s.swaps), written, escapes);
    assert_true(tries >= PACK_TRIES);
    assert_int_equal(escapes, 0);
}

/* pack's output folder itself (out/Main) swapped with a link to ../outside, a folder that looks
 * like a previous build, while pack reads, writes and cleans it up: the run works on the folder
 * it opened (or fails naming it), and nothing outside is written or deleted. */
static void *swap_output_loop(void *arg)
{
    swapper *s = arg;
    while (!atomic_load(&s->quit)) {
        if (!atomic_load(&s->run)) {
            atomic_store(&s->idle, 1);
            sched_yield();
            continue;
        }
        atomic_store(&s->idle, 0);
        if (renameat2(AT_FDCWD, "out/Main", AT_FDCWD, "out/alt", RENAME_EXCHANGE) == 0) atomic_fetch_add(&s->swaps, 1);
    }
    return NULL;
}

#define PACK_OUTPUT_TRIES 200 /* the code before the fix wrote or deleted outside in 6 runs of 10 */

static void test_race_pack_output_folder_is_never_written_through(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\" } ] }\n");
    fx_write("assets/Icons/sword.png", "sword bytes");
    fx_write("outside/.threadlink-content", "a marker, so that the folder passes for a previous build");
    fx_write("outside/victim.txt", "not the build's");
    char *outside = fx_snapshot("outside");
    pack_options opt = {.quiet = true, .banner_without_version = true};
    assert_int_equal(pack_run(&opt), 0);
    assert_int_equal(symlink("../outside", "out/alt"), 0);
    swapper s = {0};
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, swap_output_loop, &s), 0);
    int escapes = 0, written = 0, tries = 0;
    double start = seconds();
    for (; tries < PACK_OUTPUT_TRIES && seconds() - start < TIME_LIMIT_SECONDS; tries++) {
        fx_write("assets/Icons/sword.png", tries % 2 ? "sword bytes" : "other sword bytes"); /* something to write */
        f->diags.len = 0;
        atomic_store(&s.run, 1);
        int rc = pack_run(&opt);
        swapper_pause(&s);
        struct stat st;
        if (lstat("out/Main", &st) == 0 && S_ISLNK(st.st_mode))
            assert_int_equal(renameat2(AT_FDCWD, "out/Main", AT_FDCWD, "out/alt", RENAME_EXCHANGE), 0);
        char *now = fx_snapshot("outside");
        if (strcmp(now, outside) != 0) {
            escapes++;
            assert_int_equal(system("rm -rf outside/* outside/.[!.]*"), 0);
            fx_write("outside/.threadlink-content", "a marker, so that the folder passes for a previous build");
            fx_write("outside/victim.txt", "not the build's");
        }
        free(now);
        written += rc == 0;
    }
    atomic_store(&s.quit, 1);
    pthread_join(thread, NULL);
    printf("pack output race: %d tries in %.1f s, %ld swaps, %d runs succeeded, %d wrote or deleted outside\n", tries, seconds() - start,
           atomic_load(&s.swaps), written, escapes);
    free(outside);
    assert_true(tries >= PACK_OUTPUT_TRIES);
    assert_int_equal(escapes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_race_link_refused_at_each_step, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_race_swapped_directory_is_never_written_through, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_race_pack_flat_folder_is_never_written_through, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_race_pack_output_folder_is_never_written_through, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests_name("gen_race", tests, NULL, NULL);
}
