/* Fuzz target: a text table as l10n.h receives it from content (tl_l10n_add_table), on any bytes,
 * over the key layout of tests/l10n/project (6 keys: plain, placeholders, a plural, braces). So
 * that the fuzzer gets past the header, the input's magic, layout and XXH64 are set right before
 * it is added (every other byte is the input's). With the project's English table as the source
 * locale: a table is refused or, once accepted, its locale can be set, every key's text read and
 * formatted through the generated functions into buffers of every size from 0 to 40. Checked:
 * a text is NUL-terminated UTF-8 without control bytes but tab and newline; a formatted result
 * fits its buffer (nothing written past it), is whole UTF-8 characters and a prefix of the
 * untruncated text; OK exactly when it fits, else TRUNCATED. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TL_L10N_IMPL
#include <threadlink/l10n.h>

#include "text.h"

#ifndef TL_FUZZ_EN_TABLE
#error "TL_FUZZ_EN_TABLE must name tests/l10n/project/generated/text/en.tltext"
#endif

static void require(int ok) {
    if (!ok) abort();
}

static void quiet(void *user, const tl_log_record *rec) {
    (void)user, (void)rec;
}

static unsigned char *read_en(size_t *size) {
    static unsigned char bytes[1 << 16];
    static size_t n;
    if (!n) {
        FILE *f = fopen(TL_FUZZ_EN_TABLE, "rb");
        require(f != NULL);
        n = fread(bytes, 1, sizeof bytes, f);
        fclose(f);
    }
    *size = n;
    return bytes;
}

/* Whole, well-formed UTF-8 (RFC 3629) without NUL or control bytes but tab and newline. */
static void check_text(const char *text, size_t n) {
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, k, len;
    while (i < n) {
        unsigned char c = s[i];
        uint32_t cp;
        len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        require(len != 0 && i + len <= n);
        require(c >= 0x20 || c == '\t' || c == '\n');
        cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
        for (k = 1; k < len; k++) {
            require((s[i + k] & 0xC0) == 0x80);
            cp = cp << 6 | (s[i + k] & 0x3Fu);
        }
        require(!(len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) && !(len == 4 && (cp < 0x10000 || cp > 0x10FFFF)));
        i += len;
    }
}

/* One key formatted into every size: what fits is a prefix of the whole text, cut on a character. */
#define CHECK_FORMAT(call)                                                                         \
    do {                                                                                           \
        char whole[512], part[41];                                                                 \
        size_t size, whole_len;                                                                    \
        tl_l10n_result r = (call(whole, sizeof whole));                                            \
        if (r != TL_L10N_OK) break; /* missing, or longer than 511 bytes */                        \
        whole_len = strlen(whole);                                                                 \
        check_text(whole, whole_len);                                                              \
        for (size = 0; size <= 40; size++) {                                                       \
            memset(part, 0x55, sizeof part);                                                       \
            r = (call(part, size));                                                                \
            require(size == 0 ? (r == TL_L10N_OK || r == TL_L10N_TRUNCATED)                        \
                              : r == (whole_len < size ? TL_L10N_OK : TL_L10N_TRUNCATED));         \
            require((unsigned char)part[size] == 0x55); /* nothing written past the buffer */     \
            if (size == 0) continue;                                                               \
            require(memchr(part, 0, size) != NULL);                                                \
            check_text(part, strlen(part));                                                        \
            require(strncmp(part, whole, strlen(part)) == 0);                                      \
        }                                                                                          \
    } while (0)

#define BRACES(b, n) text_Braces(l10n, b, n, 42u)
#define ENEMIES(b, n) text_EnemiesLeft(l10n, b, n, count)
#define GREETING(b, n) text_Greeting(l10n, b, n, "Zo\xC3\xAB", -7)
#define SCORE(b, n) text_Score(l10n, b, n, INT64_MIN)

static void check_locale(const tl_l10n *l10n) {
    int64_t counts[] = {0, 1, 2, 5, 11, 21, 101, -3, INT64_MIN};
    size_t i;
    check_text(text_Quit(l10n), strlen(text_Quit(l10n)));
    check_text(text_Title(l10n), strlen(text_Title(l10n)));
    CHECK_FORMAT(BRACES);
    CHECK_FORMAT(GREETING);
    CHECK_FORMAT(SCORE);
    for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int64_t count = counts[i];
        CHECK_FORMAT(ENEMIES);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const unsigned char magic[8] = {'T', 'L', 'T', 'E', 'X', 'T', 0, 0x1A};
    unsigned char *table = (unsigned char *)malloc(size ? size : 1);
    size_t en_size;
    unsigned char *en = read_en(&en_size);
    tl_l10n_desc desc;
    tl_logger logger;
    tl_l10n *l10n;
    memcpy(table, data, size);
    if (size >= TL_L10N_TABLE_HEADER) {
        uint64_t layout = TEXT_KEYS_LAYOUT, sum;
        int i;
        memcpy(table, magic, 8);
        for (i = 0; i < 8; i++) table[16 + i] = (unsigned char)(layout >> (8 * i));
        sum = tl_hash64(table + TL_L10N_TABLE_HEADER, size - TL_L10N_TABLE_HEADER, 0);
        for (i = 0; i < 8; i++) table[48 + i] = (unsigned char)(sum >> (8 * i));
    }
    memset(&desc, 0, sizeof desc);
    memset(&logger, 0, sizeof logger);
    logger.sink = quiet;
    desc.keys = text_keys_l10n();
    desc.logger = &logger;
    l10n = tl_l10n_create(&desc);
    require(l10n != NULL);
    require(tl_l10n_add_table(l10n, en, en_size) == TL_L10N_OK);
    if (tl_l10n_add_table(l10n, table, size) == TL_L10N_OK) {
        const char *locale = tl_l10n_locale_at(l10n, 1);
        require(locale != NULL);
        if (tl_l10n_set_locale(l10n, locale) == TL_L10N_OK) check_locale(l10n);
        require(tl_l10n_set_locale(l10n, "en") == TL_L10N_OK);
        require(tl_l10n_remove_table(l10n, locale) == TL_L10N_OK);
    }
    tl_l10n_destroy(l10n);
    free(table);
    return 0;
}
