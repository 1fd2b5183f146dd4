/* The content stage: content profiles and their validation with the exact diagnostic and the
 * previous output intact, the scan of a source tree (names unique, links and special files),
 * and catalogs through the identity pipeline (names, ids, tombstones, check). Driven through
 * generate and `pack`, which runs the stage's checks in its generate pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen_fixture.h"

/* ---- Validations --------------------------------------------------------------------------- */

static void test_content_profile_name_path_character(void **state)
{
    fx_expect_config_error(*state, "{ \"profile\": \"Ma/in\", \"source_root\": \"assets\", \"output\": \"out/Main\" }",
                        "threadlink.json:4:7: error: content[0].profile: profile name \"Ma/in\" contains the path character '/' (names go into file names; / \\ : * ? \" < > | are refused)\n");
}

/* Archive, folder and manifest names are made from the profile's name: one Windows cannot hold
 * (a device name such as Aux, a trailing '.' or space) or too long for a file name with what is
 * added to it is refused at the key, not by pack, a patch's plan or a Windows player later. */
static void test_content_profile_name_windows_and_length(void **state)
{
    fx_expect_config_error(*state, "{ \"profile\": \"Aux\", \"source_root\": \"assets\", \"output\": \"out/Main\" }",
                           "threadlink.json:4:7: error: content[0].profile: profile name \"Aux\" is a Windows device name (CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9, with or without an extension); archive and folder names are made from it\n");
    fx_expect_config_error(*state, "{ \"profile\": \"Extra.\", \"source_root\": \"assets\", \"output\": \"out/Main\" }",
                           "threadlink.json:4:7: error: content[0].profile: profile name \"Extra.\" ends in '.', which Windows drops from file names; archive and folder names are made from it\n");
    char name[202], profile[400], expected[400];
    memset(name, 'P', 201);
    name[201] = '\0';
    snprintf(profile, sizeof profile, "{ \"profile\": \"%s\", \"source_root\": \"assets\", \"output\": \"out/Main\" }", name);
    snprintf(expected, sizeof expected,
             "threadlink.json:4:7: error: content[0].profile: profile name of 201 bytes: at most 200 (archive and manifest names made from it must fit a file name's 255)\n");
    fx_expect_config_error(*state, profile, expected);
}

/* The generated directory itself as a source root: the run's own headers would be its assets
 * (the next run then refused to write over its inputs, at each output, not here). */
static void test_content_source_root_is_the_generated_dir(void **state)
{
    fx_expect_config_error(*state, "{ \"profile\": \"Main\", \"source_root\": \"generated\", \"output\": \"out/Main\" }",
                           "threadlink.json:4:26: error: content[0].source_root: source root \"generated\" is the generated directory (generated_dir): the run's own headers would be its assets; pack a folder below it (as the text stage's tables are packed)\n");
}

static void test_content_source_root_trailing_separator(void **state)
{
    fx_expect_config_error(*state, "{ \"profile\": \"Main\", \"source_root\": \"assets/\", \"output\": \"out/Main\" }",
                        "threadlink.json:4:26: error: content[0].source_root: \"assets/\" ends with a path separator; write it without one\n");
}

/* The output folder has one spelling (a trailing '/' aside, which names the same folder). */
static void test_content_output_spelling(void **state)
{
    fx_expect_config_error(*state, "{ \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/./Main\" }",
                        "threadlink.json:4:51: error: content[0].output: \"out/./Main\" has a '.' component: write it \"out/Main\" (one file, one spelling)\n");
}

static void test_content_output_inside_source_root(void **state)
{
    fx_expect_config_error(*state, "{ \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"assets/out\" }",
                        "threadlink.json:4:51: error: content[0].output: output folder \"assets/out\" is inside the source root \"assets\"; the build would read its own output\n");
}

static void test_content_output_containing_source_root(void **state)
{
    fx_expect_config_error(*state, "{ \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \".\" }",
                        "threadlink.json:4:51: error: content[0].output: output folder \".\" contains the source root \"assets\"; the build would read its own output\n");
}

static void test_content_overlapping_categories(void **state)
{
    fx_expect_config_error(*state,
                        "{ \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\",\n"
                        "      \"categories\": [ { \"name\": \"Icons\", \"folder\": \"Icons\" }, { \"name\": \"Big\", \"folder\": \"Icons/Big\" },\n"
                        "                      { \"name\": \"Icons\", \"folder\": \"Levels\" }, { \"name\": \"All\", \"folder\": \"\" } ] }",
                        "threadlink.json:5:80: error: content[0].categories[1].folder: folder \"Icons/Big\" overlaps category \"Icons\" (folder \"Icons\"): a file would be in two catalogs\n"
                        "threadlink.json:6:25: error: content[0].categories[2].name: category \"Icons\" is already declared as content[0].categories[0]\n"
                        "threadlink.json:6:81: error: content[0].categories[3].folder: folder \"\" overlaps category \"Icons\" (folder \"Icons\"): a file would be in two catalogs\n");

}

static void test_content_keys_and_types(void **state)
{
    fx_expect_config_error(*state,
                        "{ \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\", \"colour\": 1,\n"
                        "      \"archive\": \"engine\", \"max_archive_mb\": 0, \"compression\": \"lzma\", \"partitioner\": 3,\n"
                        "      \"names\": \"full\", \"post_build\": [\"\"], \"categories\": [ { \"name\": \"9x\", \"folder\": \"../x\" } ] }",
                        "threadlink.json:4:73: error: content[0].colour: unknown key\n"
                        "threadlink.json:6:62: error: content[0].categories[0].name: \"9x\" is not a category name (a letter, then letters, digits or '_')\n"
                        "threadlink.json:6:76: error: content[0].categories[0].folder: must not contain '..', got \"../x\"\n"
                        "threadlink.json:5:7: error: content[0].archive: expected \"none\" or \"packed\", got \"engine\"\n"
                        "threadlink.json:5:49: error: content[0].compression: expected \"none\", \"lz4\" or \"zstd\", got \"lzma\" (did you mean \"lz4\"?)\n"
                        "threadlink.json:5:72: error: content[0].partitioner: expected \"trie\" or \"sequential\", got an integer\n"
                        "threadlink.json:6:7: error: content[0].names: expected \"stem\" or \"path\", got \"full\"\n"
                        "threadlink.json:5:28: error: content[0].max_archive_mb: expected a whole number of megabytes from 1 to 1048576, got 0\n"
                        "threadlink.json:6:39: error: content[0].post_build[0]: expected a command (a non-empty string), got a string\n");
}

/* "compression_level": within its codec's levels, never with compression none. */
static void test_content_compression_level(void **state)
{
    fx_expect_config_error(*state,
                        "{ \"profile\": \"A\", \"source_root\": \"assets\", \"output\": \"out/A\", \"compression\": \"lz4\", \"compression_level\": 13 },\n"
                        "    { \"profile\": \"B\", \"source_root\": \"assets\", \"output\": \"out/B\", \"compression\": \"none\", \"compression_level\": 1 },\n"
                        "    { \"profile\": \"C\", \"source_root\": \"assets\", \"output\": \"out/C\", \"compression_level\": \"max\" },\n"
                        "    { \"profile\": \"D\", \"source_root\": \"assets\", \"output\": \"out/D\", \"compression_level\": 20 }",
                        "threadlink.json:4:89: error: content[0].compression_level: expected an lz4 level from 1 to 12, got 13\n"
                        "threadlink.json:5:90: error: content[1].compression_level: needs \"compression\": \"lz4\" or \"zstd\" (this profile stores its files uncompressed)\n"
                        "threadlink.json:6:67: error: content[2].compression_level: expected a zstd level from 1 to 19, got a string\n"
                        "threadlink.json:7:67: error: content[3].compression_level: expected a zstd level from 1 to 19, got 20\n");
}

static void test_content_missing_keys_and_duplicate_profiles(void **state)
{
    fx_expect_config_error(*state,
                        "{ \"source_root\": \"assets\" },\n"
                        "    { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/A\" },\n"
                        "    { \"profile\": \"main\", \"source_root\": \"assets\", \"output\": \"out/B\" },\n"
                        "    5",
                        "threadlink.json:4:5: error: content[0]: missing required key \"profile\" (the profile's name)\n"
                        "threadlink.json:7:5: error: content[3]: expected a profile object (or a string naming a profile file), got an integer\n"
                        "threadlink.json:6:7: error: content[2].profile: profile \"main\" is already declared (threadlink.json:5)\n");
}

static void test_content_profile_file_errors_located_in_that_file(void **state)
{
    fixture *f = *state;
    char *before = fx_good_build(f);
    fx_write("profiles/extra.json", "[\n  { \"profile\": \"Extra\", \"source_root\": \"assets\",\n    \"output\": \"assets/x\" }\n]\n");
    fx_write("threadlink.json", "{ \"content\": [ \"profiles/extra.json\", \"profiles/missing.json\" ] }\n");
    fx_expect_pack_failure(f, before,
                        "threadlink.json:1:39: error: content[1]: cannot read the profile file \"profiles/missing.json\": No such file or directory\n"
                        "profiles/extra.json:3:5: error: [0].output: output folder \"assets/x\" is inside the source root \"assets\"; the build would read its own output\n");
}

static void test_content_duplicate_names(void **state)
{
    fixture *f = *state;
    char *before = fx_good_build(f);
    fx_write("assets/Icons/sword.jpg", "another sword");
    fx_write("assets/Levels/Forest.dat", "case differs");
    fx_expect_pack_failure(f, before,
                        "assets/Icons/sword.png: error: asset name \"Icons/sword\" of profile \"Main\" is also the name of assets/Icons/sword.jpg (names are unique per profile, case-insensitively)\n"
                        "assets/Levels/forest.txt: error: asset name \"Levels/forest\" of profile \"Main\" is also the name of assets/Levels/Forest.dat (names are unique per profile, case-insensitively)\n");
}

/* Names that differ only in characters C cannot spell are two assets (issue 26): two ids, the
 * newcomer's member name qualified with a number and a warning naming both files. Only a folder
 * separator, spelled '_' in identity keys, still makes one key of two names. */
static void test_content_same_c_spelling(void **state)
{
    fixture *f = *state;
    char *before = fx_good_build(f);
    fx_write("assets/Icons/big sword.png", "a");
    fx_write("assets/Icons/big+sword.png", "b");
    assert_int_equal(fx_pack(f), 0);
    assert_non_null(strstr(f->diags.data, "assets/Icons/big+sword.png: warning: asset \"Icons/big+sword\" is spelled Icons_big_sword in C, "
                                          "like \"Icons/big sword\" (assets/Icons/big sword.png): it is named Icons_big_sword_2\n"));
    char *h = fx_read("generated/content_main_catalog.h");
    assert_non_null(strstr(h, "{Content_Main_Icons_big_sword, \"Icons/big sword\", "));
    assert_non_null(strstr(h, "{Content_Main_Icons_big_sword_2, \"Icons/big+sword\", "));
    free(h);
    free(before);
    fx_remove("assets/Icons/big sword.png");
    fx_remove("assets/Icons/big+sword.png");
    fx_clear(f);
    assert_int_equal(fx_pack(f), 0);
    fx_clear(f);
    before = fx_snapshot_all();
    fx_write("assets/Icons/a/b.png", "c");
    fx_write("assets/Icons/a_b.png", "d");
    assert_int_equal(fx_pack(f), 0); /* two names, two keys: only their C spelling is shared */
    assert_non_null(strstr(f->diags.data, "assets/Icons/a_b.png: warning: asset \"Icons/a_b\" is spelled Icons_a_b in C, "
                                          "like \"Icons/a/b\" (assets/Icons/a/b.png): it is named Icons_a_b_2\n"));
    free(before);
}

static void test_content_missing_folders(void **state)
{
    fixture *f = *state;
    char *before = fx_good_build(f);
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\",\n"
                                "  \"categories\": [ { \"name\": \"Sounds\", \"folder\": \"Sounds\" } ] },\n"
                                "  { \"profile\": \"Other\", \"source_root\": \"nowhere\" } ] }\n");
    fx_expect_pack_failure(f, before,
                        "threadlink.json:2:39: error: content[0].categories[0].folder: category folder \"Sounds\" is not a folder under assets\n"
                        "threadlink.json:3:25: error: content[1].source_root: source root \"nowhere\" does not exist\n");
}

/* ---- Names and catalogs --------------------------------------------------------------------- */

static void test_content_names_and_catalog_header(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\" },\n"
                                "  { \"profile\": \"Sprites\", \"source_root\": \"sprites\", \"output\": \"out/Sprites\", \"names\": \"path\" } ] }\n");
    fx_write("assets/3d cube+.obj", "cube");
    fx_write("assets/\xc3\xa9lan/None.txt", "accented folder, reserved member name");
    fx_write("assets/noext", "no extension");
    fx_write("assets/a.tar.gz", "two extensions: the last goes");
    fx_write("assets/.hidden", "skipped");
    fx_write("sprites/spike.png", "png");
    fx_write("sprites/spike.sprite", "sprite");
    assert_int_equal(fx_pack(f), 0);
    char *h = fx_read("generated/content_main_catalog.h");
    assert_non_null(h);
    assert_non_null(strstr(h, "{Content_Main__3d_cube_, \"3d cube+\", CONTENT_MAIN_CATEGORY_All,"));
    assert_non_null(strstr(h, "{Content_Main__lan_None, \"\\303\\251lan/None\", CONTENT_MAIN_CATEGORY_All,"));
    assert_non_null(strstr(h, "\"a.tar\""));
    assert_non_null(strstr(h, "\"noext\""));
    assert_null(strstr(h, "hidden"));
    free(h);
    char *s = fx_read("generated/content_sprites_catalog.h");
    assert_non_null(strstr(s, "\"spike.png\""));
    assert_non_null(strstr(s, "\"spike.sprite\""));
    free(s);
    /* The manifest is the identity store: ids are the values it records. */
    char *m = fx_read("generated/Content.Main.manifest.json");
    assert_non_null(strstr(m, "\"key\": \"main.3d cube+\", \"name\": \"_3d_cube_\""));
    free(m);
    /* An asset named None: qualified like any reserved member name in a reserve_zero domain. */
    char *dh = fx_read("generated/content_main.h");
    assert_non_null(strstr(dh, "Content_Main_None = 0"));
    free(dh);
}

static void test_content_ids_stable_tombstones_and_check(void **state)
{
    fixture *f = *state;
    fx_config_main("lz4");
    fx_small_tree();
    assert_int_equal(fx_pack(f), 0);
    char *h1 = fx_read("generated/content_main.h");
    char *line = strstr(h1, "Content_Main_Icons_sword = ");
    assert_non_null(line);
    char sword[64];
    snprintf(sword, sizeof sword, "%.*s", (int)strcspn(line, ",\n"), line);
    /* Remove one asset, edit another: the removed one is a tombstone, the others keep their ids. */
    fx_remove("assets/Icons/shield.png");
    fx_write("assets/Icons/sword.png", "a new sword, longer than before");
    assert_int_equal(fx_generate(f), 0);
    char *h2 = fx_read("generated/content_main.h");
    assert_non_null(strstr(h2, sword));
    assert_non_null(strstr(h2, "Content_Main_Icons_shield TL_DEPRECATED_ENTRY"));
    assert_int_equal(fx_run(f, GEN_CHECK), 0);
    fx_write("assets/Levels/new.txt", "new");
    assert_int_equal(fx_run(f, GEN_CHECK), 1);
    free(h1);
    free(h2);
}

/* Output folders that differ only in case are one folder on macOS and Windows (F3). */
static void test_content_outputs_differing_in_case(void **state)
{
    fx_expect_config_error(*state,
                        "{ \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\" },\n"
                        "    { \"profile\": \"Extra\", \"source_root\": \"assets\", \"output\": \"out/main\" },\n"
                        "    { \"profile\": \"Inner\", \"source_root\": \"assets\", \"output\": \"OUT/MAIN/inner\" },\n"
                        "    { \"profile\": \"Other\", \"source_root\": \"assets\", \"output\": \"out/Mains\" }",
                        "threadlink.json:5:52: error: content[1].output: output folder \"out/main\" overlaps the output of profile \"Main\" (\"out/Main\") when case is ignored, as on macOS and Windows; choose folders whose names differ in more than case\n"
                        "threadlink.json:6:52: error: content[2].output: output folder \"OUT/MAIN/inner\" overlaps the output of profile \"Main\" (\"out/Main\") when case is ignored, as on macOS and Windows; choose folders whose names differ in more than case\n"
                        "threadlink.json:6:52: error: content[2].output: output folder \"OUT/MAIN/inner\" overlaps the output of profile \"Extra\" (\"out/main\") when case is ignored, as on macOS and Windows; choose folders whose names differ in more than case\n");
}

static void test_content_symlinks_and_special_files(void **state)
{
    fixture *f = *state;
    fx_write("threadlink.json", "{ \"content\": [ { \"profile\": \"Main\", \"source_root\": \"assets\", \"output\": \"out/Main\" } ] }\n");
    fx_write("assets/real.txt", "real");
    fx_write("outside/secret.txt", "secret");
    assert_int_equal(symlink("real.txt", "assets/alias.txt"), 0);
    assert_int_equal(symlink("../outside/secret.txt", "assets/escape.txt"), 0);
    assert_int_equal(symlink("missing.txt", "assets/broken.txt"), 0);
    assert_int_equal(symlink(".", "assets/loop"), 0);
    assert_int_equal(mkfifo("assets/pipe", 0644), 0);
    assert_int_equal(fx_pack(f), 0);
    char *real = realpath("outside/secret.txt", NULL);
    char *expect = xasprintf("assets/broken.txt: warning: broken symbolic link skipped\n"
                             "assets/escape.txt: warning: symbolic link to %s skipped: it leads out of the source root and is never followed\n"
                             "assets/loop: warning: symbolic link skipped: it leads back into a folder being read (a loop)\n"
                             "assets/pipe: warning: special file skipped (only regular files are content)\n",
                             real);
    assert_string_equal(f->diags.data, expect);
    free(expect);
    free(real);
    char *h = fx_read("generated/content_main_catalog.h");
    assert_non_null(strstr(h, "\"alias\""));
    assert_null(strstr(h, "\"escape\""));
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_content_profile_name_path_character, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_profile_name_windows_and_length, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_source_root_is_the_generated_dir, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_source_root_trailing_separator, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_output_spelling, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_output_inside_source_root, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_output_containing_source_root, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_overlapping_categories, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_keys_and_types, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_compression_level, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_missing_keys_and_duplicate_profiles, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_profile_file_errors_located_in_that_file, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_duplicate_names, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_same_c_spelling, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_missing_folders, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_names_and_catalog_header, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_ids_stable_tombstones_and_check, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_outputs_differing_in_case, fixture_setup, fixture_teardown),
        cmocka_unit_test_setup_teardown(test_content_symlinks_and_special_files, fixture_setup, fixture_teardown),
    };
    return cmocka_run_group_tests_name("content_stage", tests, NULL, NULL);
}
