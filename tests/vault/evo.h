/* Schema evolution: tests/vault/evolution/v1 and v2 generate vault Unit twice, with fields added,
 * removed, reordered, made transient and given larger capacities. Each version lives in its own
 * translation unit (evo_v1.c, evo_v2.c), since both define unit_vault. */
#ifndef TEST_VAULT_EVO_H
#define TEST_VAULT_EVO_H
#include <stddef.h>
#include <stdint.h>

typedef struct evo_view {
    int32_t health;
    char name[17];
    int64_t speed_raw;
    int64_t removed; /* v1 only */
    double added;    /* v2 only */
    uint32_t tag_count;
    int32_t tags[8];
    double mode;     /* v1: transient Integer; v2: serialised Float */
} evo_view;

/* Writes a vault of that version with `fields` applied over the defaults; returns the size. */
size_t evo_v1_write(const evo_view *fields, unsigned char *out, size_t cap);
size_t evo_v2_write(const evo_view *fields, unsigned char *out, size_t cap);
/* Reads into a fresh vault (defaults first); returns the tl_vault_result and the result. */
int evo_v1_read(const unsigned char *in, size_t n, evo_view *out);
int evo_v2_read(const unsigned char *in, size_t n, evo_view *out);
/* Reads into a vault whose every byte was `fill` (no listener): not initialised with the defaults
 * first, as a game that zeroes its vaults, or reuses one, reads a save. */
int evo_v2_read_over(const unsigned char *in, size_t n, unsigned char fill, evo_view *out);
#endif
