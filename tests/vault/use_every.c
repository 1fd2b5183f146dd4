/* Compiled as C99/C11/C2x and C++17 against the golden generated headers: every accessor kind,
 * data lookups and a serialisation round trip. */
#define TL_IMPLEMENTATION
#include "icons.h"
#include "vaults/things_data.h"

#include <stdio.h>

static int changes;
static void changed(void *user, void *vault, uint32_t field_id)
{
    (void)user;
    (void)vault;
    (void)field_id;
    changes++;
}

int main(void)
{
    every_vault v;
    static tl_vault_listeners set; /* zero: empty */
    unsigned char bytes[2048];
    size_t n = 0;
    const every_vault *first = things_by_name("first");
    every_vault_init(&v);
    every_vault_listen(&v, &set);
    if (tl_vault_subscribe_all(&set, &v, changed, TL__NULL) != TL_VAULT_OK) return 7;
    if (!first || things_by_id(THINGS_ID_Second) != &things_instances[1]) return 1;
    every_vault_set_Health(&v, every_vault_get_Health(first));
    if (!every_vault_set_Name(&v, "x")) return 2;
    every_vault_Seen_set_add(every_vault_edit_Seen(&v), 99);
    every_vault_notify(&v, EVERY_VAULT_ID_Seen);
    if (changes != 3 || !every_vault_has(EVERY_VAULT_ID_Loot)) return 3;
    tl_vault_listeners_discard(&set);
    if (tl_vault_write(&every_vault_desc, first, bytes, sizeof bytes, &n) != TL_VAULT_OK) return 4;
    if (tl_vault_read(&every_vault_desc, &v, bytes, n) != TL_VAULT_OK) return 5;
    if (v.Health != 5 || v.Icon.id != (uint32_t)Game_Icons_Sword) return 6;
#ifdef TL_DEVELOPMENT
    {   /* live data, no image yet: nothing changes */
        tl_vault_live live;
        if (tl_vault_live_init(&live, TL__NULL) != TL_VAULT_OK ||
            tl_vault_live_add(&live, &things_live) != TL_VAULT_OK)
            return 8;
        if (tl_vault_live_update(&live) != 0 || things_instances[0].Health != 5) return 9;
        tl_vault_live_discard(&live);
    }
#endif
    printf("%u %zu\n", (unsigned)things_ids[0], n);
    return 0;
}
