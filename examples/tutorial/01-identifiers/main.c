/* Tutorial step 1: identifiers (docs/tutorial.md).
 *
 * threadlink.json declares the identity domain Game.Items; injectors/Game.Items.User.txt and
 * injectors/Game.Items.Loot.txt list its entries. `threadlink-gen headers` turns them into
 * game_items.h: an enum whose values are hashes of the entries' names (so they never change when
 * other entries come and go), a list macro and name lookups. */
#include "game_items.h"

#include <stdio.h>

/* GAME_ITEMS_LIST(X) calls X(enumerator, name) for every live entry. */
#define PRINT_ITEM(item, name) \
    printf("%-9s %10u  %s\n", #name, (unsigned)GAME_ITEMS_U32(item), game_items_name_of(item));

int main(void) {
    game_items parsed;

    printf("%d items:\n", GAME_ITEMS_COUNT);
    GAME_ITEMS_LIST(PRINT_ITEM)

    /* A value read back (from a save, a network packet) names its entry; an unknown one is "?". */
    printf("value %u is %s\n", (unsigned)GAME_ITEMS_U32(Game_Items_Potion),
           game_items_name(GAME_ITEMS_U32(Game_Items_Potion)));
    printf("value 12345 is %s\n", game_items_name(12345u));

    /* Names parse back, ASCII case-insensitively: a console command, a config file. */
    if (game_items_from_name("shield", &parsed) && parsed == Game_Items_Shield)
        printf("\"shield\" parses as Game_Items_Shield\n");
    if (!game_items_from_name("Axe", &parsed)) printf("\"Axe\" is no item\n");
    return 0;
}
