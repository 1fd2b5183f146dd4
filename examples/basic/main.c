/* The basic example: include generated headers, print names and values. */
#include <stdio.h>

#include "game_factions.h"
#include "iris_events.h"
#include "spawn_points.h"
#include "vault_fields.h"

/* Identity values are unsigned 32-bit hashes; the enum holds their int reading. */
#define PRINT_ENTRY(enumerator, name) \
    printf("  %-16s %10u  %s\n", #name, (unsigned)(uint32_t)(enumerator), domain_name((uint32_t)(enumerator)));

int main(void)
{
    printf("Iris.Events (ordinal, %d events, table span %d):\n", IRIS_EVENTS_COUNT, IRIS_EVENTS_SPAN);
#define domain_name iris_events_name
    IRIS_EVENTS_LIST(PRINT_ENTRY)
#undef domain_name
    printf("Vault.Fields (identity, %d fields, 0 reserved for %s):\n", VAULT_FIELDS_COUNT,
           vault_fields_name(Vault_Fields_None));
#define domain_name vault_fields_name
    VAULT_FIELDS_LIST(PRINT_ENTRY)
#undef domain_name
    printf("Nexus.SpawnPoints:\n");
#define domain_name nexus_spawnpoints_name
    NEXUS_SPAWNPOINTS_LIST(PRINT_ENTRY)
#undef domain_name
    printf("Game.Factions (from definitions/):\n");
#define domain_name game_factions_name
    GAME_FACTIONS_LIST(PRINT_ENTRY)
#undef domain_name

    /* Names from data files or consoles resolve case-insensitively. */
    vault_fields field;
    if (!vault_fields_from_name("maxhealth", &field)) return 1;
    printf("\"maxhealth\" -> %s (%u)\n", vault_fields_name((uint32_t)field), (unsigned)field);
    if (vault_fields_from_name("NoSuchField", &field)) return 1;
    printf("\"NoSuchField\" -> not a field\n");
    return 0;
}
