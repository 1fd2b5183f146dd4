/* Tutorial step 3: vault data (docs/tutorial.md).
 *
 * vaults/Enemy.vault.json is a schema: a record of fields named by Vault.Fields entries
 * (injectors/Vault.Fields.User.txt), each with a type and a default. vaultdata/enemies.vaultdata.json
 * is the designer's data: instances of that record. The generator makes enemy_vault.h (the struct,
 * typed getters and setters that fire change events) and enemies_data.h (the instances, const,
 * with lookups by name and id). */
#define TL_VAULT_IMPL /* vault.h's functions (change events, saves) are implemented in this file */
#include "enemies_data.h" /* includes enemy_vault.h, which includes <threadlink/vault.h> */

#include <stdio.h>

static void print_enemy(const enemy_vault *e) {
    printf("%-7s max health %3d, speed %.2f, health %d\n", enemy_vault_get_Name(e),
           (int)enemy_vault_get_MaxHealth(e), tl_fp_to_double(enemy_vault_get_Speed(e)),
           (int)enemy_vault_get_Health(e));
}

/* A change event: the vault, the field that changed (its Vault.Fields id), and our user pointer. */
static void on_health(void *user, void *vault, uint32_t field_id) {
    const enemy_vault *e = (const enemy_vault *)vault;
    (void)user;
    if (field_id == ENEMY_VAULT_ID_Health) printf("  %s's health is now %d\n", enemy_vault_get_Name(e), (int)enemy_vault_get_Health(e));
}

int main(void) {
    tl_vault_listeners listeners = {0};
    enemy_vault goblin, fresh;
    uint32_t i;

    /* The designer's instances, in file order; fields a file leaves out have the schema's default. */
    for (i = 0; i < ENEMIES_COUNT; i++) print_enemy(enemies_by_index(i));

    /* Look one up by name (or by its stable id) and copy it: the data itself is const. */
    goblin = *enemies_by_name("Goblin");
    if (enemies_by_id(ENEMIES_ID_Troll) == &enemies_instances[ENEMIES_INDEX_Troll]) printf("Troll found by id\n");

    /* Listen to one field of this copy; setters that change a value notify. */
    enemy_vault_listen(&goblin, &listeners);
    tl_vault_subscribe(&listeners, &goblin, ENEMY_VAULT_ID_Health, on_health, NULL);
    enemy_vault_set_Health(&goblin, enemy_vault_get_MaxHealth(&goblin));
    enemy_vault_set_Health(&goblin, enemy_vault_get_Health(&goblin) - 7);
    enemy_vault_set_Health(&goblin, enemy_vault_get_Health(&goblin)); /* no change: no event */
    print_enemy(&goblin);

    /* A record from scratch: every field at its schema default. */
    enemy_vault_init(&fresh);
    enemy_vault_set_Name(&fresh, "Slime");
    print_enemy(&fresh);

    /* By field id, as a save or a script would: the tag names the type the caller expects. */
    {
        int32_t max = 0;
        if (enemy_vault_try_get(&fresh, ENEMY_VAULT_ID_MaxHealth, TL_VAULT_INTEGER, &max)) printf("Slime's MaxHealth by id: %d\n", (int)max);
    }

    tl_vault_listeners_discard(&listeners);
    return 0;
}
