/* audio.h's policy, one test per rule, through the null backend (every command it is given is
   recorded): fades, scenarios, bus maxima, the listener, spatial objects and zones, voices,
   effects, interface sounds, errors. Levels and the transition are in test_audio_levels.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

/* A counting allocator: nothing may allocate after tl_audio_create. */
#include <stdlib.h>
static unsigned long a_allocations;
static void *a_malloc(size_t size) {
    a_allocations++;
    return malloc(size);
}
#define TL_MALLOC(size) a_malloc(size)
#define TL_FREE(ptr) free(ptr)
#define TL_IMPLEMENTATION
#include <threadlink/audio.h>

#ifndef NATIVES_FILE
#error "NATIVES_FILE must name runtime/threadlink/natives/Iris.Events.Native.txt"
#endif

enum { MUSIC_A = 11, MUSIC_B = 12, ATMOS_A = 21, ATMOS_B = 22, LOOP = 31, HIT = 41, CLICK = 51,
       YES = 52, NO = 53, MISSING = 99 };

typedef struct a_world {
    tl_audio_null null;
    tl_audio_null_command log[4096];
    tl_audio_desc desc;
    tl_audio *audio;
    tl_logger logger;
    char messages[2048];
    uint32_t warnings, errors, released;
    unsigned char bytes[64];
} a_world;

static bool a_bytes(void *ctx, uint32_t clip, const void **bytes, size_t *size) {
    a_world *w = (a_world *)ctx;
    if (clip == MISSING) return false;
    *bytes = w->bytes;
    *size = clip; /* a size of its own per clip */
    return true;
}
static void a_release(void *ctx, uint32_t clip) {
    (void)clip;
    ((a_world *)ctx)->released++;
}
static void a_sink(void *user, const tl_log_record *record) {
    a_world *w = (a_world *)user;
    size_t used = strlen(w->messages);
    if (record->level == TL_LOG_LEVEL_WARNING) w->warnings++;
    if (record->level == TL_LOG_LEVEL_ERROR) w->errors++;
    snprintf(w->messages + used, sizeof w->messages - used, "%s\n", record->line);
}

static a_world *a_world_new(void) {
    a_world *w = (a_world *)calloc(1, sizeof *w);
    tl_audio_null_init(&w->null, w->log, 4096);
    w->logger.sink = a_sink;
    w->logger.user = w;
    w->desc.backend = tl_audio_null_backend(&w->null);
    w->desc.clips.bytes = a_bytes;
    w->desc.clips.release = a_release;
    w->desc.clips.ctx = w;
    w->desc.logger = &w->logger;
    w->desc.voices = 8;
    return w;
}
static void a_create(a_world *w) {
    w->audio = tl_audio_create(&w->desc);
    assert_non_null(w->audio);
}
static int setup(void **state) {
    a_world *w = a_world_new();
    a_create(w);
    *state = w;
    return 0;
}
static int teardown(void **state) {
    a_world *w = (a_world *)*state;
    tl_audio_destroy(w->audio);
    free(w);
    return 0;
}
#define W a_world *w = (a_world *)*state

static tl_fp fp(double d) { return tl_fp_from_double(d); }
static void frames(a_world *w, int n, double dt) {
    while (n-- > 0) tl_audio_update(w->audio, dt);
}
/* The gain the backend holds for the voice playing `clip` (-1 when none plays it). */
static int64_t gain_of(const a_world *w, uint32_t clip) {
    int v = tl_audio_null_voice_of(&w->null, clip);
    return v < 0 ? -1 : w->null.voices[v].gain.raw;
}
static uint32_t count_ops(const a_world *w, tl_audio_null_op op, uint32_t clip) {
    uint32_t i, n = 0;
    for (i = 0; i < w->null.count; i++) n += w->null.commands[i].op == op && w->null.commands[i].clip == clip;
    return n;
}
static tl_audio_scenario scenario(uint32_t music, double mv, uint32_t atmos, double av) {
    tl_audio_scenario s;
    s.music = music;
    s.atmos = atmos;
    s.music_volume = fp(mv);
    s.atmos_volume = fp(av);
    return s;
}

/* --- contract with levels.h and events.h ------------------------------------------------------- */

static void test_audio_signature_ids_are_the_natives(void **state) {
    const char *level = "(tl_level *)", *provider = "(tl_levels *)->bool";
    (void)state;
    assert_int_equal(tl_hash32(level, strlen(level), 0), TL_AUDIO_SIG_LEVEL);
    assert_int_equal(tl_hash32(provider, strlen(provider), 0), TL_AUDIO_SIG_PROVIDER);
}

/* TL_AUDIO_EVENTS_NATIVE's ordinals are the natives file's rows of those names. */
static void test_audio_native_ordinals_match_the_natives_file(void **state) {
    const tl_audio_events native = TL_AUDIO_EVENTS_NATIVE;
    const char *names[3] = {"OnScenePresented(", "OnDisplayFader(", "OnHideFader("};
    const uint32_t ordinals[3] = {native.scene_presented, native.display_fader, native.hide_fader};
    char line[256];
    uint32_t n = 0, found = 0, k;
    FILE *file = fopen(NATIVES_FILE, "r");
    (void)state;
    assert_non_null(file);
    while (fgets(line, sizeof line, file)) {
        if (line[0] == '\n' || strncmp(line, "//", 2) == 0) continue;
        for (k = 0; k < 3; k++)
            if (strncmp(line, names[k], strlen(names[k])) == 0) {
                assert_int_equal(ordinals[k], n);
                found++;
            }
        n++;
    }
    fclose(file);
    assert_int_equal(found, 3);
}

/* --- fades and scenarios --------------------------------------------------------------------------- */

/* A change of v takes v / fade_speed seconds: with dt = 1/64 s (exact in Q32.32) and speed 2, a
   rise from 0 to 1 lands on 1 at the 32nd update, not before. */
static void test_audio_fade_takes_volume_over_speed_seconds(void **state) {
    W;
    tl_audio_scenario s = scenario(MUSIC_A, 1.0, 0, 0);
    tl_audio_set_fade_speed(w->audio, tl_fp_from_int(2));
    assert_int_equal(tl_audio_transition_to_scenario(w->audio, &s), TL_AUDIO_OK);
    assert_int_equal(gain_of(w, MUSIC_A), 0); /* starts silent */
    frames(w, 31, 1.0 / 64);
    assert_int_equal(gain_of(w, MUSIC_A), TL_FP_RAW_ONE - TL_FP_RAW_ONE / 32);
    assert_false(tl_audio_scenario_settled(w->audio));
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, MUSIC_A), TL_FP_RAW_ONE);
    assert_true(tl_audio_scenario_settled(w->audio));
}

/* With a rate that is not exact (1/60 s), the target is reached within one frame of the time. */
static void test_audio_fade_lands_on_the_target_within_a_frame(void **state) {
    W;
    tl_audio_scenario s = scenario(MUSIC_A, 0.75, 0, 0);
    tl_audio_transition_to_scenario(w->audio, &s); /* speed 1: 0.75 s = 45 frames */
    frames(w, 44, 1.0 / 60);
    assert_true(gain_of(w, MUSIC_A) < fp(0.75).raw);
    frames(w, 2, 1.0 / 60);
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.75).raw);
}

static void test_audio_transition_cross_fades_and_stops_the_old_track(void **state) {
    W;
    tl_audio_scenario a = scenario(MUSIC_A, 1.0, ATMOS_A, 0.5), b = scenario(MUSIC_B, 1.0, ATMOS_A, 0.25);
    tl_audio_transition_to_scenario(w->audio, &a);
    frames(w, 64, 1.0 / 64);
    assert_true(tl_audio_scenario_settled(w->audio));
    tl_audio_transition_to_scenario(w->audio, &b);
    frames(w, 16, 1.0 / 64); /* a quarter second: A at 3/4, B at 1/4, the atmos at 0.5 - 0.25 */
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.75).raw);
    assert_int_equal(gain_of(w, MUSIC_B), fp(0.25).raw);
    assert_int_equal(gain_of(w, ATMOS_A), fp(0.25).raw);
    frames(w, 48, 1.0 / 64);
    assert_int_equal(gain_of(w, MUSIC_A), -1);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_STOP, MUSIC_A), 1);
    assert_int_equal(gain_of(w, MUSIC_B), TL_FP_RAW_ONE);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, ATMOS_A), 1); /* the same clip never restarts */
    assert_true(tl_audio_scenario_settled(w->audio));
    assert_int_equal(tl_audio_current_scenario(w->audio).music, MUSIC_B);
}

/* Back to the falling track: it rises again from where it is; a third clip stops the falling one. */
static void test_audio_transition_back_to_the_falling_track_does_not_restart_it(void **state) {
    W;
    tl_audio_scenario a = scenario(MUSIC_A, 1.0, 0, 0), b = scenario(MUSIC_B, 1.0, 0, 0);
    tl_audio_scenario c = scenario(MUSIC_A + 100, 1.0, 0, 0);
    tl_audio_transition_to_scenario(w->audio, &a);
    frames(w, 64, 1.0 / 64);
    tl_audio_transition_to_scenario(w->audio, &b);
    frames(w, 16, 1.0 / 64);
    tl_audio_transition_to_scenario(w->audio, &a);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, MUSIC_A), 1);
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.75 + 1.0 / 64).raw);
    assert_int_equal(gain_of(w, MUSIC_B), fp(0.25 - 1.0 / 64).raw);
    tl_audio_transition_to_scenario(w->audio, &c);
    assert_int_equal(gain_of(w, MUSIC_B), -1); /* the falling one stopped at once */
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_STOP, MUSIC_B), 1);
}

static void test_audio_global_volumes_max_scale_music_and_atmos(void **state) {
    W;
    tl_audio_scenario a = scenario(MUSIC_A, 1.0, ATMOS_A, 1.0);
    tl_audio_transition_to_scenario(w->audio, &a);
    frames(w, 64, 1.0 / 64);
    tl_audio_set_global_volumes_max(w->audio, fp(0.5), fp(0.25));
    frames(w, 64, 1.0 / 64); /* the maxima move at the fade speed too */
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.5).raw);
    assert_int_equal(gain_of(w, ATMOS_A), fp(0.25).raw);
    assert_int_equal(tl_audio_bus_max(w->audio, TL_AUDIO_BUS_MUSIC).raw, fp(0.5).raw);
}

/* Polled like levels.h's providers: false until the listener volume is there. */
static void test_audio_listener_fade_is_polled_and_scales_everything(void **state) {
    W;
    tl_audio_scenario a = scenario(MUSIC_A, 1.0, 0, 0);
    int polls = 0;
    tl_audio_transition_to_scenario(w->audio, &a);
    frames(w, 64, 1.0 / 64);
    while (!tl_audio_fade_listener_volume(w->audio, fp(0.5))) {
        frames(w, 1, 1.0 / 64);
        polls++;
    }
    assert_int_equal(polls, 32);
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.5).raw);
    tl_audio_play(w->audio, HIT, fp(0.5));
    assert_int_equal(gain_of(w, HIT), fp(0.25).raw);
}

/* --- spatial objects and zones ---------------------------------------------------------------------- */

static tl_audio_object object_at(a_world *w, const char *name, uint32_t level, double x, double y) {
    tl_audio_object_desc d;
    memset(&d, 0, sizeof d);
    d.name = name;
    d.level = level;
    d.clip = LOOP;
    d.position = tl_fpv3_make(fp(x), fp(y), TL_FP_ZERO);
    d.min_distance = fp(2);
    d.max_distance = fp(10);
    return tl_audio_object_create(w->audio, &d);
}

/* rolloff 1 within min, (max - d) / (max - min) between, 0 beyond max (and no voice). Pan from
   the listener's right vector. */
static void test_audio_object_rolloff_and_pan(void **state) {
    W;
    tl_audio_object o = object_at(w, "fire", 0, 6, 0);
    tl_fpquat turned = tl_fpquat_from_axis_angle(tl_fpv3_up(), TL_FP_PI); /* right is -x */
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, LOOP), fp(0.5).raw); /* d 6: (10 - 6) / 8 */
    assert_int_equal(w->null.voices[tl_audio_null_voice_of(&w->null, LOOP)].pan.raw, TL_FP_RAW_ONE);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(fp(5), TL_FP_ZERO, TL_FP_ZERO), &turned);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, LOOP), TL_FP_RAW_ONE);
    assert_true(w->null.voices[tl_audio_null_voice_of(&w->null, LOOP)].pan.raw < -fp(0.999).raw);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(fp(-5), TL_FP_ZERO, TL_FP_ZERO), NULL);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, LOOP), -1); /* 11 away: out of range, its voice given back */
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_STOP, LOOP), 1);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(fp(0), TL_FP_ZERO, TL_FP_ZERO), NULL);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, LOOP), 2); /* back in range: restarts */
    assert_true(tl_audio_object_linked(o));
}

/* The listener keeps its last transform when nobody drives it. */
static void test_audio_listener_keeps_its_last_transform(void **state) {
    W;
    tl_fpv3 p = tl_fpv3_make(fp(3), fp(4), TL_FP_ZERO);
    tl_audio_drive_listener(w->audio, p, NULL);
    frames(w, 10, 1.0 / 64);
    assert_true(tl_fpv3_eq(tl_audio_listener_position(w->audio), p));
}

static tl_audio_object zone_at(a_world *w, uint32_t level, double x, double coefficient, double influence) {
    tl_audio_object_desc d;
    memset(&d, 0, sizeof d);
    d.name = "waterfall";
    d.level = level;
    d.clip = LOOP;
    d.bus = TL_AUDIO_BUS_ATMOS;
    d.position = tl_fpv3_make(fp(x), TL_FP_ZERO, TL_FP_ZERO);
    d.max_distance = fp(10);
    d.zone = true;
    d.radius_coefficient = fp(coefficient);
    d.influence = fp(influence);
    return tl_audio_object_create(w->audio, &d);
}

/* attenuation = 1 - I x immersion, immersion = (R - d) / (R - r), 1 within r = c x R. */
static void test_audio_zone_attenuates_music_by_its_influence(void **state) {
    W;
    tl_audio_scenario a = scenario(MUSIC_A, 1.0, ATMOS_A, 1.0);
    tl_audio_transition_to_scenario(w->audio, &a);
    frames(w, 64, 1.0 / 64);
    zone_at(w, 0, 0, 0.2, 0.75); /* r = 2, R = 10 */
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.25).raw); /* full immersion */
    assert_int_equal(gain_of(w, ATMOS_A), fp(0.25).raw);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(fp(6), TL_FP_ZERO, TL_FP_ZERO), NULL);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(tl_audio_zone_attenuation(w->audio).raw, fp(1 - 0.75 * 0.5).raw);
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.625).raw);
    tl_audio_drive_listener(w->audio, tl_fpv3_make(fp(10), TL_FP_ZERO, TL_FP_ZERO), NULL);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, MUSIC_A), TL_FP_RAW_ONE);
}

/* Only the presented level's objects are linked: another resident level's zone adds nothing;
   presenting relinks. */
static void test_audio_only_the_presented_levels_objects_are_linked(void **state) {
    W;
    tl_audio_scenario a = scenario(MUSIC_A, 1.0, 0, 0);
    tl_audio_object z1, z2;
    tl_audio_transition_to_scenario(w->audio, &a);
    tl_audio_present_level(w->audio, 1);
    z2 = zone_at(w, 2, 0, 0.5, 1.0);
    frames(w, 64, 1.0 / 64);
    assert_false(tl_audio_object_linked(z2));
    assert_int_equal(gain_of(w, MUSIC_A), TL_FP_RAW_ONE);
    assert_int_equal(gain_of(w, LOOP), -1);
    z1 = zone_at(w, 1, 0, 0.5, 0.5);
    assert_true(tl_audio_object_linked(z1)); /* the presented level's: linked at once */
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, MUSIC_A), fp(0.5).raw);
    tl_audio_present_level(w->audio, 2);
    assert_false(tl_audio_object_linked(z1));
    assert_true(tl_audio_object_linked(z2));
    frames(w, 1, 1.0 / 64);
    assert_int_equal(gain_of(w, MUSIC_A), 0);
    assert_int_equal(tl_audio_get_stats(w->audio).linked, 1);
}

/* A second object of a name in one level is not linked, and the warning names both. */
static void test_audio_duplicate_name_is_not_linked_and_named(void **state) {
    W;
    tl_audio_object first = object_at(w, "brazier", 0, 1, 0), second = object_at(w, "brazier", 0, 2, 0);
    tl_audio_object other = object_at(w, "brazier", 3, 2, 0);
    assert_true(tl_audio_object_linked(first));
    assert_false(tl_audio_object_linked(second));
    assert_int_equal(w->warnings, 1);
    assert_non_null(strstr(w->messages, "Audio: warning: spatial object 'brazier' (#1) of level 0 is not "
                                        "linked: object #0 of that level is linked with that name"));
    tl_audio_present_level(w->audio, 3);
    assert_true(tl_audio_object_linked(other)); /* another level: its own names */
    assert_int_equal(w->warnings, 2);           /* the relink met the duplicate again */
}

/* An object unlinks itself in its discard (its voice stops); the module's destroy stops the rest. */
static void test_audio_object_discard_unlinks_and_destroy_disconnects_the_rest(void **state) {
    W;
    tl_audio_object a = object_at(w, "a", 0, 1, 0), b = object_at(w, "b", 0, 1, 0);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(tl_audio_get_stats(w->audio).voices_busy, 2);
    tl_audio_object_discard(a);
    assert_false(tl_audio_object_valid(a));
    assert_int_equal(tl_audio_get_stats(w->audio).voices_busy, 1);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_STOP, LOOP), 1);
    tl_audio_object_discard(a); /* stale: logged, nothing else */
    assert_int_equal(w->errors, 1);
    assert_int_equal(tl_audio_last_result(w->audio), TL_AUDIO_STALE_HANDLE);
    assert_true(tl_audio_object_linked(b));
    tl_audio_destroy(w->audio);
    w->audio = NULL;
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_STOP, LOOP), 2);
    assert_int_equal(w->null.unloads, w->null.loads);
}

static void test_audio_source_volume_fades_and_moves(void **state) {
    W;
    tl_audio_object o = object_at(w, "engine", 0, 0, 0);
    int polls = 0;
    frames(w, 1, 1.0 / 64);
    while (!tl_audio_fade_source_volume(o, fp(0.5))) {
        frames(w, 1, 1.0 / 64);
        polls++;
    }
    assert_int_equal(polls, 32);
    assert_int_equal(gain_of(w, LOOP), fp(0.5).raw);
    assert_int_equal(tl_audio_move_towards_volume(o, TL_FP_ZERO).raw, fp(0.5 - 1.0 / 64).raw);
    assert_int_equal(tl_audio_source_volume(o).raw, fp(0.5 - 1.0 / 64).raw);
}

/* --- voices and effects ------------------------------------------------------------------------------- */

/* 8 voices: 4 for the tracks, 4 shared. Objects in range take free voices in slot order; the rest
   wait silent; an effect with none free takes the oldest effect's. */
static void test_audio_voices_are_shared_by_objects_and_effects(void **state) {
    W;
    tl_audio_voice e1, e2, e3;
    int i;
    for (i = 0; i < 3; i++) {
        char name[8];
        snprintf(name, sizeof name, "o%d", i);
        object_at(w, name, 0, 1, 0);
    }
    e1 = tl_audio_play(w->audio, HIT, TL_FP_ONE);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(tl_audio_get_stats(w->audio).voices_busy, 4);
    e2 = tl_audio_play(w->audio, HIT + 1, TL_FP_ONE); /* takes e1's */
    assert_true(tl_audio_voice_playing(e2));
    assert_false(tl_audio_voice_playing(e1));
    tl_audio_null_finish(&w->null, e2.index);
    frames(w, 1, 1.0 / 64); /* e2 ended: its voice is free */
    assert_false(tl_audio_voice_playing(e2));
    object_at(w, "o3", 0, 1, 0);
    frames(w, 1, 1.0 / 64);
    assert_int_equal(tl_audio_get_stats(w->audio).voices_busy, 4);
    e3 = tl_audio_play(w->audio, HIT, TL_FP_ONE); /* all four are objects': none to take */
    assert_false(tl_audio_voice_playing(e3));
    assert_int_equal(tl_audio_last_result(w->audio), TL_AUDIO_NO_VOICE);
    assert_int_equal(w->warnings, 1);
}

/* Interface sounds on the interface stack's events, subscribed by id with the natives' parameters
   (OnUIElementSelected(uint32_t, uint32_t), OnUICancelled(uint32_t)), or a game's confirm event
   of one pointer. */
typedef struct ui_stack ui_stack;
typedef void (*ui_selected_fn)(void *ctx, uint32_t interface_id, uint32_t selectable);
typedef void (*ui_cancelled_fn)(void *ctx, uint32_t interface_id);
typedef void (*ui_confirmed_fn)(void *ctx, ui_stack *stack);
static void test_audio_interface_sounds_play_on_their_events(void **state) {
    W;
    tl_events reg;
    const char *pointer = "(ui_stack *)";
    uint32_t pointer_sig = tl_hash32(pointer, strlen(pointer), 0);
    tl_events_desc ed;
    memset(&ed, 0, sizeof ed);
    ed.span = 32;
    assert_int_equal(tl_events_init(&reg, &ed), TL_EVENTS_OK);
    tl_audio_destroy(w->audio);
    w->desc.registry = &reg;
    w->desc.ui.clips[TL_AUDIO_UI_NAVIGATE] = CLICK;
    w->desc.ui.clips[TL_AUDIO_UI_CONFIRM] = YES;
    w->desc.ui.clips[TL_AUDIO_UI_CANCEL] = NO;
    w->desc.ui.events[TL_AUDIO_UI_NAVIGATE] = 22; /* native arguments: (uint32_t, uint32_t) */
    w->desc.ui.events[TL_AUDIO_UI_CANCEL] = 21;   /* (uint32_t) */
    w->desc.ui.events[TL_AUDIO_UI_CONFIRM] = 30;
    w->desc.ui.args[TL_AUDIO_UI_CONFIRM] = TL_AUDIO_UI_ARGS_POINTER;
    w->desc.ui.pointer_signature = pointer_sig;
    a_create(w);
    TL_EVENTS_PUBLISH(&reg, 22, TL_AUDIO_SIG_U32_U32, ui_selected_fn, 7u, 2u);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, CLICK), 1);
    TL_EVENTS_PUBLISH(&reg, 21, TL_AUDIO_SIG_U32, ui_cancelled_fn, 7u);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, NO), 1);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, YES), 0);
    TL_EVENTS_PUBLISH(&reg, 30, pointer_sig, ui_confirmed_fn, (ui_stack *)NULL);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, YES), 1);
    tl_audio_play_ui(w->audio, TL_AUDIO_UI_CONFIRM);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, YES), 2);
    tl_audio_destroy(w->audio);
    w->audio = NULL;
    assert_int_equal(tl_events_listener_count(&reg, 22), 0); /* unsubscribed */
    assert_int_equal(tl_events_listener_count(&reg, 30), 0);
    tl_events_discard(&reg);
}

/* The shapes' signature ids are the texts' (events.h's rule). */
static void test_audio_interface_signature_ids(void **state) {
    const char *texts[3] = {"(uint32_t)", "(uint32_t, uint32_t)", "()"};
    const uint32_t ids[3] = {TL_AUDIO_SIG_U32, TL_AUDIO_SIG_U32_U32, TL_AUDIO_SIG_NONE};
    int k;
    (void)state;
    for (k = 0; k < 3; k++) assert_int_equal(tl_hash32(texts[k], strlen(texts[k]), 0), ids[k]);
}

/* --- errors and allocation ------------------------------------------------------------------------------ */

static void test_audio_missing_clip_is_a_result_and_one_log_line(void **state) {
    W;
    tl_audio_scenario s = scenario(MISSING, 1.0, ATMOS_A, 1.0);
    tl_audio_voice v = tl_audio_play(w->audio, MISSING, TL_FP_ONE);
    assert_null(v.audio);
    assert_int_equal(tl_audio_last_result(w->audio), TL_AUDIO_NO_CLIP);
    assert_int_equal(w->errors, 1);
    assert_non_null(strstr(w->messages, "Audio: error: clip 99: the clip source has no bytes for it"));
    assert_int_equal(tl_audio_transition_to_scenario(w->audio, &s), TL_AUDIO_NO_CLIP);
    assert_int_equal(count_ops(w, TL_AUDIO_NULL_PLAY, ATMOS_A), 1); /* the atmos still moves */
    assert_null(tl_audio_play(w->audio, MISSING, TL_FP_ONE).audio); /* asked again (each frame): */
    assert_int_equal(tl_audio_last_result(w->audio), TL_AUDIO_NO_CLIP); /* told each time, */
    assert_int_equal(w->errors, 1);                                       /* logged once */
    assert_string_equal(tl_audio_result_message(TL_AUDIO_NO_CLIP), "the clip source has no bytes for the clip");
    assert_string_equal(tl_audio_result_message(TL_AUDIO_OK), "ok");
}

static void test_audio_tables_full_are_results(void **state) {
    a_world *w = (a_world *)*state;
    tl_audio_object_desc d;
    tl_audio_scenario s = scenario(MUSIC_A, 1, 0, 0);
    tl_audio_destroy(w->audio);
    w->desc.max_clips = 2;
    w->desc.max_objects = 1;
    w->desc.max_levels = 1;
    a_create(w);
    assert_int_equal(tl_audio_preload(w->audio, 1), TL_AUDIO_OK);
    assert_int_equal(tl_audio_preload(w->audio, 2), TL_AUDIO_OK);
    assert_int_equal(tl_audio_preload(w->audio, 3), TL_AUDIO_CLIPS_FULL);
    tl_audio_unload(w->audio, 2);
    assert_false(tl_audio_is_loaded(w->audio, 2));
    assert_int_equal(tl_audio_preload(w->audio, 3), TL_AUDIO_OK);
    memset(&d, 0, sizeof d);
    assert_true(tl_audio_object_valid(tl_audio_object_create(w->audio, &d)));
    assert_false(tl_audio_object_valid(tl_audio_object_create(w->audio, &d)));
    assert_int_equal(tl_audio_last_result(w->audio), TL_AUDIO_OBJECTS_FULL);
    assert_int_equal(tl_audio_set_level_scenario(w->audio, 1, &s), TL_AUDIO_OK);
    assert_int_equal(tl_audio_set_level_scenario(w->audio, 1, &s), TL_AUDIO_OK); /* replaces */
    assert_int_equal(tl_audio_set_level_scenario(w->audio, 2, &s), TL_AUDIO_LEVELS_FULL);
    assert_int_equal(w->errors, 3);
    assert_int_equal(w->released, 3); /* the source's bytes released once the backend has them */
}

static void test_audio_bad_desc_is_refused(void **state) {
    a_world *w = (a_world *)*state;
    tl_audio_desc d = w->desc;
    d.voices = 4; /* the tracks' alone */
    assert_null(tl_audio_create(&d));
    assert_null(tl_audio_create(NULL));
    assert_int_equal(w->errors, 1);
    d = w->desc;
    d.fader.provide = true; /* subscriptions without a registry */
    assert_null(tl_audio_create(&d));
    d = w->desc;
    d.ui.events[TL_AUDIO_UI_CANCEL] = 20;
    assert_null(tl_audio_create(&d));
    d = w->desc;
    d.ui.args[TL_AUDIO_UI_CANCEL] = (tl_audio_ui_args)9; /* no such shape */
    assert_null(tl_audio_create(&d));
    d.ui.args[TL_AUDIO_UI_CANCEL] = TL_AUDIO_UI_ARGS_POINTER; /* without its signature id */
    d.ui.events[TL_AUDIO_UI_CANCEL] = 20;
    d.registry = (tl_events *)&d; /* never reached: refused before */
    assert_null(tl_audio_create(&d));
    assert_int_equal(w->errors, 5);
    tl_audio_set_bus_max(w->audio, TL_AUDIO_BUS_COUNT, TL_FP_ONE);
    assert_int_equal(w->errors, 6);
    assert_non_null(strstr(w->messages, "Audio: error: tl_audio_set_bus_max: invalid argument"));
}

/* The per-frame paths (update, play, drive, fades) never allocate. */
static void test_audio_frames_do_not_allocate(void **state) {
    W;
    tl_audio_scenario a = scenario(MUSIC_A, 1, ATMOS_A, 1), b = scenario(MUSIC_B, 1, ATMOS_B, 1);
    unsigned long before;
    int i;
    tl_audio_preload(w->audio, HIT);
    zone_at(w, 0, 3, 0.5, 0.5);
    object_at(w, "o", 0, 1, 1);
    tl_audio_transition_to_scenario(w->audio, &a);
    tl_audio_preload(w->audio, MUSIC_B);
    tl_audio_preload(w->audio, ATMOS_B);
    before = a_allocations;
    for (i = 0; i < 200; i++) {
        tl_audio_drive_listener(w->audio, tl_fpv3_make(fp(i * 0.05), TL_FP_ZERO, TL_FP_ZERO), NULL);
        if (i == 50) tl_audio_transition_to_scenario(w->audio, &b);
        if (i % 10 == 0) tl_audio_play(w->audio, HIT, TL_FP_HALF);
        tl_audio_update(w->audio, 1.0 / 60);
    }
    assert_int_equal(a_allocations, before);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void) {
    const struct CMUnitTest tests[] = {
        T(test_audio_signature_ids_are_the_natives),
        T(test_audio_native_ordinals_match_the_natives_file),
        T(test_audio_fade_takes_volume_over_speed_seconds),
        T(test_audio_fade_lands_on_the_target_within_a_frame),
        T(test_audio_transition_cross_fades_and_stops_the_old_track),
        T(test_audio_transition_back_to_the_falling_track_does_not_restart_it),
        T(test_audio_global_volumes_max_scale_music_and_atmos),
        T(test_audio_listener_fade_is_polled_and_scales_everything),
        T(test_audio_object_rolloff_and_pan),
        T(test_audio_listener_keeps_its_last_transform),
        T(test_audio_zone_attenuates_music_by_its_influence),
        T(test_audio_only_the_presented_levels_objects_are_linked),
        T(test_audio_duplicate_name_is_not_linked_and_named),
        T(test_audio_object_discard_unlinks_and_destroy_disconnects_the_rest),
        T(test_audio_source_volume_fades_and_moves),
        T(test_audio_voices_are_shared_by_objects_and_effects),
        T(test_audio_interface_sounds_play_on_their_events),
        T(test_audio_interface_signature_ids),
        T(test_audio_missing_clip_is_a_result_and_one_log_line),
        T(test_audio_tables_full_are_results),
        T(test_audio_bad_desc_is_refused),
        T(test_audio_frames_do_not_allocate),
    };
    return cmocka_run_group_tests_name("audio", tests, NULL, NULL);
}
