/* pack's confinement while the tree changes under it: a folder of its output (a flat build's
 * asset folder, or the output folder itself) that another thread swaps for a symbolic link to a
 * folder outside in the middle of a run is never written through, nor is anything outside it
 * deleted. The run may fail (a located error) or write into the real folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>

#include "gen_fixture.h"
#include "race_fixture.h"
#include "pack/pack.h"

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

static void test_pack_race_flat_folder_is_never_written_through(void **state)
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
    assert_true(race_tried_enough(tries, PACK_TRIES));
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

static void test_pack_race_output_folder_is_never_written_through(void **state)
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
    assert_true(race_tried_enough(tries, PACK_OUTPUT_TRIES));
    assert_int_equal(escapes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pack_race_flat_folder_is_never_written_through, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_pack_race_output_folder_is_never_written_through, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests_name("pack_race", tests, NULL, NULL);
}
