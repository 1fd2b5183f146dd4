/* l10n.h over the tables threadlink-gen built for tests/l10n/project (en, fr, fr_CA, ru): adding
   tables and refusing bad ones, the fallback chain, lookups, typed formatting (reordered and
   omitted placeholders, plural rules, truncation at a character boundary), OnLocaleChanged, the
   native events file, and no allocation after create. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static size_t g_calls; /* TL_MALLOC's calls: none may happen after create */
static void *count_malloc(size_t n) {
    g_calls++;
    return malloc(n);
}
#define TL_MALLOC(size) count_malloc(size)
#define TL_FREE(ptr) free(ptr)
#define TL_IMPLEMENTATION
#include <threadlink/l10n.h>

#include "text.h"

#ifndef TABLES_DIR
#error "TABLES_DIR must name tests/l10n/project/generated/text"
#endif
#ifndef NATIVES_FILE
#error "NATIVES_FILE must name runtime/threadlink/natives/Iris.Events.Native.txt"
#endif

typedef struct table_file {
    unsigned char *bytes;
    size_t size;
} table_file;

typedef struct fx {
    table_file en, fr, fr_ca, ru;
    tl_logger logger;
    char log[2048];
    int log_lines;
    tl_l10n *text;
} fx;

static table_file read_table(const char *locale) {
    char path[512];
    table_file t = { NULL, 0 };
    FILE *f;
    long n;
    snprintf(path, sizeof path, "%s/%s.tltext", TABLES_DIR, locale);
    f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    t.bytes = (unsigned char *)malloc((size_t)n);
    t.size = fread(t.bytes, 1, (size_t)n, f);
    fclose(f);
    assert_int_equal(t.size, (size_t)n);
    return t;
}

static void sink(void *user, const tl_log_record *rec) {
    fx *f = (fx *)user;
    size_t used = strlen(f->log);
    snprintf(f->log + used, sizeof f->log - used, "%s\n", rec->line);
    f->log_lines++;
}

static tl_l10n *make(fx *f, tl_events *registry) {
    tl_l10n_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.keys = text_keys_l10n();
    desc.logger = &f->logger;
    desc.registry = registry;
    return tl_l10n_create(&desc);
}

static int setup(void **state) {
    fx *f = (fx *)calloc(1, sizeof *f);
    f->en = read_table("en");
    f->fr = read_table("fr");
    f->fr_ca = read_table("fr_CA");
    f->ru = read_table("ru");
    f->logger.sink = sink;
    f->logger.user = f;
    f->text = make(f, NULL);
    assert_non_null(f->text);
    *state = f;
    return 0;
}

static int teardown(void **state) {
    fx *f = (fx *)*state;
    tl_l10n_destroy(f->text);
    free(f->en.bytes);
    free(f->fr.bytes);
    free(f->fr_ca.bytes);
    free(f->ru.bytes);
    free(f);
    return 0;
}

static void add_all(fx *f) {
    assert_int_equal(tl_l10n_add_table(f->text, f->en.bytes, f->en.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(f->text, f->fr.bytes, f->fr.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(f->text, f->fr_ca.bytes, f->fr_ca.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(f->text, f->ru.bytes, f->ru.size), TL_L10N_OK);
}

/* --- tables -------------------------------------------------------------------------------------- */

static void test_l10n_tables_added_and_listed(void **state) {
    fx *f = (fx *)*state;
    add_all(f);
    assert_int_equal(tl_l10n_locale_count(f->text), 4);
    assert_string_equal(tl_l10n_locale_at(f->text, 0), "en");
    assert_string_equal(tl_l10n_locale_at(f->text, 2), "fr_CA");
    assert_null(tl_l10n_locale_at(f->text, 4));
    assert_true(tl_l10n_has_locale(f->text, "FR-ca"));
    assert_false(tl_l10n_has_locale(f->text, "de"));
    /* en, the source locale, was added first with no locale set: it is the locale, texts show. */
    assert_string_equal(tl_l10n_locale(f->text), "en");
    assert_true(tl_l10n_text(f->text, TEXT_INDEX_Title)[0] != '\0');
    assert_int_equal(tl_l10n_add_table(f->text, f->fr.bytes, f->fr.size), TL_L10N_DUPLICATE_LOCALE);
    assert_non_null(strstr(f->log, "table fr refused: a table of this locale is added already"));
}

static void test_l10n_refuses_bad_tables(void **state) {
    fx *f = (fx *)*state;
    unsigned char *copy = (unsigned char *)malloc(f->fr.size);
    size_t i;
    memcpy(copy, f->fr.bytes, f->fr.size);
    assert_int_equal(tl_l10n_add_table(f->text, copy, 10), TL_L10N_NOT_A_TABLE);
    assert_int_equal(tl_l10n_add_table(f->text, copy, f->fr.size - 1), TL_L10N_NOT_A_TABLE);
    copy[0] = 'X';
    assert_int_equal(tl_l10n_add_table(f->text, copy, f->fr.size), TL_L10N_NOT_A_TABLE);
    copy[0] = f->fr.bytes[0];
    /* Any byte of the body changed: the checksum says so. */
    for (i = TL_L10N_TABLE_HEADER; i < f->fr.size; i += 7) {
        copy[i] ^= 0x20;
        assert_int_equal(tl_l10n_add_table(f->text, copy, f->fr.size), TL_L10N_CORRUPT_TABLE);
        copy[i] ^= 0x20;
    }
    /* A table of another build of the keys. */
    f->log[0] = '\0';
    copy[16] ^= 1;
    assert_int_equal(tl_l10n_add_table(f->text, copy, f->fr.size), TL_L10N_LAYOUT_MISMATCH);
    assert_int_equal(tl_l10n_locale_count(f->text), 0);
    assert_non_null(strstr(f->log, "table fr refused: the text table was built for other keys"));
    assert_int_equal(tl_l10n_add_table(f->text, NULL, 0), TL_L10N_INVALID_ARGUMENT);
    free(copy);
}

static void test_l10n_table_slots_are_bounded(void **state) {
    fx *f = (fx *)*state;
    tl_l10n_desc desc;
    tl_l10n *two;
    memset(&desc, 0, sizeof desc);
    desc.keys = text_keys_l10n();
    desc.logger = &f->logger;
    desc.max_tables = 2;
    two = tl_l10n_create(&desc);
    assert_int_equal(tl_l10n_add_table(two, f->en.bytes, f->en.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(two, f->fr.bytes, f->fr.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(two, f->ru.bytes, f->ru.size), TL_L10N_TOO_MANY_TABLES);
    tl_l10n_destroy(two);
    desc.keys = NULL;
    assert_null(tl_l10n_create(&desc));
    assert_null(tl_l10n_create(NULL));
}

/* --- the chain ----------------------------------------------------------------------------------- */

static void test_l10n_fallback_chain_fills_gaps(void **state) {
    fx *f = (fx *)*state;
    char line[128];
    add_all(f);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr-ca"), TL_L10N_OK);
    assert_string_equal(tl_l10n_locale(f->text), "fr_CA"); /* the table's spelling */
    assert_string_equal(text_Quit(f->text), "Sortir");         /* fr_CA */
    assert_string_equal(text_Title(f->text), "Threadlink");     /* fr */
    assert_int_equal(text_Score(f->text, line, sizeof line, 42), TL_L10N_OK);
    assert_string_equal(line, "Score : 42"); /* fr */
    assert_int_equal(tl_l10n_set_locale(f->text, "ru"), TL_L10N_OK);
    assert_string_equal(text_Title(f->text), "Треадлинк");
    assert_string_equal(text_Quit(f->text), "Quit"); /* en: ru has none */
    assert_int_equal(text_Score(f->text, line, sizeof line, -7), TL_L10N_OK);
    assert_string_equal(line, "Score: -7");
}

static void test_l10n_unknown_locale_refused(void **state) {
    fx *f = (fx *)*state;
    add_all(f);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    assert_int_equal(tl_l10n_set_locale(f->text, "de_DE"), TL_L10N_UNKNOWN_LOCALE);
    assert_string_equal(tl_l10n_locale(f->text), "fr"); /* unchanged */
    assert_string_equal(text_Quit(f->text), "Quitter");
    assert_non_null(strstr(f->log, "locale \"de_DE\" refused: no table of this locale"));
    assert_int_equal(tl_l10n_set_locale(f->text, "fr CA"), TL_L10N_INVALID_ARGUMENT);
    assert_int_equal(tl_l10n_set_locale(f->text, ""), TL_L10N_INVALID_ARGUMENT);
    /* A region of the source locale reaches it by cutting: en_GB is English. */
    assert_int_equal(tl_l10n_set_locale(f->text, "en_GB"), TL_L10N_OK);
    assert_string_equal(tl_l10n_locale(f->text), "en");
    assert_string_equal(text_Quit(f->text), "Quit");
}

static void test_l10n_missing_texts_without_the_source_table(void **state) {
    fx *f = (fx *)*state;
    char line[64];
    assert_int_equal(tl_l10n_add_table(f->text, f->fr_ca.bytes, f->fr_ca.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr_CA"), TL_L10N_OK);
    assert_non_null(strstr(f->log, "locale fr_CA: 5 of 6 keys have no text in its chain"));
    assert_string_equal(text_Quit(f->text), "Sortir");
    assert_string_equal(text_Title(f->text), "");
    strcpy(line, "x");
    assert_int_equal(text_Score(f->text, line, sizeof line, 1), TL_L10N_MISSING_TEXT);
    assert_string_equal(line, "");
}

/* A table that belongs in the current chain joins it when added: the source's added after the
   locale was set fills the gaps, a language pack for the locale asked (fr_CA while fr shows)
   becomes the locale (OnLocaleChanged); a table of another locale changes nothing. */
static void test_l10n_tables_added_late_join_the_chain(void **state) {
    fx *f = (fx *)*state;
    assert_int_equal(tl_l10n_add_table(f->text, f->fr.bytes, f->fr.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr_CA"), TL_L10N_OK); /* fr_CA -> fr: known */
    assert_string_equal(tl_l10n_locale(f->text), "fr");
    assert_string_equal(text_Quit(f->text), "Quitter");
    assert_int_equal(tl_l10n_add_table(f->text, f->ru.bytes, f->ru.size), TL_L10N_OK);
    assert_string_equal(tl_l10n_locale(f->text), "fr");
    assert_int_equal(tl_l10n_add_table(f->text, f->fr_ca.bytes, f->fr_ca.size), TL_L10N_OK);
    assert_string_equal(tl_l10n_locale(f->text), "fr_CA");
    assert_string_equal(text_Quit(f->text), "Sortir");
    assert_int_equal(tl_l10n_set_locale(f->text, "ru"), TL_L10N_OK); /* no en yet: gaps */
    assert_string_equal(text_Quit(f->text), "");
    f->log[0] = '\0';
    assert_int_equal(tl_l10n_add_table(f->text, f->en.bytes, f->en.size), TL_L10N_OK);
    assert_string_equal(tl_l10n_locale(f->text), "ru");
    assert_string_equal(text_Quit(f->text), "Quit"); /* ru has none: en's */
    assert_null(strstr(f->log, "have no text in its chain"));
}

static void test_l10n_table_of_the_chain_cannot_be_removed(void **state) {
    fx *f = (fx *)*state;
    add_all(f);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr_CA"), TL_L10N_OK);
    assert_int_equal(tl_l10n_remove_table(f->text, "fr"), TL_L10N_TABLE_IN_USE);
    assert_int_equal(tl_l10n_remove_table(f->text, "de"), TL_L10N_NO_SUCH_TABLE);
    /* en sits before the others: the chain's tables move down a slot and still answer. */
    assert_int_equal(tl_l10n_remove_table(f->text, "EN"), TL_L10N_TABLE_IN_USE);
    assert_int_equal(tl_l10n_set_locale(f->text, "ru"), TL_L10N_OK);
    assert_int_equal(tl_l10n_remove_table(f->text, "fr_CA"), TL_L10N_OK);
    assert_int_equal(tl_l10n_remove_table(f->text, "fr"), TL_L10N_OK);
    assert_int_equal(tl_l10n_locale_count(f->text), 2);
    assert_string_equal(text_Title(f->text), "Треадлинк");
    assert_string_equal(text_Quit(f->text), "Quit");
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_UNKNOWN_LOCALE);
    assert_int_equal(tl_l10n_add_table(f->text, f->fr.bytes, f->fr.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr_CA"), TL_L10N_OK); /* fr, then en */
    assert_string_equal(text_Quit(f->text), "Quitter");
}

/* --- formatting ---------------------------------------------------------------------------------- */

static void test_l10n_format_reorders_and_escapes(void **state) {
    fx *f = (fx *)*state;
    char line[128];
    size_t length = 0;
    add_all(f);
    assert_int_equal(tl_l10n_set_locale(f->text, "en"), TL_L10N_OK);
    assert_int_equal(text_Greeting(f->text, line, sizeof line, "Ann", 3), TL_L10N_OK);
    assert_string_equal(line, "Hello, Ann! You have 3 coins.");
    assert_int_equal(text_Braces(f->text, line, sizeof line, UINT64_MAX), TL_L10N_OK);
    assert_string_equal(line, "{literal} and 18446744073709551615");
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    assert_int_equal(text_Greeting(f->text, line, sizeof line, "Ann", 3), TL_L10N_OK);
    assert_string_equal(line, "Vous avez 3 pièces, Ann ! Ça va ?");
    assert_int_equal(text_Braces(f->text, line, sizeof line, 7), TL_L10N_OK);
    assert_string_equal(line, "{littéral} et 7");
    /* The text of a key with placeholders is formatted, not looked up. */
    assert_string_equal(tl_l10n_text(f->text, TEXT_INDEX_Greeting), "");
    assert_int_equal(tl_l10n_format(f->text, TEXT_INDEX_Quit, TL_L10N_NO_COUNT, NULL, 0, line,
                                    sizeof line, &length),
                     TL_L10N_OK);
    assert_string_equal(line, "Quitter");
    assert_int_equal(length, 7);
    assert_int_equal(text_Score(f->text, line, sizeof line, INT64_MIN), TL_L10N_OK);
    assert_string_equal(line, "Score : -9223372036854775808");
}

static void test_l10n_plural_forms_follow_each_rule(void **state) {
    fx *f = (fx *)*state;
    static const struct {
        const char *locale;
        int64_t n;
        const char *want;
    } cases[] = {
        { "en", 1, "One enemy left" },          { "en", 0, "0 enemies left" },
        { "en", 2, "2 enemies left" },          { "en", -1, "One enemy left" },
        { "fr", 0, "0 ennemi restant" },        { "fr", 1, "1 ennemi restant" },
        { "fr", 2, "2 ennemis restants" },      { "ru", 1, "Остался 1 враг" },
        { "ru", 2, "Осталось 2 врага" },        { "ru", 5, "Осталось 5 врагов" },
        { "ru", 11, "Осталось 11 врагов" },     { "ru", 21, "Остался 21 враг" },
        { "ru", 22, "Осталось 22 врага" },      { "ru", 112, "Осталось 112 врагов" },
        { "fr_CA", 3, "3 ennemis restants" }, /* fr's text, fr's rule */
    };
    char line[128];
    size_t i;
    add_all(f);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(tl_l10n_set_locale(f->text, cases[i].locale), TL_L10N_OK);
        assert_int_equal(text_EnemiesLeft(f->text, line, sizeof line, cases[i].n), TL_L10N_OK);
        assert_string_equal(line, cases[i].want);
    }
}

static void test_l10n_truncates_at_a_character_boundary(void **state) {
    fx *f = (fx *)*state;
    const char *full = "Vous avez 3 pièces, Ann ! Ça va ?";
    char line[64];
    size_t size, length;
    add_all(f);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    for (size = 1; size <= strlen(full); size++) {
        tl_l10n_arg args[2];
        size_t kept;
        args[0] = tl_l10n_str("Ann");
        args[1] = tl_l10n_int(3);
        memset(line, 'Z', sizeof line);
        assert_int_equal(tl_l10n_format(f->text, TEXT_INDEX_Greeting, TL_L10N_NO_COUNT, args, 2,
                                        line, size, &length),
                         TL_L10N_TRUNCATED);
        assert_int_equal(length, strlen(full));
        kept = strlen(line);
        assert_true(kept < size);
        assert_memory_equal(line, full, kept);
        /* the cut is never inside è (2 bytes) or Ç (2 bytes): what is kept ends a character */
        assert_true(((unsigned char)full[kept] & 0xC0) != 0x80);
        assert_true(kept + 4 >= size - 1 || kept == size - 1);
        assert_int_equal(line[size], 'Z'); /* nothing past the buffer */
    }
    assert_int_equal(text_Greeting(f->text, NULL, 0, "Ann", 3), TL_L10N_TRUNCATED);
    assert_int_equal(text_Greeting(f->text, line, strlen(full) + 1, "Ann", 3), TL_L10N_OK);
    assert_string_equal(line, full);
}

static void test_l10n_bad_arguments_refused(void **state) {
    fx *f = (fx *)*state;
    tl_l10n_arg args[1];
    char line[32];
    add_all(f);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    args[0] = tl_l10n_str("three");
    assert_int_equal(tl_l10n_format(f->text, TEXT_INDEX_Greeting, TL_L10N_NO_COUNT, args, 1, line,
                                    sizeof line, NULL),
                     TL_L10N_BAD_ARGUMENTS); /* {coins} is the second */
    assert_string_equal(line, "");
    assert_int_equal(tl_l10n_format(f->text, TEXT_INDEX_EnemiesLeft, 0, args, 1, line, sizeof line,
                                    NULL),
                     TL_L10N_BAD_ARGUMENTS); /* a string cannot count */
    assert_int_equal(tl_l10n_format(f->text, TEXT_INDEX_EnemiesLeft, TL_L10N_NO_COUNT, args, 1,
                                    line, sizeof line, NULL),
                     TL_L10N_BAD_ARGUMENTS);
    assert_int_equal(tl_l10n_format(f->text, 99, TL_L10N_NO_COUNT, NULL, 0, line, sizeof line, NULL),
                     TL_L10N_INVALID_ARGUMENT);
    assert_int_equal(tl_l10n_format(f->text, TEXT_INDEX_Quit, TL_L10N_NO_COUNT, NULL, 0, NULL, 4,
                                    NULL),
                     TL_L10N_INVALID_ARGUMENT);
    assert_string_equal(tl_l10n_text(f->text, 99), "");
}

/* A string argument filled by hand with a NULL pointer formats as "", as tl_l10n_str(NULL). */
static void test_l10n_null_string_argument_is_empty(void **state) {
    fx *f = (fx *)*state;
    tl_l10n_arg args[2];
    char line[64];
    add_all(f);
    memset(args, 0, sizeof args);
    args[0].type = TL_L10N_ARG_STR; /* the name, not known yet */
    args[1] = tl_l10n_int(3);
    assert_int_equal(tl_l10n_format(f->text, TEXT_INDEX_Greeting, TL_L10N_NO_COUNT, args, 2, line,
                                    sizeof line, NULL),
                     TL_L10N_OK);
    assert_string_equal(line, "Hello, ! You have 3 coins.");
}

/* --- a table the game did not build with its source --------------------------------------------- */

static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void put_le(unsigned char *p, uint64_t v, int bytes) {
    int i;
    for (i = 0; i < bytes; i++) p[i] = (unsigned char)(v >> (8 * i));
}
/* Key k's entry of a table (offset, forms, flags), and its first text. */
static unsigned char *entry_of(table_file *t, uint32_t k) { return t->bytes + 64 + (size_t)k * 8; }
static unsigned char *text_of(table_file *t, uint32_t k) {
    uint32_t keys = le32(t->bytes + 24), forms = le32(t->bytes + 32), code = le32(t->bytes + 36);
    unsigned char *strings = t->bytes + 64 + (size_t)keys * 8 + (size_t)forms * 4 + code;
    return strings + le32(entry_of(t, k));
}
/* The checksum made right again: the table is well formed, only its texts are unlike the source's. */
static void reseal(table_file *t) {
    put_le(t->bytes + 48, tl_hash64(t->bytes + 64, t->size - 64, 0), 8);
}

/* A table that passes every check of its own (a mod, a download) but whose texts the game's
   calls cannot use: each such text is passed over for the source's, and set_locale says how many. */
static void test_l10n_texts_unlike_the_source_fall_back(void **state) {
    fx *f = (fx *)*state;
    unsigned char *e, *score;
    uint32_t plural_forms;
    char line[64];
    /* Quit (plain in en) as a plural of two forms: EnemiesLeft's forms, both made "Threadlink". */
    e = entry_of(&f->fr, TEXT_INDEX_EnemiesLeft);
    plural_forms = le32(e);
    {
        uint32_t keys = le32(f->fr.bytes + 24), title = le32(entry_of(&f->fr, TEXT_INDEX_Title));
        unsigned char *forms = f->fr.bytes + 64 + (size_t)keys * 8;
        put_le(forms + (size_t)plural_forms * 4, title, 4);
        put_le(forms + (size_t)(plural_forms + 1) * 4, title, 4);
    }
    e = entry_of(&f->fr, TEXT_INDEX_Quit);
    put_le(e, plural_forms, 4);
    put_le(e + 4, 2, 2);
    /* Title (plain in en) marked as having placeholders. */
    put_le(entry_of(&f->fr, TEXT_INDEX_Title) + 6, 1, 2);
    /* Score's placeholder made argument 4: the game passes one. */
    score = (unsigned char *)strchr((char *)text_of(&f->fr, TEXT_INDEX_Score), 0x01);
    assert_non_null(score);
    score[1] = 5;
    reseal(&f->fr);
    add_all(f);
    f->log[0] = '\0';
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    assert_non_null(strstr(f->log, "locale fr: 3 texts do not fit the source locale's"));
    assert_string_equal(text_Quit(f->text), "Quit");
    assert_string_equal(text_Title(f->text), "Threadlink");
    assert_int_equal(text_Score(f->text, line, sizeof line, 42), TL_L10N_OK);
    assert_string_equal(line, "Score: 42");
    /* The rest of the table is used as it is: EnemiesLeft's forms fit its source (fewer
       placeholders than it has), Greeting is untouched. */
    assert_int_equal(text_EnemiesLeft(f->text, line, sizeof line, 2), TL_L10N_OK);
    assert_string_equal(line, "Threadlink");
    assert_int_equal(text_Greeting(f->text, line, sizeof line, "Ann", 3), TL_L10N_OK);
    assert_string_equal(line, "Vous avez 3 pièces, Ann ! Ça va ?");
    /* Through fr_CA -> fr -> en: fr_CA's own Quit, fr's unfit Title passed over for en's. */
    assert_int_equal(tl_l10n_set_locale(f->text, "fr_CA"), TL_L10N_OK);
    assert_string_equal(text_Quit(f->text), "Sortir");
    assert_string_equal(text_Title(f->text), "Threadlink");
}

/* --- keys by value (a LocalizedText field's) ----------------------------------------------------- */

static void test_l10n_text_of_a_key_value(void **state) {
    fx *f = (fx *)*state;
    add_all(f);
    assert_int_equal(tl_l10n_set_locale(f->text, "fr"), TL_L10N_OK);
    assert_int_equal(tl_l10n_index_of(f->text, TEXT_KEYS_U32(Text_Keys_Quit)), TEXT_INDEX_Quit);
    assert_int_equal(tl_l10n_index_of(f->text, TEXT_KEYS_U32(Text_Keys_Braces)), TEXT_INDEX_Braces);
    assert_int_equal(tl_l10n_index_of(f->text, 12345u), UINT32_MAX);
    assert_string_equal(tl_l10n_text_of_key(f->text, TEXT_KEYS_U32(Text_Keys_Quit)), "Quitter");
    assert_string_equal(tl_l10n_text_of_key(f->text, 0), "");
}

/* --- plural code --------------------------------------------------------------------------------- */

static void test_l10n_plural_code_validated(void **state) {
    static const unsigned char good[] = { 0x01, 0x02, 1, 0, 0, 0, 0x25 };     /* n != 1 */
    static const unsigned char short_operand[] = { 0x02, 1, 0 };               /* u32 cut */
    static const unsigned char underflow[] = { 0x01, 0x13 };                   /* n + ? */
    static const unsigned char leftover[] = { 0x01, 0x01 };                    /* two values */
    static const unsigned char unknown[] = { 0x01, 0x7f };                     /* no such op */
    static const unsigned char div0[] = { 0x01, 0x02, 0, 0, 0, 0, 0x11 };      /* n / 0 */
    unsigned char deep[TL_L10N_PLURAL_STACK + 1];
    uint64_t form = 99;
    (void)state;
    assert_int_equal(tl_l10n_plural_run(good, sizeof good, 1, &form), TL_L10N_OK);
    assert_int_equal(form, 0);
    assert_int_equal(tl_l10n_plural_run(good, sizeof good, 5, &form), TL_L10N_OK);
    assert_int_equal(form, 1);
    assert_int_equal(tl_l10n_plural_run(div0, sizeof div0, 5, &form), TL_L10N_OK);
    assert_int_equal(form, 0);
    assert_int_equal(tl_l10n_plural_run(short_operand, sizeof short_operand, 1, &form),
                     TL_L10N_CORRUPT_TABLE);
    assert_int_equal(tl_l10n_plural_run(underflow, sizeof underflow, 1, &form),
                     TL_L10N_CORRUPT_TABLE);
    assert_int_equal(tl_l10n_plural_run(leftover, sizeof leftover, 1, &form), TL_L10N_CORRUPT_TABLE);
    assert_int_equal(tl_l10n_plural_run(unknown, sizeof unknown, 1, &form), TL_L10N_CORRUPT_TABLE);
    assert_int_equal(tl_l10n_plural_run(good, 0, 1, &form), TL_L10N_CORRUPT_TABLE);
    memset(deep, 0x01, sizeof deep); /* one value more than the stack holds */
    assert_int_equal(tl_l10n_plural_run(deep, sizeof deep, 1, &form), TL_L10N_CORRUPT_TABLE);
}

/* --- the event ----------------------------------------------------------------------------------- */

typedef struct heard {
    int calls;
    char locale[16];
} heard;

static void on_locale(void *ctx, const char *locale) {
    heard *h = (heard *)ctx;
    h->calls++;
    snprintf(h->locale, sizeof h->locale, "%s", locale);
}

static void test_l10n_locale_change_publishes_once(void **state) {
    fx *f = (fx *)*state;
    const tl_l10n_events native = TL_L10N_EVENTS_NATIVE;
    tl_events registry;
    tl_events_desc rd;
    heard h;
    tl_l10n *text;
    memset(&rd, 0, sizeof rd);
    memset(&h, 0, sizeof h);
    rd.span = native.locale_changed + 1;
    assert_int_equal(tl_events_init(&registry, &rd), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&registry, native.locale_changed, TL_L10N_SIG_LOCALE, 0,
                                    TL_EVENTS_FN(on_locale), &h), TL_EVENTS_OK);
    text = make(f, &registry);
    /* No locale until the source locale's table comes: a translation alone does not set one. */
    assert_int_equal(tl_l10n_add_table(text, f->fr.bytes, f->fr.size), TL_L10N_OK);
    assert_int_equal(h.calls, 0);
    assert_string_equal(tl_l10n_locale(text), "");
    assert_int_equal(tl_l10n_add_table(text, f->en.bytes, f->en.size), TL_L10N_OK);
    assert_int_equal(h.calls, 1);
    assert_string_equal(h.locale, "en");
    assert_int_equal(tl_l10n_set_locale(text, "fr"), TL_L10N_OK);
    assert_int_equal(h.calls, 2);
    assert_string_equal(h.locale, "fr");
    assert_int_equal(tl_l10n_set_locale(text, "FR"), TL_L10N_OK); /* the same: no event */
    assert_int_equal(tl_l10n_set_locale(text, "de"), TL_L10N_UNKNOWN_LOCALE);
    assert_int_equal(h.calls, 2);
    assert_int_equal(tl_l10n_set_locale(text, "en"), TL_L10N_OK);
    assert_int_equal(h.calls, 3);
    assert_string_equal(h.locale, "en");
    tl_l10n_destroy(text);
    tl_events_discard(&registry);
}

/* The natives file: OnLocaleChanged's line is where TL_L10N_EVENTS_NATIVE says, with this
   signature. */
static void test_l10n_native_events_file_matches_the_runtime(void **state) {
    const tl_l10n_events native = TL_L10N_EVENTS_NATIVE;
    char line[256];
    int n = 0, found = -1;
    FILE *file = fopen(NATIVES_FILE, "r");
    (void)state;
    assert_non_null(file);
    while (fgets(line, sizeof line, file)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || strncmp(line, "//", 2) == 0) continue;
        if (strncmp(line, "OnLocaleChanged", 15) == 0) {
            assert_string_equal(line, "OnLocaleChanged(const char *)");
            found = n;
        }
        n++;
    }
    fclose(file);
    assert_int_equal(found, (int)native.locale_changed);
    assert_int_equal(tl_hash32("(const char *)", 14, 0), TL_L10N_SIG_LOCALE);
}

/* --- allocation ---------------------------------------------------------------------------------- */

static void test_l10n_allocates_only_when_created(void **state) {
    fx *f = (fx *)*state;
    char line[128];
    size_t calls, i;
    tl_l10n *text = make(f, NULL);
    calls = g_calls;
    assert_int_equal(tl_l10n_add_table(text, f->en.bytes, f->en.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(text, f->fr.bytes, f->fr.size), TL_L10N_OK);
    assert_int_equal(tl_l10n_add_table(text, f->ru.bytes, f->ru.size), TL_L10N_OK);
    for (i = 0; i < 100; i++) {
        assert_int_equal(tl_l10n_set_locale(text, i % 2 ? "fr" : "ru"), TL_L10N_OK);
        (void)text_Title(text);
        assert_int_equal(text_EnemiesLeft(text, line, sizeof line, (int64_t)i), TL_L10N_OK);
        assert_int_equal(text_Greeting(text, line, sizeof line, "Ann", (int64_t)i), TL_L10N_OK);
    }
    assert_int_equal(tl_l10n_remove_table(text, "ru"), TL_L10N_OK);
    assert_int_equal(g_calls, calls);
    tl_l10n_destroy(text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_l10n_tables_added_and_listed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_refuses_bad_tables, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_table_slots_are_bounded, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_fallback_chain_fills_gaps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_unknown_locale_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_missing_texts_without_the_source_table, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_l10n_table_of_the_chain_cannot_be_removed, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_l10n_format_reorders_and_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_plural_forms_follow_each_rule, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_truncates_at_a_character_boundary, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_l10n_bad_arguments_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_tables_added_late_join_the_chain, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_null_string_argument_is_empty, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_texts_unlike_the_source_fall_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l10n_text_of_a_key_value, setup, teardown),
        cmocka_unit_test(test_l10n_plural_code_validated),
        cmocka_unit_test_setup_teardown(test_l10n_locale_change_publishes_once, setup, teardown),
        cmocka_unit_test(test_l10n_native_events_file_matches_the_runtime),
        cmocka_unit_test_setup_teardown(test_l10n_allocates_only_when_created, setup, teardown),
    };
    return cmocka_run_group_tests_name("l10n", tests, NULL, NULL);
}
