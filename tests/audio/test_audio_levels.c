/* audio.h with the real levels.h: presenting a level transitions to its scenario through
   OnScenePresented, and a transition fades the listener volume out behind the fader and back in
   after (audio as OnDisplayFader / OnHideFader's provider, the game's visual fader polled
   alongside). audio.h includes no levels.h: only this test includes both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <threadlink/audio.h>
#include <threadlink/levels.h>

enum { MEADOW = 1, CAVE = 2, MEADOW_SONG = 11, CAVE_SONG = 12, BIRDS = 21, DRIPS = 22 };

typedef struct l_world {
    tl_events reg;
    tl_levels *levels;
    tl_audio *audio;
    tl_audio_null null;
    tl_audio_null_command log[4096];
    unsigned char bytes[16];
    int fader_polls, hide_polls, fader_frames;
    int64_t listener_at_presented;
    int presented_events;
    char trace[512];
} l_world;

static tl_levels_status l_begin(void *ctx, tl_level *level) {
    (void)ctx;
    (void)level;
    return TL_LEVELS_DONE;
}
static void l_unload(void *ctx, tl_level *level) {
    (void)ctx;
    (void)level;
}
static bool l_bytes(void *ctx, uint32_t clip, const void **bytes, size_t *size) {
    *bytes = ((l_world *)ctx)->bytes;
    *size = clip;
    return true;
}
/* The game's visual fader: done after `fader_frames` polls. */
static bool l_game_display(void *ctx, tl_levels *levels) {
    l_world *w = (l_world *)ctx;
    (void)levels;
    strcat(w->trace, "fade-out ");
    return ++w->fader_polls >= w->fader_frames;
}
static bool l_game_hide(void *ctx, tl_levels *levels) {
    l_world *w = (l_world *)ctx;
    (void)levels;
    strcat(w->trace, "fade-in ");
    return ++w->hide_polls >= w->fader_frames;
}
/* The game's own OnScenePresented listener: what the listener volume is when the level shows. */
static void l_on_presented(void *ctx, tl_level *level) {
    l_world *w = (l_world *)ctx;
    (void)level;
    w->presented_events++;
    w->listener_at_presented = tl_audio_listener_volume(w->audio).raw;
    strcat(w->trace, "presented ");
}

static l_world *l_world_new(bool provide_fader) {
    l_world *w = (l_world *)calloc(1, sizeof *w);
    tl_events_desc ed;
    tl_levels_desc ld;
    tl_audio_desc ad;
    tl_audio_scenario meadow = {MEADOW_SONG, BIRDS, TL_FP_ONE, TL_FP_HALF};
    tl_audio_scenario cave = {CAVE_SONG, DRIPS, TL_FP_HALF, TL_FP_ONE};
    memset(&ed, 0, sizeof ed);
    ed.span = 32;
    assert_int_equal(tl_events_init(&w->reg, &ed), TL_EVENTS_OK);
    memset(&ld, 0, sizeof ld);
    ld.loader.begin_load = l_begin;
    ld.loader.unload = l_unload;
    ld.registry = &w->reg;
    w->levels = tl_levels_create(&ld);
    tl_audio_null_init(&w->null, w->log, 4096);
    memset(&ad, 0, sizeof ad);
    ad.backend = tl_audio_null_backend(&w->null);
    ad.clips.bytes = l_bytes;
    ad.clips.ctx = w;
    ad.registry = &w->reg;
    ad.level_id = tl_level_id;
    ad.fade_speed = tl_fp_from_int(4); /* a full fade in 16 updates of 1/64 s */
    ad.fader.provide = provide_fader;
    ad.fader.display = l_game_display;
    ad.fader.hide = l_game_hide;
    ad.fader.ctx = w;
    w->audio = tl_audio_create(&ad);
    assert_non_null(w->audio);
    assert_int_equal(tl_audio_set_level_scenario(w->audio, MEADOW, &meadow), TL_AUDIO_OK);
    assert_int_equal(tl_audio_set_level_scenario(w->audio, CAVE, &cave), TL_AUDIO_OK);
    assert_int_equal(tl_events_subscribe(&w->reg, 11, TL_AUDIO_SIG_LEVEL, 0, TL_EVENTS_FN(l_on_presented), w), TL_EVENTS_OK);
    return w;
}
static void l_world_free(l_world *w) {
    tl_levels_destroy(w->levels);
    tl_audio_destroy(w->audio);
    tl_events_discard(&w->reg);
    free(w);
}
static void l_frames(l_world *w, int n) {
    while (n-- > 0) {
        tl_levels_update(w->levels, 1.0 / 64);
        tl_audio_update(w->audio, 1.0 / 64);
    }
}
static int64_t l_gain(const l_world *w, uint32_t clip) {
    int v = tl_audio_null_voice_of(&w->null, clip);
    return v < 0 ? -1 : w->null.voices[v].gain.raw;
}

static void test_audio_levels_presenting_a_level_plays_its_scenario(void **state) {
    l_world *w = l_world_new(false);
    uint32_t presented;
    (void)state;
    assert_int_equal(tl_levels_present(w->levels, MEADOW), TL_LEVELS_OK);
    l_frames(w, 20);
    assert_true(tl_audio_presented_level(w->audio, &presented));
    assert_int_equal(presented, MEADOW);
    assert_int_equal(l_gain(w, MEADOW_SONG), TL_FP_RAW_ONE);
    assert_int_equal(l_gain(w, BIRDS), TL_FP_RAW_HALF);
    assert_int_equal(tl_levels_present(w->levels, CAVE), TL_LEVELS_OK);
    l_frames(w, 3); /* the cave loads, is presented; the meadow's song falls, the cave's rises */
    assert_true(l_gain(w, MEADOW_SONG) > 0 && l_gain(w, MEADOW_SONG) < TL_FP_RAW_ONE);
    assert_true(l_gain(w, CAVE_SONG) > 0);
    l_frames(w, 20);
    assert_int_equal(l_gain(w, MEADOW_SONG), -1);
    assert_int_equal(l_gain(w, CAVE_SONG), TL_FP_RAW_HALF);
    assert_int_equal(l_gain(w, DRIPS), TL_FP_RAW_ONE);
    assert_true(tl_audio_scenario_settled(w->audio));
    l_world_free(w);
}

/* The listener is silent when the level is presented, audible again when the transition ends,
   and the game's fader was polled alongside (each step done only when both are). */
static void test_audio_levels_transition_fades_the_listener_behind_the_fader(void **state) {
    l_world *w = l_world_new(true);
    int frames = 0;
    (void)state;
    w->fader_frames = 3;
    assert_int_equal(tl_levels_present(w->levels, MEADOW), TL_LEVELS_OK);
    l_frames(w, 20);
    assert_int_equal(tl_levels_transition(w->levels, CAVE), TL_LEVELS_OK);
    while (tl_levels_presentations_pending(w->levels) && frames++ < 200) l_frames(w, 1);
    assert_int_equal(w->presented_events, 2);
    assert_int_equal(w->listener_at_presented, 0);
    assert_int_equal(w->fader_polls, 3); /* polled until it answered true, then left alone */
    assert_int_equal(w->hide_polls, 3);
    assert_true(frames >= 32); /* 16 updates out, 16 back in at speed 4 */
    assert_int_equal(tl_audio_listener_volume(w->audio).raw, TL_FP_RAW_ONE);
    assert_non_null(strstr(w->trace, "fade-out fade-out fade-out presented fade-in fade-in fade-in"));
    l_frames(w, 20);
    assert_int_equal(l_gain(w, CAVE_SONG), TL_FP_RAW_HALF);
    l_world_free(w);
}

/* Without the module's providers, levels.h counts the steps as done: no listener fade. */
static void test_audio_levels_transition_without_provider_keeps_the_listener(void **state) {
    l_world *w = l_world_new(false);
    (void)state;
    assert_int_equal(tl_levels_transition(w->levels, MEADOW), TL_LEVELS_OK);
    l_frames(w, 5);
    assert_int_equal(w->presented_events, 1);
    assert_int_equal(w->listener_at_presented, TL_FP_RAW_ONE);
    assert_int_equal(w->fader_polls, 0);
    l_world_free(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_audio_levels_presenting_a_level_plays_its_scenario),
        cmocka_unit_test(test_audio_levels_transition_fades_the_listener_behind_the_fader),
        cmocka_unit_test(test_audio_levels_transition_without_provider_keeps_the_listener),
    };
    return cmocka_run_group_tests_name("audio-levels", tests, NULL, NULL);
}
