/* Tutorial step 5: a level (docs/tutorial.md).
 *
 * levels.h (the seed's Nexus) loads and unloads levels through the game's own loader: a level is
 * resident while something holds it, and the presented level is the one the player sees. The level
 * ids are a generated domain (injectors/Nexus.Levels.User.txt); the levels' events are natives of
 * Iris.Events (threadlink.json names the natives file), published through the game's registry. */
#define TL_LEVELS_IMPL /* levels.h is implemented in this file */
#include <threadlink/levels.h>

#include "iris_events.h"  /* the natives: Iris_Events_OnScenePresented ... */
#include "nexus_levels.h" /* Nexus_Levels_Meadow, Nexus_Levels_Cave */

#include <stdio.h>

static int frame;

/* The loader: begin_load starts, poll_load is called once per update until it is done. Here each
 * level takes two polls, as a load from disk over frames would. */
static tl_levels_status begin_load(void *ctx, tl_level *level) {
    (void)ctx;
    printf("frame %d: loading %s\n", frame, nexus_levels_name(tl_level_id(level)));
    tl_level_set_user(level, (void *)0);
    return TL_LEVELS_PENDING;
}

static tl_levels_status poll_load(void *ctx, tl_level *level) {
    size_t polls = (size_t)tl_level_user(level) + 1;
    (void)ctx;
    tl_level_set_user(level, (void *)polls);
    return polls < 2 ? TL_LEVELS_PENDING : TL_LEVELS_DONE;
}

static void unload(void *ctx, tl_level *level) {
    (void)ctx;
    printf("frame %d: unloading %s\n", frame, nexus_levels_name(tl_level_id(level)));
}

/* Listeners of the levels' native events. */
static void on_presented(void *ctx, tl_level *level) {
    (void)ctx;
    printf("frame %d: presenting %s\n", frame, nexus_levels_name(tl_level_id(level)));
}

static void on_unloaded(void *ctx, uint32_t id) {
    (void)ctx;
    printf("frame %d: %s unloaded\n", frame, nexus_levels_name(id));
}

/* A transition's four steps are single-provider events, each polled once per update until its
 * provider answers true (a fade takes frames); a step without a provider counts as done. */
static bool screen_step(void *ctx, tl_levels *levels) {
    (void)levels;
    printf("frame %d: %s\n", frame, (const char *)ctx);
    return true;
}

static bool display_fader(void *ctx, tl_levels *levels) {
    int *frames = (int *)ctx;
    (void)levels;
    if (++*frames < 2) return false; /* fading out: one more frame */
    return screen_step((void *)"the fader is shown", levels);
}

int main(void) {
    static const tl_levels_events level_events = TL_LEVELS_EVENTS_INIT(Iris_Events_);
    tl_events events;
    tl_levels_desc desc = {0}; /* zero: defaults */
    tl_levels *levels;
    tl_level_hold cave;
    int fader_frames = 0;
    uint32_t shown = 0;

    if (iris_events_init(&events, NULL) != TL_EVENTS_OK) return 1;
    Iris_Events_OnScenePresented_subscribe(&events, on_presented, NULL);
    Iris_Events_OnSceneUnloaded_subscribe(&events, on_unloaded, NULL);
    Iris_Events_OnDisplayFader_subscribe(&events, display_fader, &fader_frames);
    Iris_Events_OnDisplayLoadingScreen_subscribe(&events, screen_step, (void *)"the loading screen is shown");
    Iris_Events_OnHideLoadingScreen_subscribe(&events, screen_step, (void *)"the loading screen is hidden");
    Iris_Events_OnHideFader_subscribe(&events, screen_step, (void *)"the fader is hidden");

    desc.loader.begin_load = begin_load;
    desc.loader.poll_load = poll_load;
    desc.loader.unload = unload;
    desc.registry = &events;
    desc.events = &level_events; /* the ordinals of this project's Iris.Events */
    levels = tl_levels_create(&desc);
    if (!levels) return 1;

    /* Present the meadow: held, loaded over the next updates, then shown. All work happens in
     * tl_levels_update, once per frame. */
    tl_levels_present(levels, NEXUS_LEVELS_U32(Nexus_Levels_Meadow));
    for (frame = 1; frame <= 4; frame++) tl_levels_update(levels, 1.0 / 60.0);

    /* Hold the cave too (say, to stream it in early): it loads while the meadow stays shown. */
    cave = tl_levels_hold(levels, NEXUS_LEVELS_U32(Nexus_Levels_Cave));
    for (; frame <= 8; frame++) tl_levels_update(levels, 1.0 / 60.0);
    printf("cave resident: %s\n", tl_level_hold_status_of(cave) == TL_LEVEL_HOLD_RESIDENT ? "yes" : "no");

    /* Transition to the cave behind the fader; the meadow, held only by the presentation, unloads. */
    tl_levels_transition(levels, NEXUS_LEVELS_U32(Nexus_Levels_Cave));
    for (; frame <= 14; frame++) tl_levels_update(levels, 1.0 / 60.0);
    tl_level_hold_release(cave); /* the presentation holds it too: it stays */
    tl_levels_update(levels, 1.0 / 60.0);
    tl_levels_presented(levels, &shown);
    printf("presented: %s\n", nexus_levels_name(shown));

    tl_levels_destroy(levels); /* unloads what is left */
    tl_events_discard(&events);
    return 0;
}
