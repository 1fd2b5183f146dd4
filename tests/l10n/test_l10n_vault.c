/* The LocalizedText vault field type (issue 46) over tests/l10n/vault_project: an Item vault whose
   Name is a LocalizedText (default SwordName) and Titles an InlineList of them, its data naming
   text keys, and the project's en and fr tables. The generated accessor gives the current
   locale's text through l10n.h's tl_l10n_text_of_key (vault.h knows only the hook type); the
   baked values are the keys' Text.Keys values; a vault with a LocalizedText field writes and
   reads back (the runtime knows the tag, 17). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <threadlink/l10n.h>

#include "text.h"
#include "vaults/items_data.h"

#ifndef TABLES_DIR
#error "TABLES_DIR must name tests/l10n/vault_project/generated/text"
#endif

typedef struct fx {
    unsigned char *en, *fr;
    tl_l10n *text;
} fx;

static unsigned char *read_table(const char *locale, size_t *size) {
    char path[512];
    unsigned char *bytes;
    long n;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s.tltext", TABLES_DIR, locale);
    f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = (unsigned char *)malloc((size_t)n);
    assert_int_equal(fread(bytes, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return bytes;
}

static int setup(void **state) {
    fx *f = (fx *)calloc(1, sizeof *f);
    tl_l10n_desc desc;
    size_t en_size, fr_size;
    memset(&desc, 0, sizeof desc);
    desc.keys = text_keys_l10n();
    f->text = tl_l10n_create(&desc);
    f->en = read_table("en", &en_size);
    f->fr = read_table("fr", &fr_size);
    assert_int_equal(tl_l10n_add_table(f->text, f->en, en_size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(f->text, f->fr, fr_size), TL_L10N_OK);
    assert_int_equal(tl_l10n_set_locale(f->text, "en"), TL_L10N_OK);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = (fx *)*state;
    tl_l10n_destroy(f->text);
    free(f->en);
    free(f->fr);
    free(f);
    return 0;
}

/* The accessor follows the locale: nothing to refresh in the vault. */
static void test_l10n_vault_accessor_gives_the_current_locale(void **state) {
    fx *f = (fx *)*state;
    const item_vault *sword = items_by_name("Sword"), *shield = items_by_name("Shield");
    assert_string_equal(item_vault_text_Name(sword, tl_l10n_text_of_key, f->text), "Sword"); /* the default */
    assert_string_equal(item_vault_text_Name(shield, tl_l10n_text_of_key, f->text), "Shield");
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    assert_string_equal(item_vault_text_Name(sword, tl_l10n_text_of_key, f->text), "\xC3\x89p\xC3\xA9" "e");
    assert_string_equal(item_vault_text_Name(shield, tl_l10n_text_of_key, f->text), "Bouclier");
}

/* The field holds the key's Text.Keys value, what a save holds; "" is no key (0). */
static void test_l10n_vault_values_are_text_keys(void **state) {
    fx *f = (fx *)*state;
    const item_vault *sword = items_by_name("Sword"), *nothing = items_by_name("Nothing");
    item_vault_Titles_list_const titles = item_vault_get_Titles(sword);
    assert_int_equal(item_vault_get_Name(sword).key, (uint32_t)Text_Keys_SwordName);
    assert_int_equal(item_vault_get_Name(nothing).key, 0);
    assert_string_equal(item_vault_text_Name(nothing, tl_l10n_text_of_key, f->text), "");
    assert_string_equal(item_vault_text_Name(sword, NULL, NULL), ""); /* no text function */
    assert_int_equal(item_vault_Titles_list_const_count(titles), 2);
    assert_int_equal(item_vault_Titles_list_const_at(titles, 0)->key, (uint32_t)Text_Keys_Legendary);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    assert_string_equal(tl_vault_text(*item_vault_Titles_list_const_at(titles, 0), tl_l10n_text_of_key, f->text),
                        "L\xC3\xA9gendaire");
}

/* A set key, written and read back: the runtime's serialisation knows the LocalizedText tag. */
static void test_l10n_vault_field_round_trips(void **state) {
    fx *f = (fx *)*state;
    item_vault v, back;
    tl_vault_localized_text shield = { (uint32_t)Text_Keys_ShieldName };
    unsigned char bytes[256];
    size_t written = 0;
    (void)f;
    item_vault_init(&v);
    item_vault_set_Name(&v, shield);
    assert_int_equal(tl_vault_write(&item_vault_desc, &v, bytes, sizeof bytes, &written), TL_VAULT_OK);
    item_vault_init(&back);
    assert_int_equal(tl_vault_read(&item_vault_desc, &back, bytes, written), TL_VAULT_OK);
    assert_int_equal(item_vault_get_Name(&back).key, (uint32_t)Text_Keys_ShieldName);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_l10n_vault_accessor_gives_the_current_locale, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_vault_values_are_text_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_vault_field_round_trips, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
