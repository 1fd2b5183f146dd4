/* Fuzz target: the names' comparison key of runtime/threadlink/text.h (tl_text_name_key), on any
 * bytes: UTF-8 or not, marks in any order, Hangul, code points that decompose in several steps.
 * The key is written into an exact-size allocation of TL_TEXT_NAME_KEY_MAX(n) bytes (ASan sees a
 * write past it) and must be at most that long; it is its own key (idempotent); it fits in its
 * own length and not in one byte less (the refusal says so rather than writing past the room);
 * a name without a byte above ASCII keys to its ASCII fold. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <threadlink/text.h>

static void require(int ok) {
    if (!ok) abort();
}

static void check_ascii_fold(const char *s, size_t n, const char *key, size_t k) {
    size_t i;
    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return;
    require(k == n);
    for (i = 0; i < n; i++) require((unsigned char)key[i] == tl_text_fold((unsigned char)s[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t cap = TL_TEXT_NAME_KEY_MAX(size), k, again;
    char *in = (char *)calloc(size ? size : 1, 1), *key = (char *)malloc(cap ? cap : 1);
    char *twice = (char *)malloc(cap ? cap : 1);
    require(in && key && twice);
    if (size) memcpy(in, data, size);
    k = tl_text_name_key(in, size, key, cap);
    require(k != (size_t)-1 && k <= cap);
    check_ascii_fold(in, size, key, k);
    again = tl_text_name_key(key, k, twice, k);
    require(again == k && memcmp(key, twice, k) == 0);
    if (k) require(tl_text_name_key(in, size, twice, k - 1) == (size_t)-1);
    free(in);
    free(key);
    free(twice);
    return 0;
}
