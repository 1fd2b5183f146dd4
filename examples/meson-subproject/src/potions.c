/* Designer-authored data baked into const C data: only this file includes the vault headers, so
 * editing potions.vaultdata.json recompiles it alone. */
#include <stdio.h>

#include "potions_data.h"

void print_potions(void);
void print_potions(void)
{
    for (uint32_t i = 0; i < POTIONS_COUNT; i++) {
        const potion_vault *p = potions_by_index(i);
        printf("potion %-8s health %3d speed %.2f\n", potions_names[i], (int)potion_vault_get_Health(p),
               (double)potion_vault_get_MoveSpeed(p));
    }
}
