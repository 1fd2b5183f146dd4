/* Confinement while the tree changes under the generator: a directory below the generated
 * directory that another process swaps for a symbolic link (to a directory outside) in the middle
 * of a run must never be written through. The run may fail (a located error) or write into the
 * real directory; no file may ever appear outside. */
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
#include "base/output.h"
#include "base/stamp.h"

#define TRIES 2000

/* The swapper: while `run` is set, exchanges generated/sub (the real directory) and
 * generated/alt (a link to ../outside) as fast as it can; `swaps` counts the exchanges. */
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
    assert_true(race_tried_enough(tries, TRIES));
    assert_true(atomic_load(&s.swaps) > tries); /* the tree did change during the runs */
    assert_int_equal(escapes, 0);
}

/* The same, one step at a time through the output API: a link on the way is refused when the
 * output begins (a located error), and a directory swapped for a link between the temporary
 * file and the rename fails the rename; nothing lands outside either time. */
/* An output the generator could not read back (check, the next run: a manifest over its cap
 * made the identity store unreadable for good) is refused before anything is written. */
static void test_output_over_the_read_back_cap_is_refused(void **state)
{
    fixture *f = *state;
    assert_int_equal(mkdir("generated", 0755), 0);
    output_set set = {.mode = OUTPUT_WRITE, .text_cap = 100};
    out_file *o = output_begin_below(&set, "generated", "Big.manifest.json");
    o->text = true;
    for (int i = 0; i < 20; i++) buf_puts(&o->chunk, "0123456789\n");
    assert_false(output_end(o));
    output_abort(&set);
    output_set_free(&set);
    assert_string_equal(f->diags.data, "generated/Big.manifest.json: error: it would be 220 bytes, over the 100 bytes the generator reads "
                                       "its own files back with (check, the next run): split what makes it (a domain's entries over "
                                       "several domains); nothing was written\n");
    assert_false(fx_exists("generated/Big.manifest.json"));
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_output_over_the_read_back_cap_is_refused, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_race_link_refused_at_each_step, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_race_swapped_directory_is_never_written_through, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests_name("gen_race", tests, NULL, NULL);
}
