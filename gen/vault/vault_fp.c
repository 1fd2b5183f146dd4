/* FP literals of vault data: decimal strings converted to Q32.32 exactly. A float or double would
 * round twice (decimal -> binary64 -> Q32.32) and differ from the nearest raw value for some
 * inputs, so this uses integer arithmetic only: the integer part directly, the fraction's bits
 * by doubling its decimal digits (each doubling carries out the next binary digit). */
#include "vault/vault_model.h"

/* literal -> [+-]? digit+ ( '.' digit+ )? */
/* 33 binary digits of the decimal fraction frac[0, len): 32 kept, the 33rd rounds (ties away
 * from zero: a half rounds up in magnitude, so the 33rd bit alone decides). */
static uint64_t fraction_bits(const char *frac, size_t len)
{
    uint64_t bits = 0;
    if (!len) return 0;
    unsigned char small[64];
    unsigned char *d = len <= sizeof small ? small : xmalloc(len);
    for (size_t i = 0; i < len; i++) d[i] = (unsigned char)(frac[i] - '0');
    for (int b = 0; b < 33; b++) {
        unsigned carry = 0;
        for (size_t i = len; i-- > 0;) {
            unsigned v = d[i] * 2u + carry;
            d[i] = (unsigned char)(v % 10);
            carry = v / 10;
        }
        bits = (bits << 1) | carry;
    }
    if (d != small) free(d);
    return bits;
}

const char *vault_fp_parse(const char *text, int64_t *raw)
{
    const char *p = text;
    bool negative = false;
    if (*p == '+' || *p == '-') negative = *p++ == '-';
    if (*p < '0' || *p > '9') return "expected a digit";
    uint64_t integer = 0;
    bool too_large = false;
    for (; *p >= '0' && *p <= '9'; p++) {
        integer = integer * 10 + (uint64_t)(*p - '0');
        if (integer > (UINT64_C(1) << 31)) {
            too_large = true;
            integer = UINT64_C(1) << 32; /* stays out of range, cannot wrap */
        }
    }
    const char *frac = NULL;
    size_t frac_len = 0;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9') return "expected a digit after '.'";
        frac = p;
        while (*p >= '0' && *p <= '9') p++;
        frac_len = (size_t)(p - frac);
    }
    if (*p) return "unexpected character (the form is [-]digits[.digits])";
    if (too_large) return "out of range (Q32.32 holds -2147483648 to 2147483647.99999999977)";
    while (frac_len && frac[frac_len - 1] == '0') frac_len--; /* trailing zeros add no bits */

    uint64_t bits = fraction_bits(frac, frac_len);
    uint64_t magnitude = (integer << 32) + (bits >> 1) + (bits & 1);
    uint64_t limit = negative ? UINT64_C(1) << 63 : (UINT64_C(1) << 63) - 1;
    if (magnitude > limit) return "out of range (Q32.32 holds -2147483648 to 2147483647.99999999977)";
    *raw = negative ? (int64_t)(0 - magnitude) : (int64_t)magnitude;
    return NULL;
}
