/* Tutorial step 2: events (docs/tutorial.md).
 *
 * Iris.Events is an ordinal domain: injectors/Iris.Events.User.txt gives each event its
 * parameters, and iris_events.h gives each event typed functions over events.h's registry. A
 * listener of the wrong type does not compile. */
#include "iris_events.h" /* includes <threadlink/events.h> */

#include <stdio.h>

typedef struct player {
    int32_t gold;
    int32_t keys;
} player;

/* Listeners get the context they subscribed with, then the event's parameters. */
static void add_gold(void *ctx, int32_t value) {
    player *p = (player *)ctx;
    p->gold += value;
    printf("picked a coin of %d: gold %d\n", (int)value, (int)p->gold);
}

static void count_coins(void *ctx, int32_t value) {
    int *coins = (int *)ctx;
    (void)value;
    ++*coins;
}

static void mourn(void *ctx, const char *name, int32_t level) {
    (void)ctx;
    printf("%s died on level %d\n", name, (int)level);
}

/* A provider answers a question: one per event, its answer returned through publish. */
static bool door_opens(void *ctx, int32_t door) {
    const player *p = (const player *)ctx;
    return p->keys > 0 && door != 13;
}

int main(void) {
    tl_events events;
    player hero = {0, 1};
    int coins = 0;
    bool open = false;

    if (iris_events_init(&events, NULL) != TL_EVENTS_OK) return 1; /* NULL: log to stderr */

    /* Two listeners of one event: each runs, newest first (do not lean on the order: an
       unsubscribe moves the last listener into the gap). */
    Iris_Events_OnCoinPicked_subscribe(&events, add_gold, &hero);
    Iris_Events_OnCoinPicked_subscribe(&events, count_coins, &coins);
    Iris_Events_OnPlayerDied_subscribe(&events, mourn, NULL);
    Iris_Events_OnCanOpenDoor_subscribe(&events, door_opens, &hero);
    /* Iris_Events_OnCoinPicked_subscribe(&events, mourn, NULL) would not compile. */

    Iris_Events_OnCoinPicked_publish(&events, 10);
    Iris_Events_OnCoinPicked_publish(&events, 5);
    printf("%d coins\n", coins);

    /* publish answers whether a provider answered; the answer is in `open`. */
    if (Iris_Events_OnCanOpenDoor_publish(&events, 7, &open)) printf("door 7: %s\n", open ? "opens" : "stays shut");
    if (Iris_Events_OnCanOpenDoor_publish(&events, 13, &open)) printf("door 13: %s\n", open ? "opens" : "stays shut");

    /* After unsubscribing, a listener is never called again. */
    Iris_Events_OnCoinPicked_unsubscribe(&events, add_gold, &hero);
    Iris_Events_OnCoinPicked_publish(&events, 100);
    printf("gold %d, %d coins\n", (int)hero.gold, coins);

    Iris_Events_OnPlayerDied_publish(&events, "Robin", 2);
    tl_events_discard(&events);
    return 0;
}
