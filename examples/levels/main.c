/* The levels example (the seed's multi-area game): a host simulates two areas at once, holding
 * both, presents the farm to its own player, then transitions to the mine behind the fader and
 * loading screen, and releases the farm with a grace period once no one needs it. Each area's
 * objects (a crop field, a lamp) boot when it loads and are discarded before it unloads. */
#include <stdio.h>
#include <string.h>

#define TL_IMPLEMENTATION /* the runtime's implementations live in this file */
#include <threadlink/levels.h>
#include <threadlink/lifecycle.h>
#include <threadlink/glue.h> /* the objects as lifecycle batches */

#include "iris_events.h"
#include "levels.h"

typedef struct prop {
    const char *name;
    int booted, discarded;
} prop;

static void prop_boot(void *self, void *ctx) {
    prop *p = (prop *)self;
    p->booted++;
    printf("  boot %s (level %s)\n", p->name, nexus_levels_name(tl_level_id((tl_level *)ctx)));
}
static void prop_discard(void *self, void *ctx) {
    prop *p = (prop *)self;
    (void)ctx;
    p->discarded++;
    printf("  discard %s\n", p->name);
}
static const tl_lifecycle_object_vtable prop_vtable = {"Prop", NULL, NULL, prop_boot, NULL, prop_discard, NULL};

static prop farm_props[2] = {{"field", 0, 0}, {"scarecrow", 0, 0}};
static prop mine_props[1] = {{"lamp", 0, 0}};

/* A synchronous loader: the level's objects are known at once. */
static tl_levels_status load_area(void *ctx, tl_level *level) {
    tl_lifecycle_object objects[2];
    prop *props = tl_level_id(level) == (uint32_t)Nexus_Levels_Farm ? farm_props : mine_props;
    uint32_t i, n = props == farm_props ? 2u : 1u;
    (void)ctx;
    for (i = 0; i < n; i++) {
        objects[i].vtable = &prop_vtable;
        objects[i].self = &props[i];
        objects[i].name = props[i].name;
        objects[i].parent = i == 0 ? TL_LIFECYCLE_BATCH_NO_PARENT : 0; /* the scarecrow stands in the field */
    }
    tl_glue_level_set_objects(level, objects, n);
    printf("  load %s\n", nexus_levels_name(tl_level_id(level)));
    return TL_LEVELS_DONE;
}
static void unload_area(void *ctx, tl_level *level) {
    (void)ctx;
    printf("  unload %s\n", nexus_levels_name(tl_level_id(level)));
}

static void on_presented(void *ctx, tl_level *level) {
    (void)ctx;
    printf("  presented %s\n", nexus_levels_name(tl_level_id(level)));
}
/* The fader takes two frames to fade in; the loading screen is instant. */
static bool display_fader(void *ctx, tl_levels *levels) {
    int *frames = (int *)ctx;
    (void)levels;
    printf("  fader %s\n", *frames > 0 ? "fading in" : "opaque");
    return (*frames)-- <= 0;
}
static bool instant(void *ctx, tl_levels *levels) {
    (void)levels;
    printf("  %s\n", (const char *)ctx);
    return true;
}

static void frames(tl_levels *levels, int count, double seconds) {
    while (count-- > 0) tl_levels_update(levels, seconds);
}

int main(void) {
    static const tl_levels_events events = TL_LEVELS_EVENTS_INIT(Iris_Events_);
    tl_events reg;
    tl_levels_desc desc;
    tl_levels *levels;
    tl_level_hold farm, mine;
    int fade_frames = 2;
    uint32_t shown = 0;
    if (iris_events_init(&reg, NULL) != TL_EVENTS_OK) return 1;
    Iris_Events_OnScenePresented_subscribe(&reg, on_presented, NULL);
    Iris_Events_OnDisplayFader_subscribe(&reg, display_fader, &fade_frames);
    Iris_Events_OnDisplayLoadingScreen_subscribe(&reg, instant, (void *)"loading screen shown");
    Iris_Events_OnHideLoadingScreen_subscribe(&reg, instant, (void *)"loading screen hidden");
    Iris_Events_OnHideFader_subscribe(&reg, instant, (void *)"fader cleared");
    memset(&desc, 0, sizeof desc);
    desc.loader.begin_load = load_area;
    desc.loader.unload = unload_area;
    desc.registry = &reg;
    desc.events = &events;
    desc.objects = tl_glue_levels_objects();
    levels = tl_levels_create(&desc);
    if (!levels) return 1;

    printf("hold both areas (simulated, nothing shown):\n");
    farm = tl_levels_hold(levels, Nexus_Levels_Farm);
    mine = tl_levels_hold(levels, Nexus_Levels_Mine);
    frames(levels, 1, 1.0 / 60.0);
    printf("present the farm:\n");
    tl_levels_present(levels, Nexus_Levels_Farm);
    frames(levels, 1, 1.0 / 60.0);
    printf("transition to the mine:\n");
    tl_levels_transition(levels, Nexus_Levels_Mine);
    frames(levels, 4, 1.0 / 60.0);
    printf("release the farm with a 2 s grace period:\n");
    tl_level_hold_release_after(farm, 2.0);
    frames(levels, 60, 1.0 / 60.0);
    printf("  after 1 s: farm %s\n", tl_levels_is_resident(levels, Nexus_Levels_Farm) ? "resident" : "gone");
    frames(levels, 61, 1.0 / 60.0);
    printf("  after 2 s: farm %s\n", tl_levels_is_resident(levels, Nexus_Levels_Farm) ? "resident" : "gone");
    tl_levels_presented(levels, &shown);
    tl_level_hold_release(mine);
    printf("shut down:\n");
    tl_levels_destroy(levels); /* the presented mine unloads here, its lamp discarded */
    tl_events_discard(&reg);
    printf("levels: farm booted %d, discarded %d; mine booted %d, discarded %d\n",
           farm_props[0].booted + farm_props[1].booted, farm_props[0].discarded + farm_props[1].discarded,
           mine_props[0].booted, mine_props[0].discarded);
    return shown == (uint32_t)Nexus_Levels_Mine && farm_props[0].discarded == 1 && farm_props[1].discarded == 1 &&
                   mine_props[0].discarded == 1 && mine_props[0].booted == 1
               ? 0
               : 1;
}
