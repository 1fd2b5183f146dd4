/* Tutorial step 6: a save (docs/tutorial.md).
 *
 * save.h keeps saves under one folder: a save is a set of files, written by a transaction that
 * publishes a whole new generation at once (a crash leaves the old one or the new one, never a
 * mix). A vault record is one call each way through glue.h, where save.h and vault.h meet. */
#define TL_IMPLEMENTATION    /* the modules glue.h includes (save.h, vault.h, ...) are implemented here */
#include <threadlink/glue.h> /* includes save.h and vault.h */

#include "player_vault.h" /* vaults/Player.vault.json */

#include <stdio.h>
#include <string.h>

#ifndef SAVE_DIR
#define SAVE_DIR "saves"
#endif

/* One commit of save `slot`: the player record and a small file of our own. */
static tl_save_result save_game(tl_save_store *store, const char *slot, const player_vault *player,
                                const char *note) {
    tl_save_txn txn;
    tl_save_result r = tl_save_begin(store, slot, &txn);
    if (r == TL_SAVE_OK) r = tl_glue_save_write_vault(&txn, "player", &player_vault_desc, player);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "note", note, strlen(note));
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn); /* published, or nothing was */
    tl_save_txn_discard(&txn);                              /* after a commit: nothing to do */
    return r;
}

static void print_player(const char *what, const player_vault *p) {
    printf("%s: %s, level %d, %d gold\n", what, player_vault_get_Name(p), (int)player_vault_get_Level(p),
           (int)player_vault_get_Gold(p));
}

int main(int argc, char **argv) {
    tl_save_store_desc desc = {0}; /* zero: defaults (POSIX files, log to stderr) */
    tl_save_store *store;
    tl_save_result r;
    tl_save_info infos[4];
    player_vault player, loaded;
    char note[64];
    size_t size = 0, count = 0, i;

    desc.root = argc > 1 ? argv[1] : SAVE_DIR; /* the folder is made if missing */
    store = tl_save_store_open(&desc, NULL);
    if (!store) return 1; /* the reason is logged */

    player_vault_init(&player); /* every field at its default */
    player_vault_set_Name(&player, "Robin");
    player_vault_set_Gold(&player, 25);
    r = save_game(store, "slot-1", &player, "before the cave");
    if (r != TL_SAVE_OK) return 1;

    /* A second commit is the save's next generation; the first stays until it is safe. */
    player_vault_set_Level(&player, 2);
    player_vault_set_Gold(&player, 40);
    r = save_game(store, "slot-1", &player, "in the cave");
    if (r != TL_SAVE_OK) return 1;

    /* Read back: the defaults first, so a field an older save lacks keeps its default. */
    player_vault_init(&loaded);
    print_player("a new player", &loaded);
    r = tl_glue_save_read_vault(store, "slot-1", "player", &player_vault_desc, &loaded);
    if (r != TL_SAVE_OK) {
        fprintf(stderr, "load: %s\n", tl_save_result_message(r));
        return 1;
    }
    print_player("loaded", &loaded);
    r = tl_save_read(store, "slot-1", "note", note, sizeof note - 1, &size);
    if (r == TL_SAVE_OK) printf("note: %.*s\n", (int)size, note);

    /* Every save in the store, with its generation and file count. */
    r = tl_save_list(store, infos, 4, &count);
    for (i = 0; r == TL_SAVE_OK && i < count; i++)
        printf("save %s: generation %llu, %u files\n", infos[i].id, (unsigned long long)infos[i].generation,
               (unsigned)infos[i].file_count);

    /* A bad id is refused before any I/O, with a result that says why; nothing aborts. */
    {
        tl_save_txn txn;
        r = tl_save_begin(store, "../escape", &txn);
        printf("\"../escape\": %s\n", r == TL_SAVE_INVALID_ID ? "refused, an invalid id" : tl_save_result_message(r));
    }

    tl_save_delete(store, "slot-1");
    tl_save_list(store, infos, 4, &count);
    printf("%u saves after the delete\n", (unsigned)count);
    tl_save_store_close(store);
    return 0;
}
