/* @NAME@: a threadlink game in one file, as `threadlink-gen init` wrote it. It uses
 *   events   OnCoinPicked, the game's own event (injectors/Iris.Events.User.txt)
 *   a vault  the Player record (vaults/Player.vault.json) and its designer data (vaultdata/)
 *   content  assets/ packed by the build; an asset loaded by its generated id
 *   a level  Meadow (injectors/Nexus.Levels.User.txt): held, presented, its assets in its scope
 *   a save   the player written to a save store and read back
 * The build makes the headers it includes from those files; after adding entries, run the build's
 * `generate` step, which records them in generated/ (commit it). */
#define TL_IMPLEMENTATION /* the runtime modules this file includes are implemented here, once */
#include <threadlink/content.h>
#include <threadlink/levels.h>
#include <threadlink/save.h>
#include <threadlink/glue.h> /* where two services meet: a level's scope, a vault in a save */

#include "content_main_catalog.h" /* Content_Main_Text_greeting: assets/Text/greeting.txt */
#include "iris_events.h"          /* Iris_Events_OnCoinPicked_subscribe / _publish */
#include "levels.h"               /* Nexus_Levels_Meadow */
#include "players_data.h"         /* player_vault, and the Hero of vaultdata/players.vaultdata.json */

#include <stdio.h>

#ifndef CONTENT_DIR /* the build passes where it packed assets/ */
#define CONTENT_DIR "build/content/Main"
#endif
#ifndef SAVE_DIR
#define SAVE_DIR "saves"
#endif

/* An event listener: a coin adds to the player's gold (a vault setter). */
static void on_coin_picked(void *ctx, int32_t value) {
    player_vault *player = (player_vault *)ctx;
    player_vault_set_Gold(player, player_vault_get_Gold(player) + value);
}

/* The level's loader: what it loads goes into the level's own content scope, released with it. */
static tl_levels_status load_level(void *ctx, tl_level *level) {
    tl_asset text = tl_scope_load(tl_glue_level_scope(level), CONTENT_MAIN_U32(Content_Main_Text_greeting));
    (void)ctx;
    if (!tl_asset_valid(text)) return TL_LEVELS_FAILED;
    printf("level %s: %.*s", nexus_levels_name(tl_level_id(level)), (int)tl_asset_size(text),
           (const char *)tl_asset_object(text)); /* a category with no decoder keeps the bytes */
    return TL_LEVELS_DONE;
}

/* The player into save "slot-1" (one transaction, published at once), then back into a copy. */
static bool save_and_load(const player_vault *player, player_vault *loaded) {
    tl_save_store_desc desc = {0}; /* zero: defaults */
    tl_save_store *store;
    tl_save_txn txn;
    tl_save_result r;
    desc.root = SAVE_DIR;
    store = tl_save_store_open(&desc, NULL); /* NULL: the reason is logged */
    if (!store) return false;
    r = tl_save_begin(store, "slot-1", &txn);
    if (r == TL_SAVE_OK) r = tl_glue_save_write_vault(&txn, "player", &player_vault_desc, player);
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn); /* nothing to do after a commit */
    player_vault_init(loaded); /* the defaults first: a field the save lacks keeps its default */
    if (r == TL_SAVE_OK) r = tl_glue_save_read_vault(store, "slot-1", "player", &player_vault_desc, loaded);
    tl_save_store_close(store);
    if (r != TL_SAVE_OK) fprintf(stderr, "save: %s\n", tl_save_result_message(r));
    return r == TL_SAVE_OK;
}

int main(int argc, char **argv) {
    tl_events events;
    tl_content *content = tl_content_create(NULL); /* NULL: defaults */
    tl_levels_desc levels_desc = {0};
    tl_levels *levels;
    player_vault player = players_instances[PLAYERS_INDEX_Hero], loaded; /* the designer's data, copied */
    uint32_t shown = 0;
    int frame;

    /* Events: the registry of Iris.Events; a listener with its context. */
    if (iris_events_init(&events, NULL) != TL_EVENTS_OK) return 1;
    Iris_Events_OnCoinPicked_subscribe(&events, on_coin_picked, &player);

    /* Content: the folder the build packed (or the one given on the command line). */
    if (!content || !tl_content_dir_valid(tl_content_register_dir(content, argc > 1 ? argv[1] : CONTENT_DIR))) {
        fprintf(stderr, "no content in %s: build the project first\n", argc > 1 ? argv[1] : CONTENT_DIR);
        return 1;
    }

    /* A level: presented (held, loaded at the next update), then a few frames. Ids go to the
     * runtime as uint32_t through the domain's _U32 macro: an enumerator above INT_MAX is negative. */
    levels_desc.loader.begin_load = load_level;
    levels_desc.registry = &events;
    levels_desc.scopes = tl_glue_levels_scopes(content); /* each level a content scope */
    levels_desc.level_name = nexus_levels_name;           /* log lines name levels */
    levels = tl_levels_create(&levels_desc);
    if (!levels) return 1;
    tl_levels_present(levels, NEXUS_LEVELS_U32(Nexus_Levels_Meadow));
    for (frame = 0; frame < 3; frame++) {
        tl_levels_update(levels, 1.0 / 60.0);
        Iris_Events_OnCoinPicked_publish(&events, 10); /* a coin each frame */
        tl_content_update(content);
    }
    tl_levels_presented(levels, &shown);
    printf("presented: %s\n", nexus_levels_name(shown));
    printf("%s: health %d, gold %d\n", player_vault_get_Name(&player), (int)player_vault_get_Health(&player),
           (int)player_vault_get_Gold(&player));

    /* A save: written, read back. */
    if (!save_and_load(&player, &loaded)) return 1;
    printf("saved and loaded: %s with %d gold\n", player_vault_get_Name(&loaded), (int)player_vault_get_Gold(&loaded));

    tl_levels_destroy(levels);
    tl_content_shutdown(content);
    tl_events_discard(&events);
    return player_vault_get_Gold(&loaded) == player_vault_get_Gold(&player) ? 0 : 1;
}
