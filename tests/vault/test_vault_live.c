/* Vault data tuned while the game runs (issue 30): a development build (TL_DEVELOPMENT) of
 * tests/vault/project's things_data.h reloads the image that generate writes under watch
 * (gen_options.vault_images), through vault.h's live data. The image of unchanged data reads back
 * as the baked bytes, every type included (no event); an edit changes exactly the fields edited
 * and fires one event each; a bad edit is an error at file:line:col, writes nothing, and the
 * running values stay; a damaged or removed image keeps them too. The project is copied into the
 * fixture's directory, where "generated" (TL_VAULT_LIVE_DIR's default) is the generated one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gen_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TL_IMPLEMENTATION
#define TL_VAULT_LIVE_MAX_IMAGE_BYTES 65536 /* the images here are smaller; a test passes it */
#include "icons.h"
#include "vaults/things_data.h"

static const char *const project_files[] = {
    "threadlink.json", "injectors/Game.Icons.User.txt", "injectors/Vault.Fields.User.txt",
    "vaults/Every.vault.json", "vaultdata/things.vaultdata.json",
    "generated/Game.Icons.manifest.json", "generated/Vault.Fields.manifest.json",
};

static every_vault baked[THINGS_COUNT]; /* the instances as compiled, restored after each test */

typedef struct events {
    int count;
    void *vault[16];
    uint32_t field[16];
} events;

static void on_change(void *user, void *vault, uint32_t field_id)
{
    events *e = (events *)user;
    assert_true(e->count < 16);
    e->vault[e->count] = vault;
    e->field[e->count] = field_id;
    e->count++;
}

typedef struct logged {
    int count;
    uint32_t item;
    char line[512];
} logged;

static void capture_log(void *user, const tl_log_record *rec)
{
    logged *l = (logged *)user;
    l->count++;
    l->item = rec->item;
    snprintf(l->line, sizeof l->line, "%s", rec->line);
}

static void copy_project(void)
{
    for (size_t i = 0; i < sizeof project_files / sizeof project_files[0]; i++) {
        char *from = xasprintf("%s/%s", VAULT_PROJECT, project_files[i]);
        buf text = {0};
        assert_true(fs_read_file(from, &text));
        fx_write(project_files[i], buf_cstr(&text));
        buf_free(&text);
        free(from);
    }
}

/* generate as watch runs it: the headers and each data file's image. */
static int generate_with_images(fixture *f)
{
    FILE *out = fopen("/dev/null", "w");
    gen_options opt = {.command = GEN_GENERATE, .summary = out, .banner_without_version = true, .vault_images = true};
    int rc = gen_run(&opt, NULL);
    fclose(out);
    (void)f;
    return rc;
}

static void edit_data(const char *text) { fx_write("vaultdata/things.vaultdata.json", text); }

#define IMAGE "generated/vaults/things.vaultimage"

static int live_setup(void **state)
{
    if (fixture_setup(state) != 0) return -1;
    memcpy(baked, things_instances, sizeof baked);
    copy_project();
    return 0;
}

static int live_teardown(void **state)
{
    memcpy(things_instances, baked, sizeof baked);
    return fixture_teardown(state);
}

static void test_vault_live_unchanged_image_is_the_baked_data(void **state)
{
    fixture *f = *state;
    tl_vault_live live;
    events e = {0};
    logged l = {0};
    tl_logger logger = {capture_log, &l, 0};
    tl_vault_live_desc desc = {NULL, &logger};
    assert_int_equal(generate_with_images(f), 0);
    assert_true(fx_exists("generated/vaults/things.vaultimage"));
    assert_int_equal(tl_vault_live_init(&live, &desc), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe_all(tl_vault_live_listeners(&live), NULL, on_change, &e), TL_VAULT_OK);
    assert_int_equal(tl_vault_live_add(&live, &things_live), TL_VAULT_OK);
    assert_int_equal(l.item, TL_VAULT_LOG_RELOADED);
    assert_string_equal(l.line, "Vault: info: generated/vaults/things.vaultimage: reloaded, 0 value(s) changed");
    assert_int_equal(e.count, 0);
    for (int i = 0; i < THINGS_COUNT; i++) { /* every field, the set and the dictionary too */
        every_vault a = baked[i], b = things_instances[i];
        a.tl_listener = b.tl_listener = NULL;
        assert_memory_equal(&a, &b, sizeof a);
    }
    assert_int_equal(tl_vault_live_update(&live), 0); /* nothing changed since: not read again */
    tl_vault_live_discard(&live);
    assert_null(things_instances[0].tl_listener);
}

static void test_vault_live_edit_fires_exactly_the_changed_fields(void **state)
{
    fixture *f = *state;
    tl_vault_live live;
    events e = {0}, health = {0};
    assert_int_equal(generate_with_images(f), 0);
    assert_int_equal(tl_vault_live_init(&live, NULL), TL_VAULT_OK);
    tl_vault_listeners *set = tl_vault_live_listeners(&live);
    assert_int_equal(tl_vault_live_add(&live, &things_live), TL_VAULT_OK);
    const every_vault *first = things_by_name("First"), *second = things_by_id(THINGS_ID_Second);
    assert_int_equal(tl_vault_subscribe_all(set, NULL, on_change, &e), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe(set, first, EVERY_VAULT_ID_Health, on_change, &health), TL_VAULT_OK);
    edit_data("{ \"vault\": \"Every\", \"instances\": [\n"
              "  { \"name\": \"First\", \"values\": { \"Health\": 6, \"Name\": \"first\", \"Seen\": [1, 2, 3] } },\n"
              "  { \"name\": \"Second\", \"values\": { \"Damage\": \"-0.5\", \"Loot\": [[\"Shield\", \"1.25\"], [\"Sword\", \"2\"]] } } ] }\n");
    assert_int_equal(generate_with_images(f), 0);
    assert_int_equal(tl_vault_live_update(&live), 1);
    assert_int_equal(every_vault_get_Health(first), 6);
    assert_int_equal(e.count, 2); /* First's Health, Second's Loot, and nothing else */
    assert_ptr_equal(e.vault[0], first);
    assert_int_equal(e.field[0], EVERY_VAULT_ID_Health);
    assert_ptr_equal(e.vault[1], second);
    assert_int_equal(e.field[1], EVERY_VAULT_ID_Loot);
    assert_int_equal(health.count, 1);
    tl_fp loot = {0};
    tl_vault_asset_ref sword = {GAME_ICONS_U32(Game_Icons_Sword)};
    assert_true(every_vault_Loot_dict_const_try_get(every_vault_get_Loot(second), sword, &loot));
    assert_true(loot.raw == tl_fp_from_int(2).raw);
    assert_true(tl_vault_unsubscribe(set, first, EVERY_VAULT_ID_Health, on_change, &health));
    tl_vault_live_discard(&live);
}

static void test_vault_live_bad_edit_keeps_values(void **state)
{
    fixture *f = *state;
    tl_vault_live live;
    events e = {0};
    logged l = {0};
    tl_logger logger = {capture_log, &l, 0};
    tl_vault_live_desc desc = {NULL, &logger};
    assert_int_equal(generate_with_images(f), 0);
    assert_int_equal(tl_vault_live_init(&live, &desc), TL_VAULT_OK);
    assert_int_equal(tl_vault_live_add(&live, &things_live), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe_all(tl_vault_live_listeners(&live), NULL, on_change, &e), TL_VAULT_OK);
    char *image = fx_read("generated/vaults/things.vaultimage");
    /* A value of the wrong type: located, nothing written, the running values stay. */
    edit_data("{ \"vault\": \"Every\", \"instances\": [\n"
              "  { \"name\": \"First\", \"values\": { \"Health\": \"lots\" } } ] }\n");
    f->diags.len = 0;
    assert_int_equal(generate_with_images(f), 1);
    assert_string_equal(buf_cstr(&f->diags), "vaultdata/things.vaultdata.json:2:34: error: instances[0].values.Health: "
                                             "expected an integer (Integer), got a string\n");
    char *after = fx_read("generated/vaults/things.vaultimage");
    assert_string_equal(after, image);
    free(after);
    assert_int_equal(tl_vault_live_update(&live), 0);
    assert_int_equal(every_vault_get_Health(things_by_name("First")), 5);
    /* An image damaged on disk (cut short) is refused whole: logged, nothing changes. */
    fx_write("generated/vaults/things.vaultimage", "TLVI");
    assert_int_equal(tl_vault_live_update(&live), 0);
    assert_int_equal(l.item, TL_VAULT_LOG_REFUSED);
    assert_non_null(strstr(l.line, "things.vaultimage: refused, the previous values stay"));
    /* Removed: the values stay. */
    fx_remove("generated/vaults/things.vaultimage");
    assert_int_equal(tl_vault_live_update(&live), 0);
    assert_int_equal(l.item, TL_VAULT_LOG_REMOVED);
    assert_int_equal(every_vault_get_Health(things_by_name("First")), 5);
    assert_int_equal(e.count, 0);
    free(image);
    tl_vault_live_discard(&live);
}

/* A live context over things_live, reading the image generate wrote, with its log captured in
 * `l` and every change event counted in `e`. */
static void start_live(fixture *f, tl_vault_live *live, logged *l, events *e)
{
    tl_logger logger = {capture_log, l, 0};
    tl_vault_live_desc desc = {NULL, &logger};
    assert_int_equal(generate_with_images(f), 0);
    assert_int_equal(tl_vault_live_init(live, &desc), TL_VAULT_OK);
    assert_int_equal(tl_vault_subscribe_all(tl_vault_live_listeners(live), NULL, on_change, e), TL_VAULT_OK);
    assert_int_equal(tl_vault_live_add(live, &things_live), TL_VAULT_OK);
}

/* The next update refuses the image with `why` (logged once, not again while the image stays as
 * it is) and every value stays. A wait in the update (a FIFO opened for reading blocks until a
 * writer comes) ends the test by SIGALRM. */
static void expect_refused(tl_vault_live *live, logged *l, const events *e, const char *why)
{
    char *line = xasprintf("Vault: warning: " IMAGE ": refused, the previous values stay: %s", why);
    alarm(10);
    assert_int_equal(tl_vault_live_update(live), 0);
    alarm(0);
    assert_int_equal(l->item, TL_VAULT_LOG_REFUSED);
    assert_string_equal(l->line, line);
    l->count = 0;
    assert_int_equal(tl_vault_live_update(live), 0);
    assert_int_equal(l->count, 0);
    assert_int_equal(every_vault_get_Health(things_by_name("First")), 5);
    assert_int_equal(e->count, 0);
    free(line);
}

/* Red-team 14, finding 1: a FIFO at the image path blocked the update in fopen for good. */
static void test_vault_live_fifo_is_refused_never_waited_on(void **state)
{
    tl_vault_live live;
    events e = {0};
    logged l = {0};
    start_live(*state, &live, &l, &e);
    fx_remove(IMAGE);
    assert_int_equal(mkfifo(IMAGE, 0600), 0);
    expect_refused(&live, &l, &e, "not a regular file (a FIFO, a folder or a device)");
    tl_vault_live_discard(&live);
}

/* Red-team 14, finding 3: a folder at the image path was read as a file; ext4 gives an indexed
 * folder (here 300 names) the size LLONG_MAX, and malloc was asked for 8 EiB (ASan aborted). */
static void test_vault_live_folder_is_refused(void **state)
{
    tl_vault_live live;
    events e = {0};
    logged l = {0};
    start_live(*state, &live, &l, &e);
    fx_remove(IMAGE);
    for (int i = 0; i < 300; i++) {
        char *name = xasprintf(IMAGE "/a-file-with-a-long-name-%d", i);
        fx_write(name, "");
        free(name);
    }
    expect_refused(&live, &l, &e, "not a regular file (a FIFO, a folder or a device)");
    tl_vault_live_discard(&live);
}

/* An image larger than TL_VAULT_LIVE_MAX_IMAGE_BYTES is refused before anything is allocated
 * for it (a link to a file of gigabytes is not read whole); one of exactly that size is read. */
static void test_vault_live_image_over_the_cap_is_refused_unread(void **state)
{
    tl_vault_live live;
    events e = {0};
    logged l = {0};
    start_live(*state, &live, &l, &e);
    unsigned char *big = calloc(1, 65537);
    memcpy(big, "TLVI", 4);
    fx_write_bytes(IMAGE, big, 65537);
    expect_refused(&live, &l, &e, "65537 bytes, more than the 65536 this program reads (TL_VAULT_LIVE_MAX_IMAGE_BYTES)");
    fx_write_bytes(IMAGE, big, 65536);
    expect_refused(&live, &l, &e, "another version, or another vault than Every");
    free(big);
    tl_vault_live_discard(&live);
}

/* The image generate wrote, then the records of `extra` (count of them) appended and counted in
 * its header: an image a tool, not watch, made. */
static void write_image_with(const unsigned char *extra, size_t extra_size, uint32_t count)
{
    buf image = {0};
    assert_true(fs_read_file(IMAGE, &image));
    assert_true(image.len >= 16);
    unsigned char *bytes = (unsigned char *)image.data;
    uint32_t n = (uint32_t)bytes[12] | (uint32_t)bytes[13] << 8 | (uint32_t)bytes[14] << 16 | (uint32_t)bytes[15] << 24;
    n += count;
    for (int i = 0; i < 4; i++) bytes[12 + i] = (unsigned char)(n >> (8 * i));
    unsigned char *out = xmalloc(image.len + extra_size);
    memcpy(out, bytes, image.len);
    memcpy(out + image.len, extra, extra_size);
    fx_write_bytes(IMAGE, out, image.len + extra_size);
    free(out);
    buf_free(&image);
}

/* Red-team 14, finding 5: an image giving one instance twice was stored, the last one winning,
 * silently. Refused whole, as any other repeat in the formats (a field twice in a save). */
static void test_vault_live_instance_given_twice_is_refused(void **state)
{
    tl_vault_live live;
    events e = {0};
    logged l = {0};
    start_live(*state, &live, &l, &e);
    buf image = {0};
    assert_true(fs_read_file(IMAGE, &image));
    const unsigned char *first = (const unsigned char *)image.data + 16; /* First's record */
    size_t first_size = 8 + ((size_t)first[4] | (size_t)first[5] << 8 | (size_t)first[6] << 16 | (size_t)first[7] << 24);
    unsigned char *again = xmalloc(first_size);
    memcpy(again, first, first_size);
    write_image_with(again, first_size, 1);
    expect_refused(&live, &l, &e, "instance First is given twice");
    /* An instance this build has not, given twice (its records are skipped, not read). */
    fx_write_bytes(IMAGE, image.data, image.len);
    static const unsigned char unknown[] = {0xEF, 0xBE, 0xAD, 0xDE, 0, 0, 0, 0, 0xEF, 0xBE, 0xAD, 0xDE, 0, 0, 0, 0};
    write_image_with(unknown, sizeof unknown, 2);
    expect_refused(&live, &l, &e, "instance #3735928559 is given twice");
    free(again);
    buf_free(&image);
    tl_vault_live_discard(&live);
}

/* Without watch, generate writes no image, and removes one a watch pass left. */
static void test_vault_live_images_only_under_watch(void **state)
{
    fixture *f = *state;
    assert_int_equal(generate_with_images(f), 0);
    assert_true(fx_exists("generated/vaults/things.vaultimage"));
    assert_int_equal(fx_generate(f), 0);
    assert_false(fx_exists("generated/vaults/things.vaultimage"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_vault_live_unchanged_image_is_the_baked_data, live_setup, live_teardown),
        cmocka_unit_test_setup_teardown(test_vault_live_edit_fires_exactly_the_changed_fields, live_setup, live_teardown),
        cmocka_unit_test_setup_teardown(test_vault_live_bad_edit_keeps_values, live_setup, live_teardown),
        cmocka_unit_test_setup_teardown(test_vault_live_fifo_is_refused_never_waited_on, live_setup, live_teardown),
        cmocka_unit_test_setup_teardown(test_vault_live_folder_is_refused, live_setup, live_teardown),
        cmocka_unit_test_setup_teardown(test_vault_live_image_over_the_cap_is_refused_unread, live_setup, live_teardown),
        cmocka_unit_test_setup_teardown(test_vault_live_instance_given_twice_is_refused, live_setup, live_teardown),
        cmocka_unit_test_setup_teardown(test_vault_live_images_only_under_watch, live_setup, live_teardown),
    };
    return cmocka_run_group_tests_name("vault-live", tests, NULL, NULL);
}
