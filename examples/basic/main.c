/* The basic example: include generated headers, print names and values, and run a small
 * subsystem that listens to the frame events while it is deployed. */
#include <stdio.h>

#define TL_IMPLEMENTATION /* initium's and vault.h's implementations live in this file */
#include <threadlink/lifecycle.h>
#include <threadlink/time.h>
#include <threadlink/glue.h>
#include "vaults/enemies_data.h"
#include "vaults/weapons_data.h"

#include "game_factions.h"
#include "iris_events.h"
#include "spawn_points.h"
#include "vault_fields.h"

/* Identity values are unsigned 32-bit hashes; the enum holds their int reading. */
#define PRINT_ENTRY(enumerator, name) \
    printf("  %-22s %10u  %s\n", #name, (unsigned)(uint32_t)(enumerator), domain_name((uint32_t)(enumerator)));

static void print_domains(void)
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
}

/* A subsystem: subscribes in initialize, unsubscribes in discard. The listener types come from
 * the generated header, so a listener of the wrong signature does not compile. */
typedef struct spawner {
    tl_events *events;
    float clock;
    int spawned, deaths;
} spawner;

static void spawner_on_update(void *ctx, float dt)
{
    spawner *s = ctx;
    s->clock += dt;
    if (s->clock >= 0.05f) {
        s->clock -= 0.05f;
        s->spawned++;
    }
}

static void spawner_on_player_died(void *ctx, int player)
{
    spawner *s = ctx;
    s->deaths++;
    printf("spawner: player %d died at %s (%d spawned so far)\n", player,
           nexus_spawnpoints_name(Nexus_SpawnPoints_Village_Gate), s->spawned);
}

static void spawner_initialize(void *self, tl_lifecycle *core)
{
    spawner *s = self;
    (void)core;
    Iris_Events_OnUpdate_subscribe(s->events, spawner_on_update, s);
    Iris_Events_OnPlayerDied_subscribe(s->events, spawner_on_player_died, s);
    printf("spawner: initialized, listening to OnUpdate and OnPlayerDied\n");
}

static void spawner_discard(void *self, tl_lifecycle *core)
{
    spawner *s = self;
    (void)core;
    Iris_Events_OnUpdate_unsubscribe(s->events, spawner_on_update, s);
    Iris_Events_OnPlayerDied_unsubscribe(s->events, spawner_on_player_died, s);
    printf("spawner: discarded (%d listeners left on OnUpdate)\n",
           (int)tl_events_listener_count(s->events, Iris_Events_OnUpdate));
}

static const tl_lifecycle_subsystem spawner_subsystem = {"Spawner", NULL, NULL, spawner_initialize, spawner_discard};

static int run_game(void)
{
    tl_events events;
    if (iris_events_init(&events, NULL) != TL_EVENTS_OK) return 1;
    static const tl_lifecycle_events natives = TL_LIFECYCLE_EVENTS_INIT(Iris_Events_);
    tl_lifecycle_desc desc = {0};
    desc.registry = &events;
    desc.events = &natives;
    tl_lifecycle core;
    if (tl_lifecycle_init(&core, &desc) != TL_LIFECYCLE_OK) return 1;
    static const tl_time_events clock_events = TL_TIME_EVENTS_INIT(Iris_Events_);
    tl_time_desc clock_desc = {0};
    clock_desc.registry = &events;
    clock_desc.events = &clock_events;
    tl_time clock;
    tl_time_init(&clock, &clock_desc);
    tl_glue_weave_time(&core, &clock);
    spawner s = {&events, 0.0f, 0, 0};
    tl_lifecycle_weave(&core, &spawner_subsystem, &s);
    /* Boot and initialize run a frame apart, so deployment takes more than one call: a game
       polls it once per frame; this example has no frames to wait for. */
    tl_lifecycle_deploy_status deployed;
    while ((deployed = tl_lifecycle_deploy(&core)) == TL_LIFECYCLE_DEPLOY_PENDING) {}
    if (deployed != TL_LIFECYCLE_DEPLOY_DONE) return 1;
    for (int frame = 0; frame < 10; frame++) tl_time_frame(&clock, 1.0 / 60.0);
    Iris_Events_OnPlayerDied_publish(&events, 1);
    tl_lifecycle_discard(&core);
    tl_events_discard(&events);
    printf("game: %d spawned in 10 frames, %d death\n", s.spawned, s.deaths);
    return s.spawned == 3 && s.deaths == 1 ? 0 : 1;
}

static void on_enemy_change(void *user, void *vault, uint32_t field_id)
{
    (void)vault;
    printf("  change: %s (%s)\n", vault_fields_name(field_id), (const char *)user);
}

/* Designer-authored vaults: look instances up by name, copy one into live state, hit it with a
 * weapon, save and load it. */
static int vaults(void)
{
    const weapon_vault *sword = weapons_by_name("longsword");
    const enemy_vault *orc = enemies_by_name("Orc");
    if (!sword || !orc || enemies_by_id(ENEMIES_ID_Goblin) != &enemies_instances[ENEMIES_INDEX_Goblin]) return 1;
    printf("Vaults: %d enemies, %d weapons\n", ENEMIES_COUNT, WEAPONS_COUNT);
    for (uint32_t i = 0; i < ENEMIES_COUNT; i++) {
        const enemy_vault *e = enemies_by_index(i);
        printf("  %-10s health %3d armor %d speed %.3f\n", enemy_vault_get_DisplayName(e), enemy_vault_get_MaxHealth(e),
               enemy_vault_get_Armor(e), tl_fp_to_double(enemy_vault_get_MoveSpeed(e)));
    }

    enemy_vault live = *orc; /* authored data is the starting state */
    enemy_vault_reset_transient(&live);
    enemy_vault_set_Health(&live, enemy_vault_get_MaxHealth(&live));
    /* Listeners: one to every field, one to Health alone (any number, per field or all). */
    tl_vault_listeners listeners = {0};
    enemy_vault_listen(&live, &listeners);
    tl_vault_subscribe_all(&listeners, &live, on_enemy_change, "orc");
    tl_vault_subscribe(&listeners, &live, ENEMY_VAULT_ID_Health, on_enemy_change, "orc's health bar");
    int32_t damage = (int32_t)(weapon_vault_get_Damage(sword).raw >> 32) - enemy_vault_get_Armor(&live);
    enemy_vault_set_Health(&live, enemy_vault_get_Health(&live) - damage);
    enemy_vault_HitsTaken_list_add(enemy_vault_edit_HitsTaken(&live), damage);
    enemy_vault_notify(&live, ENEMY_VAULT_ID_HitsTaken);
    printf("  %s hits %s for %d: health %d/%d\n", weapon_vault_get_DisplayName(sword), enemy_vault_get_DisplayName(&live),
           damage, enemy_vault_get_Health(&live), enemy_vault_get_MaxHealth(&live));
    tl_vault_listeners_discard(&listeners);
    enemy_vault_listen(&live, TL__NULL);

    /* Generic access by field id, as a console or an editor would do it. */
    int32_t armor = 0;
    float crit = 0;
    if (!enemy_vault_try_get(&live, ENEMY_VAULT_ID_Armor, TL_VAULT_INTEGER, &armor) ||
        enemy_vault_try_get(&live, ENEMY_VAULT_ID_Armor, TL_VAULT_FLOAT, &crit) ||
        !tl_vault_try_get_float(&weapon_vault_desc, sword, (uint32_t)Vault_Fields_CritChance, &crit))
        return 1;
    printf("  by id: armor %d, crit chance %.2f\n", armor, crit);

    /* Save: only serialised fields; loading keeps transient ones as the running game has them. */
    unsigned char save[256];
    size_t size = 0;
    if (tl_vault_write(&enemy_vault_desc, &live, save, sizeof save, &size) != TL_VAULT_OK) return 1;
    enemy_vault loaded;
    enemy_vault_init(&loaded);
    if (tl_vault_read(&enemy_vault_desc, &loaded, save, size) != TL_VAULT_OK) return 1;
    tl_fp drop = {0};
    int32_t table = 2;
    enemy_vault_LootTable_dict_const_try_get(enemy_vault_get_LootTable(&loaded), table, &drop);
    printf("  saved %zu bytes; loaded %s (health %d, transient), loot table 2 drops at %.2f\n", size,
           enemy_vault_get_DisplayName(&loaded), enemy_vault_get_Health(&loaded), tl_fp_to_double(drop));
    return enemy_vault_get_MaxHealth(&loaded) == 80 ? 0 : 1;
}

int main(void)
{
    print_domains();

    /* Names from data files or consoles resolve case-insensitively. */
    vault_fields field;
    if (!vault_fields_from_name("maxhealth", &field)) return 1;
    printf("\"maxhealth\" -> %s (%u)\n", vault_fields_name((uint32_t)field), (unsigned)field);
    if (vault_fields_from_name("NoSuchField", &field)) return 1;
    printf("\"NoSuchField\" -> not a field\n");
    if (run_game() != 0) return 1;
    return vaults();
}
