/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/text.h -- the text rules names and paths follow: UTF-8, case folding, file names.

   WHAT
   ----
   Byte-level text helpers shared by the content readers (content_format.h), content.h and
   threadlink-gen, so that the generator and the runtime agree on every name: well-formed UTF-8
   without control characters, ASCII case folding and the order it gives, what a plain file name
   is, which names a packed build may use as file names, and why Windows cannot hold a name. No
   allocation, no locale: every function reads the bytes it is given and nothing else.

   INCLUDE
   -------
       #include <threadlink/text.h>
       #define TL_TEXT_IMPL                    // in exactly one C or C++ file, before the include
       #include <threadlink/text.h>
   TL_IMPLEMENTATION turns this switch on with every other module's. content_format.h includes
   this header and its readers use it: a program that implements content_format.h (or content.h,
   patch.h, which read through it) implements this module once too, in that file or another.
   The declarations include only api.h.
*/
/* TL_IMPLEMENTATION implies every module's switch; checked outside the include guard, so that
   defining it between two includes of this header still counts. */
#if defined(TL_IMPLEMENTATION) && !defined(TL_TEXT_IMPL)
#define TL_TEXT_IMPL
#endif
#ifndef TL_TEXT_H
#define TL_TEXT_H

#include "api.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ASCII lowercase of one byte, the fold of names (content.h's name hash folds the same way). */
static inline unsigned char tl_text_fold(unsigned char c) {
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}
/* Bytewise order of ASCII-lowercased strings: the catalog's name index order. */
TL_API int tl_text_fold_compare(const char *a, size_t alen, const char *b, size_t blen);
/* Well-formed UTF-8 without control characters (names and paths): shortest forms only, no
   surrogates, nothing above U+10FFFF, no byte below 0x20 and no 0x7f. */
TL_API bool tl_text_utf8_ok(const unsigned char *s, size_t n);
/* A plain file name: not empty, at most 255 bytes, UTF-8 text, no '/' or '\\', not "." or "..". */
TL_API bool tl_text_valid_file_name(const char *s, size_t len);
/* The same without ':' either (a drive or stream separator on Windows): archive names and the
   profile (the names of a packed build). */
TL_API bool tl_text_portable_file_name(const char *s, size_t len);
/* Why Windows cannot hold `s` (len bytes) as the name of a file or folder, as a phrase to follow
   "file name" ("contains '?', which Windows does not allow in file names"), or NULL when it can:
   a control character, one of : < > " | ? * (':' separates a drive or stream), a name ending in
   '.' or ' ' (Windows drops them), or a device name: CON PRN AUX NUL COM1-COM9 LPT1-LPT9 (also
   COM and LPT with a superscript 1, 2 or 3), in any case, with or without an extension. */
TL_API const char *tl_text_windows_name_problem(const char *s, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* TL_TEXT_H */

/* ================================================================================================ */
#if defined(TL_TEXT_IMPL) && !defined(TL__TEXT_IMPLEMENTED)
#define TL__TEXT_IMPLEMENTED
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

int tl_text_fold_compare(const char *a, size_t alen, const char *b, size_t blen) {
    size_t n = alen < blen ? alen : blen, i;
    for (i = 0; i < n; i++) {
        unsigned char x = tl_text_fold((unsigned char)a[i]), y = tl_text_fold((unsigned char)b[i]);
        if (x != y) return x < y ? -1 : 1;
    }
    return alen == blen ? 0 : alen < blen ? -1 : 1;
}

/* The length of the well-formed multi-byte sequence at s (n > 0 bytes left, s[0] >= 0x80), or 0:
   a lead byte C2-F4, continuation bytes, the shortest form, no surrogate, at most U+10FFFF. */
static size_t tl__text_utf8_sequence(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    size_t len, k;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if (n < len) return 0;
    for (k = 1; k < len; k++) {
        if ((s[k] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[k] & 0x3fu);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

bool tl_text_utf8_ok(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t len;
        if (c < 0x20 || c == 0x7f) return false;
        if (c < 0x80) {
            i++;
            continue;
        }
        len = tl__text_utf8_sequence(s + i, n - i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

bool tl_text_valid_file_name(const char *s, size_t len) {
    size_t i;
    if (len == 0 || len > 255) return false;
    if ((len == 1 && s[0] == '.') || (len == 2 && s[0] == '.' && s[1] == '.')) return false;
    for (i = 0; i < len; i++)
        if (s[i] == '/' || s[i] == '\\') return false;
    return tl_text_utf8_ok((const unsigned char *)s, len);
}

bool tl_text_portable_file_name(const char *s, size_t len) {
    return tl_text_valid_file_name(s, len) && memchr(s, ':', len) == NULL;
}

/* The first byte of s that Windows refuses in a name, as its phrase, or NULL. */
static const char *tl__text_windows_byte_problem(const char *s, size_t len) {
    size_t i;
    for (i = 0; i < len; i++) {
        switch ((unsigned char)s[i]) {
        case ':': return "contains ':', a drive or stream separator on Windows";
        case '<': return "contains '<', which Windows does not allow in file names";
        case '>': return "contains '>', which Windows does not allow in file names";
        case '"': return "contains '\"', which Windows does not allow in file names";
        case '|': return "contains '|', which Windows does not allow in file names";
        case '?': return "contains '?', which Windows does not allow in file names";
        case '*': return "contains '*', which Windows does not allow in file names";
        default:
            if ((unsigned char)s[i] < 0x20)
                return "contains a control character, which Windows does not allow in file names";
        }
    }
    return NULL;
}

/* Whether s is a device name: the part before the first '.', spaces at its end ignored
   ("CON .txt"), is CON, PRN, AUX or NUL, or COM or LPT then 1-9 or a superscript 1, 2 or 3. */
static bool tl__text_windows_device(const char *s, size_t len) {
    static const char *const devices[] = { "CON", "PRN", "AUX", "NUL" };
    size_t i, stem = 0;
    while (stem < len && s[stem] != '.') stem++;
    while (stem && s[stem - 1] == ' ') stem--;
    if (stem == 3) {
        for (i = 0; i < sizeof devices / sizeof *devices; i++)
            if (tl_text_fold_compare(s, 3, devices[i], 3) == 0) return true;
    }
    if ((stem == 4 && s[3] >= '1' && s[3] <= '9') ||
        (stem == 5 && (unsigned char)s[3] == 0xc2 &&
         ((unsigned char)s[4] == 0xb9 || (unsigned char)s[4] == 0xb2 ||
          (unsigned char)s[4] == 0xb3))) {
        if (tl_text_fold_compare(s, 3, "COM", 3) == 0 || tl_text_fold_compare(s, 3, "LPT", 3) == 0)
            return true;
    }
    return false;
}

const char *tl_text_windows_name_problem(const char *s, size_t len) {
    const char *why = tl__text_windows_byte_problem(s, len);
    if (why) return why;
    if (len && s[len - 1] == '.') return "ends in '.', which Windows drops from file names";
    if (len && s[len - 1] == ' ') return "ends in a space, which Windows drops from file names";
    if (tl__text_windows_device(s, len))
        return "is a Windows device name (CON, PRN, AUX, NUL, COM1-COM9, LPT1-LPT9, with or without an extension)";
    return NULL;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_TEXT_IMPL */
