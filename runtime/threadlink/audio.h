/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/audio.h -- music, ambience and effects: buses, fades, level scenarios, zones (the seed's Aura).

   WHAT
   ----
   The policy layer over a mixer, as the seed's Aura is over Unity's: it decides what plays and
   at which gain, deterministically (fp.h arithmetic: the same gains on every machine), and a
   backend (function pointers in the desc) plays it. Three buses, Music, Atmos (ambience) and
   SFX, under a listener volume; a scenario (music track, atmos track and their volumes) that
   transitions cross-fade; level scenarios applied when a level is presented; spatial objects
   and zones linked for the presented level only; interface sounds on the interface stack's
   events. No decoder, no mixer: backends/sdl2/tl_audio_sdl_mixer.h plays it with SDL_mixer,
   and tl_audio_null (below) records the commands for tests.

   INCLUDE
   -------
       #include <threadlink/audio.h>
       #define TL_AUDIO_IMPL                    // or TL_IMPLEMENTATION (all modules), in one file
       #include <threadlink/audio.h>
   A service: includes only the core (fp.h, events.h, log.h, hash.h). Clips are content assets,
   reached through the clip source hooks (the game or glue.h fills them from content.h); levels
   through events.h's native OnScenePresented and a level-id hook (tl_level_id).

   OVERRIDES
   ---------
   TL_MALLOC / TL_FREE   the allocator (both or neither); used by tl_audio_create and the
                         destroy only: nothing allocates after creation.

   USE
   ---
       tl_audio_null null;                          // or an SDL_mixer backend
       tl_audio_null_command log[256];
       tl_audio_null_init(&null, log, 256);
       tl_audio_desc desc = {0};                    // zero: defaults (see tl_audio_desc)
       desc.backend = tl_audio_null_backend(&null);
       desc.clips.bytes = clip_bytes;  desc.clips.ctx = content;   // the asset's bytes by id
       desc.registry = &registry;  desc.level_id = tl_level_id;    // follow OnScenePresented
       desc.fade_speed = tl_fp_from_int(2);                        // a full fade in 0.5 s
       tl_audio *audio = tl_audio_create(&desc);
       tl_audio_scenario meadow = {CONTENT_MAIN_U32(Content_Main_Music_meadow),   // content ids
                                   CONTENT_MAIN_U32(Content_Main_Atmos_birds), TL_FP_ONE, TL_FP_HALF};
       tl_audio_set_level_scenario(audio, NEXUS_LEVELS_U32(Nexus_Levels_Meadow), &meadow);
       ... each frame: tl_audio_drive_listener(audio, camera, NULL);
                       tl_audio_update(audio, seconds);  // or subscribe tl_audio_on_update
       tl_audio_play(audio, CONTENT_MAIN_U32(Content_Main_Sounds_hit), TL_FP_ONE);
       tl_audio_destroy(audio);

   BUSES, VOLUMES AND FADES
   ------------------------
   - Every volume is a tl_fp in [0, 1] and every change of one moves towards its target by
     fade_speed x dt per tl_audio_update (dt the update's seconds, converted once with
     tl_fp_from_double): a change of size v takes v / fade_speed seconds, whatever the frame
     rate's steps (the last step lands on the target exactly). The seed's "higher is faster".
   - A voice's gain, sent to the backend whenever it changes (never otherwise):
         music, atmos track   track volume x bus maximum x zone attenuation x listener volume
         spatial object       source volume x rolloff x bus maximum x listener volume
         effect (tl_audio_play, interface sounds)   volume x SFX maximum x listener volume
     each product a tl_fp_mul clamped to [0, 1], always in the same order (the same bits on
     every machine).
   - tl_audio_set_global_volumes_max(music, atmos) moves the two bus maxima (the seed's
     SetGlobalVolumesMax; tl_audio_set_bus_max for any bus). All start at 1.
   - tl_audio_fade_listener_volume(target) moves the listener volume and answers true once it is
     there: call it each frame until true, as levels.h's providers are polled (the seed's
     awaited FadeAudioListenerVolumeAsync).
   - tl_audio_fade_source_volume(object, target) likewise for a spatial object's own volume (the
     seed's FadeAudiosourceVolumeAsync); tl_audio_move_towards_volume(object, target) moves it
     one step of fade_speed x the last update's dt at once (the seed's MoveTowardsVolume, for a
     game that drives a volume itself each frame).

   SCENARIOS
   ---------
   A scenario is (music clip, atmos clip, music volume, atmos volume); clip 0 is silence.
   tl_audio_transition_to_scenario cross-fades each bus: a different clip starts at volume 0 and
   rises to its volume while the one playing falls to 0 and stops (a third transition during a
   cross-fade stops the falling one at once); the same clip only moves to the new volume, never
   restarts. tl_audio_scenario_settled answers whether every track is at its target and no
   falling track is left (the seed's awaited TransitionToAudioScenarioAsync).
   Levels carry their scenario (the seed's scene entry): tl_audio_set_level_scenario(level, s);
   when OnScenePresented(level) is published (levels.h's presentation), the module relinks its
   spatial objects (below) and transitions to the level's scenario, if it has one (a level
   without one leaves the music as it is).

   SPATIAL OBJECTS AND ZONES
   -------------------------
   - tl_audio_object_create registers a looping source (a clip at a position, on a bus, with a
     minimum and a maximum distance) for a level; tl_audio_object_discard unregisters it (its
     owner calls it in the object's discard, as the seed's AuraSpatialObject unlinks itself).
     tl_audio_destroy disconnects whatever is left.
   - Linked objects are evaluated and audible; the others are silent. The objects of the
     presented level are linked (and those of level 0, which belong to no level): on every
     OnScenePresented the module disconnects every object and links those of the new level; an
     object created for the presented level is linked at once. A level resident but not
     presented (another player's area) is inaudible and its zones attenuate nothing.
   - Names are unique per level among linked objects: a second object of a name is not linked,
     and a warning names both (its index and the linked one's). An object without a name never
     collides.
   - Rolloff of a linked object at distance d from the listener (its min and max distances m, M):
         rolloff = 1 for d <= m,  0 for d >= M,  (M - d) / (M - m) between    (linear, as Unity's)
   - A zone is a spatial object with an influence I and a radius coefficient c (both 0..1). Its
     inverse-distance immersion, with R = its max distance and r = c x R:
         immersion = 1 for d <= r,  0 for d >= R,  (R - d) / (R - r) between
     (both falloffs computed as (far - d) x 1 / (far - near), the reciprocal taken when the object
     is made, d = tl_fp_sqrt of the squared distance); the zone attenuates the global music and
     atmos tracks by
         zone attenuation = 1 - max over linked zones of (I x immersion)
     so at full immersion the music plays at (1 - I) of its volume. The zone's own clip plays as
     any spatial object's.
   - Pan: the listener's right vector (its rotation applied to +x) dotted with the direction to
     the object, in [-1, 1]; 0 for flat objects and tracks.
   - A linked object within its max distance gets a voice while one is free (in slot order:
     creation order, discarded objects' slots reused first); beyond it, it gives its voice back.
     An object waiting for a voice is not placed (a flag test a frame; a zone always is). Looping
     objects restart when they come back into range (no virtual playback position is kept).
   - tl_audio_drive_listener(position, rotation) places the listener (NULL rotation: keep the
     last); nobody driving it keeps its last transform (the seed's DriveAudioListener).

   VOICES
   ------
   desc.voices voices (32 by default), each a backend channel with the same index: 0 and 1 the
   music tracks (playing and falling), 2 and 3 the atmos tracks, the rest shared by objects and
   effects. An effect with no free voice takes the oldest playing effect's; when none can be
   taken it is not played (TL_AUDIO_NO_VOICE, logged). A one-shot's voice is given back once the
   backend's is_playing says it ended (checked each update).

   INTERFACE SOUNDS
   ----------------
   desc.ui.clips: the navigation, confirm and cancel clips (the seed's Aura Config). Given
   desc.ui.events (event ids: the interface module's natives OnUIElementSelected for navigation,
   OnUICancelled for cancel, and the game's own confirm event if it has one), the module
   subscribes a listener of each event's parameters (desc.ui.args: by default the natives',
   (uint32_t, uint32_t) and (uint32_t); also (), or one pointer with its signature id) and plays
   the clip on each publish; tl_audio_play_ui plays one directly (the seed's PlayUISFX). The
   interface module never includes this header, nor this one it.

   THE TRANSITION'S LISTENER FADE
   ------------------------------
   levels.h's transition polls the single providers OnDisplayFader and OnHideFader. With
   desc.fader.provide the module subscribes as both: OnDisplayFader fades the listener volume to
   0 and answers true once it is there, OnHideFader fades it back to the volume it had before;
   a game with a visual fader gives its own providers in desc.fader.display / .hide and the
   module polls them alongside (each answer true once both are done): one provider per event,
   as events.h allows. Without desc.fader.provide, a game's provider can call
   tl_audio_fade_listener_volume itself.

   ERRORS
   ------
   A function that can fail returns tl_audio_result (TL_AUDIO_OK = 0, tl_audio_result_message);
   one that makes something (tl_audio_create, tl_audio_object_create, tl_audio_play) returns a
   handle or NULL, the reason in tl_audio_last_result. Every failure is logged once, where it is
   met, through desc.logger (TL_AUDIO_LOG_ITEMS).

   NATIVE EVENTS
   -------------
   None published. Subscribed: OnScenePresented (levels.h's ordinal 11), and with
   desc.fader.provide OnDisplayFader and OnHideFader (14, 17): TL_AUDIO_EVENTS_NATIVE, or
   TL_AUDIO_EVENTS_INIT(prefix) from a generated Iris.Events header.

   Main thread only. The backend is called from tl_audio_update and the calls that play or stop.
*/
/* TL_IMPLEMENTATION implies every module's switch; checked outside the include guard, so that
   defining it between two includes of this header still counts. */
#if defined(TL_IMPLEMENTATION) && !defined(TL_AUDIO_IMPL)
#define TL_AUDIO_IMPL
#endif
#ifndef TL_AUDIO_H
#define TL_AUDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "events.h"
#include "fp.h"
#include "log.h"

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/audio.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_audio tl_audio;

/* --- results and diagnostics -------------------------------------------------------------------- */

#define TL_AUDIO_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(NO_MEMORY, "out of memory") \
    X(NO_CLIP, "the clip source has no bytes for the clip") \
    X(LOAD_FAILED, "the backend could not load the clip") \
    X(CLIPS_FULL, "the clip table is full") \
    X(NO_VOICE, "no voice free") \
    X(OBJECTS_FULL, "the spatial object table is full") \
    X(LEVELS_FULL, "the level scenario table is full") \
    X(STALE_HANDLE, "a stale or discarded handle") \
    X(SUBSCRIBE_FAILED, "could not subscribe to an event")

typedef enum tl_audio_result {
    TL_AUDIO_OK = 0,
#define TL__AUDIO_RESULT_ENUM(id, message) TL_AUDIO_##id,
    TL_AUDIO_RESULTS(TL__AUDIO_RESULT_ENUM)
#undef TL__AUDIO_RESULT_ENUM
        TL_AUDIO_RESULT_END_
} tl_audio_result;

#define TL_AUDIO_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(NO_CLIP, TL_LOG_LEVEL_ERROR, "clip %u: the clip source has no bytes for it") \
    X(LOAD_FAILED, TL_LOG_LEVEL_ERROR, "clip %u: the backend could not load its %lu bytes: %s") \
    X(CLIPS_FULL, TL_LOG_LEVEL_ERROR, "clip %u: the clip table is full (%u clips)") \
    X(NO_VOICE, TL_LOG_LEVEL_WARNING, "clip %u: no voice free (%u voices): not played") \
    X(OBJECTS_FULL, TL_LOG_LEVEL_ERROR, "spatial object '%s': the object table is full (%u)") \
    X(LEVELS_FULL, TL_LOG_LEVEL_ERROR, "level %u: the scenario table is full (%u levels)") \
    X(DUPLICATE_NAME, TL_LOG_LEVEL_WARNING, \
      "spatial object '%s' (#%u) of level %u is not linked: object #%u of that level is " \
      "linked with that name") \
    X(STALE_HANDLE, TL_LOG_LEVEL_ERROR, "%s: a stale or discarded handle") \
    X(SUBSCRIBE_FAILED, TL_LOG_LEVEL_ERROR, "could not subscribe to event #%u (%s)")

#define TL_AUDIO_LOG_BASE 0xC00u
typedef enum tl_audio_log_item {
    TL_AUDIO_LOG_NONE_ = TL_AUDIO_LOG_BASE - 1,
#define TL__AUDIO_LOG_ENUM(id, level, message) TL_AUDIO_LOG_##id,
    TL_AUDIO_LOG_ITEMS(TL__AUDIO_LOG_ENUM) /* TL_AUDIO_LOG_<id>, one per row from the base */
#undef TL__AUDIO_LOG_ENUM
    TL_AUDIO_LOG_END_
} tl_audio_log_item;

TL_API const char *tl_audio_result_message(tl_audio_result result);

/* --- native events (subscribed, not published) --------------------------------------------------- */

typedef struct tl_audio_events {
    uint32_t scene_presented, display_fader, hide_fader;
} tl_audio_events;
#define TL_AUDIO_EVENTS_INIT(prefix) \
    { prefix##OnScenePresented, prefix##OnDisplayFader, prefix##OnHideFader }
/* Their native ordinals (levels.h's TL_LEVELS_EVENTS_NATIVE: 11, 14, 17). */
#define TL_AUDIO_EVENTS_NATIVE \
    { 11, 14, 17 }
/* The signature ids of "(tl_level *)" and "(tl_levels *)->bool" (levels.h's TL_LEVELS_SIG_LEVEL
   and TL_LEVELS_SIG_PROVIDER; tests/audio checks them against tl_hash32 of the text). */
#define TL_AUDIO_SIG_LEVEL 0x2b9578c4u
#define TL_AUDIO_SIG_PROVIDER 0x0d554dd3u

/* --- the backend ---------------------------------------------------------------------------------- */

/* What plays. Every function gets ctx; voices are 0..desc.voices-1 (a backend channel each);
   gains are in [0, 1], pans in [-1, 1] (-1 left). Only load, play and stop are required. */
typedef struct tl_audio_backend {
    void *ctx;
    /* Decodes a clip from its bytes (valid only during the call); its data, or NULL. */
    void *(*load)(void *ctx, uint32_t clip, const void *bytes, size_t size);
    void (*unload)(void *ctx, void *data);
    void (*play)(void *ctx, uint32_t voice, void *data, bool loop, tl_fp gain, tl_fp pan);
    void (*stop)(void *ctx, uint32_t voice);
    void (*set_gain)(void *ctx, uint32_t voice, tl_fp gain, tl_fp pan);
    /* Whether a one-shot still plays; NULL: one-shots hold their voice until stopped. */
    bool (*is_playing)(void *ctx, uint32_t voice);
    /* Once at the end of each tl_audio_update (a backend may apply its changes at once). */
    void (*commit)(void *ctx);
    /* Why the last load failed, asked at once after it (the LOAD_FAILED log line); NULL: none. */
    const char *(*load_error)(void *ctx);
} tl_audio_backend;

/* Where clips come from: content assets by id. bytes gives the clip's bytes (valid until release
   or the call's end); release, if set, is called once the backend has them. */
typedef struct tl_audio_clip_source {
    void *ctx;
    bool (*bytes)(void *ctx, uint32_t clip, const void **bytes, size_t *size);
    void (*release)(void *ctx, uint32_t clip);
} tl_audio_clip_source;

/* --- the module ----------------------------------------------------------------------------------- */

typedef enum tl_audio_bus {
    TL_AUDIO_BUS_SFX = 0, /* effects and spatial objects (the default) */
    TL_AUDIO_BUS_MUSIC = 1,
    TL_AUDIO_BUS_ATMOS = 2,
    TL_AUDIO_BUS_COUNT = 3
} tl_audio_bus;

typedef enum tl_audio_ui_sound {
    TL_AUDIO_UI_NAVIGATE = 0,
    TL_AUDIO_UI_CONFIRM = 1,
    TL_AUDIO_UI_CANCEL = 2,
    TL_AUDIO_UI_COUNT = 3
} tl_audio_ui_sound;

typedef struct tl_audio_scenario {
    uint32_t music, atmos;            /* clip ids; 0: silence */
    tl_fp music_volume, atmos_volume; /* 0..1 */
} tl_audio_scenario;

/* The parameters of an event that plays an interface sound (the module subscribes a listener of
   that shape). Zero: the interface module's natives, OnUIElementSelected(uint32_t, uint32_t) for
   navigation and confirm, OnUICancelled(uint32_t) for cancel. */
typedef enum tl_audio_ui_args {
    TL_AUDIO_UI_ARGS_NATIVE = 0,
    TL_AUDIO_UI_ARGS_U32_U32 = 1, /* "(uint32_t, uint32_t)" */
    TL_AUDIO_UI_ARGS_U32 = 2,     /* "(uint32_t)" */
    TL_AUDIO_UI_ARGS_NONE = 3,    /* "()" */
    TL_AUDIO_UI_ARGS_POINTER = 4  /* one pointer, "(T *)": its signature id in pointer_signature */
} tl_audio_ui_args;
#define TL_AUDIO_SIG_U32 0xfe1b43c4u     /* "(uint32_t)" */
#define TL_AUDIO_SIG_U32_U32 0x43e461dbu /* "(uint32_t, uint32_t)" */
#define TL_AUDIO_SIG_NONE 0x12f682fdu    /* "()" */

/* The interface sounds: clips (0: none) and, optionally, the events that play them (0: not
   subscribed) with their parameters. */
typedef struct tl_audio_ui_desc {
    uint32_t clips[TL_AUDIO_UI_COUNT];
    uint32_t events[TL_AUDIO_UI_COUNT];
    tl_audio_ui_args args[TL_AUDIO_UI_COUNT];
    uint32_t pointer_signature;
} tl_audio_ui_desc;

typedef bool (*tl_audio_provider_fn)(void *ctx, tl_levels *levels);
typedef struct tl_audio_fader_desc {
    bool provide;                       /* subscribe as OnDisplayFader / OnHideFader's provider */
    tl_audio_provider_fn display, hide; /* the game's own fader, polled alongside; NULL: none */
    void *ctx;                          /* theirs */
} tl_audio_fader_desc;

/* Zero-initialised: no backend (everything is decided, nothing plays), no clip source, no
   registry (no subscriptions), native event ordinals, stderr logging, fade speed 1 (a full fade
   in one second), 32 voices, 256 spatial objects, 64 clips, 64 level scenarios. */
typedef struct tl_audio_desc {
    tl_audio_backend backend;
    tl_audio_clip_source clips;
    tl_events *registry;
    const tl_audio_events *events; /* NULL: TL_AUDIO_EVENTS_NATIVE */
    const tl_logger *logger;
    /* levels.h's tl_level_id: without it OnScenePresented is not followed. */
    uint32_t (*level_id)(const tl_level *level);
    tl_fp fade_speed; /* volume units per second; 0: 1 */
    uint32_t voices;  /* 0: 32 (at least 5) */
    uint32_t max_objects, max_clips, max_levels;
    tl_audio_ui_desc ui;
    tl_audio_fader_desc fader;
} tl_audio_desc;

/* A spatial object: a small handle (slot + generation); a discarded one is detected. Zero is none. */
typedef struct tl_audio_object {
    tl_audio *audio;
    uint32_t index, gen;
} tl_audio_object;

/* Zero-initialised: no name, level 0 (no level: always linked), no clip, the SFX bus, at the
   origin, volume 1, min distance 1, max distance 10, spatial, not a zone. */
typedef struct tl_audio_object_desc {
    const char *name; /* unique per level (copied; the first 47 bytes count) */
    uint32_t level;
    uint32_t clip; /* looped while the object is linked and in range */
    tl_audio_bus bus;
    tl_fpv3 position;
    tl_fp volume, min_distance, max_distance;
    bool flat; /* not spatial: rolloff 1 and pan 0 wherever the listener is (no zone then) */
    bool zone;
    tl_fp radius_coefficient, influence; /* a zone's (0..1) */
} tl_audio_object_desc;

/* A playing effect: zero is none. */
typedef struct tl_audio_voice {
    tl_audio *audio;
    uint32_t index, gen;
} tl_audio_voice;

typedef struct tl_audio_stats {
    uint32_t objects, linked, zones, voices_busy, clips;
    uint32_t gain_changes; /* set_gain calls in the last update */
} tl_audio_stats;

TL_API tl_audio *tl_audio_create(const tl_audio_desc *desc);
/* Stops every voice, disconnects every object, unloads every clip, unsubscribes, frees. */
TL_API void tl_audio_destroy(tl_audio *audio);
/* The reason the last making call (create, object create, play) failed; TL_AUDIO_OK otherwise. */
TL_API tl_audio_result tl_audio_last_result(const tl_audio *audio);
TL_API void tl_audio_update(tl_audio *audio, double seconds);
/* An OnUpdate listener: subscribe it with the module as context. */
TL_API void tl_audio_on_update(void *audio, float seconds);

/* Clips: loaded on first use (a hitch: preload them), kept until unload or destroy; unload stops
   the voices playing it (a linked object in range, or a later play, loads it again). */
TL_API tl_audio_result tl_audio_preload(tl_audio *audio, uint32_t clip);
TL_API void tl_audio_unload(tl_audio *audio, uint32_t clip);
TL_API bool tl_audio_is_loaded(const tl_audio *audio, uint32_t clip);

/* Volumes (see BUSES, VOLUMES AND FADES). */
TL_API void tl_audio_set_fade_speed(tl_audio *audio, tl_fp speed);
TL_API void tl_audio_set_global_volumes_max(tl_audio *audio, tl_fp music, tl_fp atmos);
TL_API void tl_audio_set_bus_max(tl_audio *audio, tl_audio_bus bus, tl_fp volume);
TL_API tl_fp tl_audio_bus_max(const tl_audio *audio, tl_audio_bus bus);
TL_API bool tl_audio_fade_listener_volume(tl_audio *audio, tl_fp target);
TL_API tl_fp tl_audio_listener_volume(const tl_audio *audio);
/* The multiplier the linked zones put on the music and atmos tracks (1: no zone). */
TL_API tl_fp tl_audio_zone_attenuation(const tl_audio *audio);

/* Scenarios. */
TL_API tl_audio_result tl_audio_transition_to_scenario(tl_audio *audio, const tl_audio_scenario *s);
TL_API bool tl_audio_scenario_settled(const tl_audio *audio);
TL_API tl_audio_scenario tl_audio_current_scenario(const tl_audio *audio);
TL_API tl_audio_result tl_audio_set_level_scenario(tl_audio *audio, uint32_t level,
                                                   const tl_audio_scenario *s);
/* What OnScenePresented does: relink for the level, transition to its scenario. */
TL_API void tl_audio_present_level(tl_audio *audio, uint32_t level);
TL_API bool tl_audio_presented_level(const tl_audio *audio, uint32_t *level);

/* The listener. */
TL_API void tl_audio_drive_listener(tl_audio *audio, tl_fpv3 position, const tl_fpquat *rotation);
TL_API tl_fpv3 tl_audio_listener_position(const tl_audio *audio);

/* Spatial objects. */
TL_API tl_audio_object tl_audio_object_create(tl_audio *audio, const tl_audio_object_desc *desc);
TL_API void tl_audio_object_discard(tl_audio_object object);
TL_API bool tl_audio_object_valid(tl_audio_object object);
TL_API bool tl_audio_object_linked(tl_audio_object object);
TL_API tl_audio_result tl_audio_object_move(tl_audio_object object, tl_fpv3 position);
TL_API tl_audio_result tl_audio_set_source_volume(tl_audio_object object, tl_fp volume);
TL_API bool tl_audio_fade_source_volume(tl_audio_object object, tl_fp target);
TL_API tl_fp tl_audio_move_towards_volume(tl_audio_object object, tl_fp target);
TL_API tl_fp tl_audio_source_volume(tl_audio_object object);
/* The gain the object's voice was last given (0 when silent or unlinked). */
TL_API tl_fp tl_audio_object_gain(tl_audio_object object);

/* Effects. */
TL_API tl_audio_voice tl_audio_play(tl_audio *audio, uint32_t clip, tl_fp volume);
TL_API void tl_audio_stop(tl_audio_voice voice);
TL_API bool tl_audio_voice_playing(tl_audio_voice voice);
TL_API tl_audio_voice tl_audio_play_ui(tl_audio *audio, tl_audio_ui_sound sound);

/* The transition's providers (see THE TRANSITION'S LISTENER FADE); ctx is the module. */
TL_API bool tl_audio_display_fader(void *audio, tl_levels *levels);
TL_API bool tl_audio_hide_fader(void *audio, tl_levels *levels);

TL_API tl_audio_stats tl_audio_get_stats(const tl_audio *audio);

/* --- the null backend: records what a backend would be told, for tests ---------------------------- */

typedef enum tl_audio_null_op {
    TL_AUDIO_NULL_LOAD,
    TL_AUDIO_NULL_UNLOAD,
    TL_AUDIO_NULL_PLAY,
    TL_AUDIO_NULL_STOP,
    TL_AUDIO_NULL_GAIN
} tl_audio_null_op;

typedef struct tl_audio_null_command {
    tl_audio_null_op op;
    uint32_t frame; /* commits before it */
    uint32_t voice, clip;
    bool loop;
    tl_fp gain, pan;
} tl_audio_null_command;

#define TL_AUDIO_NULL_VOICES 64
#define TL_AUDIO_NULL_CLIPS 64
typedef struct tl_audio_null_voice {
    uint32_t clip;
    bool playing, loop;
    tl_fp gain, pan;
} tl_audio_null_voice;

/* Commands go into the caller's array until it is full (then only counted in `dropped`); each
   voice's state is kept too. One-shots play until tl_audio_null_finish says they ended. */
typedef struct tl_audio_null {
    tl_audio_null_command *commands;
    uint32_t capacity, count, dropped, frame;
    tl_audio_null_voice voices[TL_AUDIO_NULL_VOICES];
    uint32_t clip_ids[TL_AUDIO_NULL_CLIPS]; /* loaded clips by data index */
    size_t clip_sizes[TL_AUDIO_NULL_CLIPS];
    uint32_t loads, unloads;
} tl_audio_null;

TL_API void tl_audio_null_init(tl_audio_null *null, tl_audio_null_command *commands,
                               uint32_t capacity);
TL_API tl_audio_backend tl_audio_null_backend(tl_audio_null *null);
TL_API void tl_audio_null_finish(tl_audio_null *null, uint32_t voice);
/* The voice playing a clip (the first), or -1. */
TL_API int tl_audio_null_voice_of(const tl_audio_null *null, uint32_t clip);

#ifdef __cplusplus
}
#endif
#endif /* TL_AUDIO_H */

/* ------------------------------------------------------------------------------------------------ */
#if defined(TL_AUDIO_IMPL) && !defined(TL__AUDIO_IMPLEMENTED)
#define TL__AUDIO_IMPLEMENTED
#include "hash.h"
#include <string.h>
#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL__AUDIO_NONE UINT32_MAX
#define TL__AUDIO_NAME_MAX 48
#define TL__AUDIO_TRACK_VOICES 4 /* music playing and falling, atmos playing and falling */
enum {
    TL__AUDIO_VOICE_FREE,
    TL__AUDIO_VOICE_TRACK,
    TL__AUDIO_VOICE_OBJECT,
    TL__AUDIO_VOICE_EFFECT
};

typedef struct tl__audio_clip {
    uint32_t id; /* 0: a free row */
    void *data;
} tl__audio_clip;

typedef struct tl__audio_voice {
    uint32_t kind, gen, owner, clip;
    uint64_t started; /* play order, for taking the oldest effect's voice */
    tl_fp volume;     /* an effect's own */
    tl_fp gain, pan;  /* as last sent */
} tl__audio_voice;

/* A bus's track: [0] the one playing (rising or steady), [1] the one falling. */
typedef struct tl__audio_track {
    uint32_t clip, voice;
    tl_fp volume, target;
} tl__audio_track;

typedef struct tl__audio_obj {
    uint32_t gen, level, clip, voice, name_hash;
    bool live, linked, flat, zone, fading;
    tl_audio_bus bus;
    tl_fpv3 position;
    tl_fp volume, target, gain, pan;
    tl_fp min, max, max_sq, inv_span;            /* inv_span: 1 / (max - min), 0 when max <= min */
    tl_fp influence, zone_radius, zone_inv_span; /* 1 / (max - radius) */
} tl__audio_obj;

/* Object names, apart from the objects: only linking reads them, the update never. */
typedef struct tl__audio_name {
    char text[TL__AUDIO_NAME_MAX];
} tl__audio_name;

typedef struct tl__audio_level {
    uint32_t level;
    tl_audio_scenario scenario;
} tl__audio_level;

struct tl_audio {
    tl_audio_backend backend;
    tl_audio_clip_source source;
    uint32_t failed_clip; /* the clip whose failed load was logged last: not again each frame */
    tl_events *registry;
    tl_audio_events events;
    tl_logger logger;
    uint32_t (*level_id)(const tl_level *level);
    tl_audio_ui_desc ui;
    tl_audio_fader_desc fader;
    tl_audio_result last;
    tl_fp fade_speed, dt, step;
    tl_fp listener_volume, listener_target, listener_restore;
    tl_fp bus_max[TL_AUDIO_BUS_COUNT], bus_target[TL_AUDIO_BUS_COUNT];
    tl_fp zone_attenuation;
    tl_fpv3 listener_position, listener_right;
    tl__audio_track tracks[TL_AUDIO_BUS_COUNT][2]; /* music's and atmos's; [SFX] unused */
    tl__audio_voice *voices;
    uint32_t voice_count, *free_voices, free_count;
    uint64_t plays;
    tl__audio_obj *objects;
    tl__audio_name *names; /* one per object slot */
    uint32_t object_cap, object_high, object_count, linked_count, zone_count;
    tl__audio_clip *clips;
    uint32_t clip_cap;
    tl__audio_level *levels;
    uint32_t level_cap, level_count;
    uint32_t presented, gain_changes;
    bool has_presented, fader_out, display_done, hide_done;
};

TL_LOG_TABLE_FN(tl__audio_log, TL_AUDIO_LOG_ITEMS, TL_AUDIO_LOG_BASE, "Audio")

TL_RESULT_MESSAGE_FN(tl_audio_result_message, tl_audio_result, TL_AUDIO_RESULTS)

/* --- fixed-point helpers ------------------------------------------------------------------------ */

static tl_fp tl__audio_gain(tl_fp a, tl_fp b) { return tl_fp_clamp01(tl_fp_mul(a, b)); }

/* Whether d is beyond `reach` along an axis: then it is beyond it in distance too. */
static bool tl__audio_outside_box(tl_fpv3 d, tl_fp reach) {
    return tl_fp_ge(tl_fp_abs(d.x), reach) || tl_fp_ge(tl_fp_abs(d.y), reach) ||
           tl_fp_ge(tl_fp_abs(d.z), reach);
}

static tl_fp tl__audio_sq_distance(tl_fpv3 d) {
    return tl_fp_add(tl_fp_add(tl_fp_mul(d.x, d.x), tl_fp_mul(d.y, d.y)), tl_fp_mul(d.z, d.z));
}

/* 1 at d <= near, 0 at d >= far, (far - d) / (far - near) between (inv_span = 1/(far - near)). */
static tl_fp tl__audio_falloff(tl_fp d, tl_fp near_, tl_fp far_, tl_fp inv_span) {
    if (tl_fp_le(d, near_)) return TL_FP_ONE;
    if (tl_fp_ge(d, far_) || inv_span.raw == 0) return TL_FP_ZERO;
    return tl_fp_clamp01(tl_fp_mul(tl_fp_sub(far_, d), inv_span));
}

static tl_fp tl__audio_inverse_span(tl_fp near_, tl_fp far_) {
    return tl_fp_gt(far_, near_) ? tl_fp_div(TL_FP_ONE, tl_fp_sub(far_, near_)) : TL_FP_ZERO;
}

/* --- clips ----------------------------------------------------------------------------------------- */

static tl__audio_clip *tl__audio_clip_find(const tl_audio *a, uint32_t id) {
    uint32_t i;
    for (i = 0; i < a->clip_cap; i++)
        if (a->clips[i].id == id) return &a->clips[i];
    return NULL;
}

static tl_audio_result tl__audio_fail(tl_audio *a, tl_audio_result result) {
    a->last = result;
    return result;
}

/* The backend's reason for the load that just failed. */
static const char *tl__audio_load_error(const tl_audio *a) {
    const char *reason = a->backend.load_error ? a->backend.load_error(a->backend.ctx) : NULL;
    return reason && *reason ? reason : "no reason given";
}

/* The clip's backend data, loading it from the clip source the first time. */
static tl_audio_result tl__audio_clip_data(tl_audio *a, uint32_t id, void **data) {
    tl__audio_clip *row = tl__audio_clip_find(a, id);
    const void *bytes = NULL;
    size_t size = 0;
    *data = NULL;
    if (row) {
        *data = row->data;
        return TL_AUDIO_OK;
    }
    if (!(row = tl__audio_clip_find(a, 0))) {
        tl__audio_log(&a->logger, TL_AUDIO_LOG_CLIPS_FULL, id, a->clip_cap);
        return tl__audio_fail(a, TL_AUDIO_CLIPS_FULL);
    }
    if (!a->source.bytes || !a->source.bytes(a->source.ctx, id, &bytes, &size) || !bytes) {
        if (a->failed_clip != id) tl__audio_log(&a->logger, TL_AUDIO_LOG_NO_CLIP, id);
        a->failed_clip = id;
        return tl__audio_fail(a, TL_AUDIO_NO_CLIP);
    }
    row->data = a->backend.load ? a->backend.load(a->backend.ctx, id, bytes, size) : (void *)row;
    if (!row->data && a->failed_clip != id) /* the reason first: the release may overwrite it */
        tl__audio_log(&a->logger, TL_AUDIO_LOG_LOAD_FAILED, id, (unsigned long)size,
                      tl__audio_load_error(a));
    if (a->source.release) a->source.release(a->source.ctx, id);
    if (!row->data) {
        a->failed_clip =
            id; /* (a scenario asking for it each frame is told each time, logged once) */
        return tl__audio_fail(a, TL_AUDIO_LOAD_FAILED);
    }
    if (a->failed_clip == id) a->failed_clip = 0;
    row->id = id;
    *data = row->data;
    return TL_AUDIO_OK;
}

/* --- voices ---------------------------------------------------------------------------------------- */

static void tl__audio_send_play(tl_audio *a, uint32_t v, void *data, bool loop) {
    tl__audio_voice *voice = &a->voices[v];
    voice->started = ++a->plays;
    if (a->backend.play) a->backend.play(a->backend.ctx, v, data, loop, voice->gain, voice->pan);
}

static void tl__audio_send_gain(tl_audio *a, uint32_t v, tl_fp gain, tl_fp pan) {
    tl__audio_voice *voice = &a->voices[v];
    if (voice->gain.raw == gain.raw && voice->pan.raw == pan.raw) return;
    voice->gain = gain;
    voice->pan = pan;
    a->gain_changes++;
    if (a->backend.set_gain) a->backend.set_gain(a->backend.ctx, v, gain, pan);
}

/* Stops a voice and, unless it is a track's (those are fixed), gives it back. */
static void tl__audio_voice_stop(tl_audio *a, uint32_t v) {
    tl__audio_voice *voice = &a->voices[v];
    if (voice->kind == TL__AUDIO_VOICE_FREE) return;
    if (a->backend.stop) a->backend.stop(a->backend.ctx, v);
    voice->gen++;
    voice->clip = 0;
    if (voice->kind == TL__AUDIO_VOICE_OBJECT) a->objects[voice->owner].voice = TL__AUDIO_NONE;
    if (voice->kind == TL__AUDIO_VOICE_TRACK) return;
    voice->kind = TL__AUDIO_VOICE_FREE;
    a->free_voices[a->free_count++] = v;
}

/* A free shared voice, or the oldest effect's when `steal`; TL__AUDIO_NONE when none. */
static uint32_t tl__audio_voice_take(tl_audio *a, bool steal) {
    uint32_t v, oldest = TL__AUDIO_NONE;
    if (a->free_count) return a->free_voices[--a->free_count];
    if (!steal) return TL__AUDIO_NONE;
    for (v = TL__AUDIO_TRACK_VOICES; v < a->voice_count; v++)
        if (a->voices[v].kind == TL__AUDIO_VOICE_EFFECT &&
            (oldest == TL__AUDIO_NONE || a->voices[v].started < a->voices[oldest].started))
            oldest = v;
    if (oldest == TL__AUDIO_NONE) return TL__AUDIO_NONE;
    tl__audio_voice_stop(a, oldest);
    return a->free_voices[--a->free_count];
}

/* --- tracks ---------------------------------------------------------------------------------------- */

static void tl__audio_track_stop(tl_audio *a, tl__audio_track *t) {
    if (t->clip) tl__audio_voice_stop(a, t->voice);
    t->clip = 0;
    t->volume = TL_FP_ZERO;
    t->target = TL_FP_ZERO;
}

static void tl__audio_track_swap(tl_audio *a, tl_audio_bus bus) {
    tl__audio_track swap = a->tracks[bus][0];
    a->tracks[bus][0] = a->tracks[bus][1];
    a->tracks[bus][1] = swap;
}

/* One bus's part of a scenario transition (see SCENARIOS). */
static tl_audio_result tl__audio_track_to(tl_audio *a, tl_audio_bus bus, uint32_t clip,
                                          tl_fp volume) {
    tl__audio_track *cur = &a->tracks[bus][0], *fall = &a->tracks[bus][1];
    void *data = NULL;
    tl_audio_result result;
    volume = tl_fp_clamp01(volume);
    if (clip == cur->clip) {
        cur->target = clip ? volume : TL_FP_ZERO;
        return TL_AUDIO_OK;
    }
    if (clip && clip == fall->clip) { /* back to the falling one: it rises again */
        tl__audio_track_swap(a, bus);
    } else {
        if (clip && (result = tl__audio_clip_data(a, clip, &data)) != TL_AUDIO_OK) return result;
        tl__audio_track_stop(a, fall);
        tl__audio_track_swap(a, bus);
        if (clip) {
            tl__audio_voice *voice = &a->voices[cur->voice];
            cur->clip = voice->clip = clip;
            cur->volume = voice->gain = voice->pan = TL_FP_ZERO;
            tl__audio_send_play(a, cur->voice, data, true);
        }
    }
    cur->target = volume;
    fall->target = TL_FP_ZERO;
    return TL_AUDIO_OK;
}

static void tl__audio_tracks_update(tl_audio *a) {
    int bus, k;
    for (bus = TL_AUDIO_BUS_MUSIC; bus <= TL_AUDIO_BUS_ATMOS; bus++) {
        tl_fp scale = tl__audio_gain(tl__audio_gain(a->bus_max[bus], a->zone_attenuation),
                                     a->listener_volume);
        for (k = 0; k < 2; k++) {
            tl__audio_track *t = &a->tracks[bus][k];
            if (!t->clip) continue;
            t->volume = tl_fp_move_towards(t->volume, t->target, a->step);
            if (k == 1 && t->volume.raw == 0) {
                tl__audio_track_stop(a, t);
                continue;
            }
            tl__audio_send_gain(a, t->voice, tl__audio_gain(t->volume, scale), TL_FP_ZERO);
        }
    }
}

/* --- spatial objects --------------------------------------------------------------------------------- */

static tl__audio_obj *tl__audio_obj_get(tl_audio_object h, const char *what) {
    tl_audio *a = h.audio;
    if (!a || h.index >= a->object_high || !a->objects[h.index].live ||
        a->objects[h.index].gen != h.gen) {
        if (a) {
            tl__audio_log(&a->logger, TL_AUDIO_LOG_STALE_HANDLE, what);
            a->last = TL_AUDIO_STALE_HANDLE;
        }
        return NULL;
    }
    return &a->objects[h.index];
}

/* The linked object of o's level with o's name, or TL__AUDIO_NONE. */
static uint32_t tl__audio_name_taken(const tl_audio *a, const tl__audio_obj *o) {
    uint32_t i;
    const char *name = a->names[o - a->objects].text;
    if (!name[0]) return TL__AUDIO_NONE;
    for (i = 0; i < a->object_high; i++) {
        const tl__audio_obj *b = &a->objects[i];
        if (b->linked && b != o && b->level == o->level && b->name_hash == o->name_hash &&
            strcmp(a->names[i].text, name) == 0)
            return i;
    }
    return TL__AUDIO_NONE;
}

static void tl__audio_link(tl_audio *a, tl__audio_obj *o) {
    uint32_t other = tl__audio_name_taken(a, o);
    if (other != TL__AUDIO_NONE) {
        tl__audio_log(&a->logger, TL_AUDIO_LOG_DUPLICATE_NAME, a->names[o - a->objects].text,
                      (unsigned)(o - a->objects), o->level, other);
        return;
    }
    o->linked = true;
    a->linked_count++;
    if (o->zone) a->zone_count++;
}

static void tl__audio_unlink(tl_audio *a, tl__audio_obj *o) {
    if (!o->linked) return;
    if (o->voice != TL__AUDIO_NONE) tl__audio_voice_stop(a, o->voice);
    o->linked = false;
    o->gain = o->pan = TL_FP_ZERO;
    a->linked_count--;
    if (o->zone) a->zone_count--;
}

static bool tl__audio_level_linked(const tl_audio *a, uint32_t level) {
    return level == 0 || (a->has_presented && level == a->presented);
}

static void tl__audio_relink(tl_audio *a) {
    uint32_t i;
    for (i = 0; i < a->object_high; i++) tl__audio_unlink(a, &a->objects[i]);
    for (i = 0; i < a->object_high; i++)
        if (a->objects[i].live && tl__audio_level_linked(a, a->objects[i].level))
            tl__audio_link(a, &a->objects[i]);
}

/* Starts the object's loop on a free voice, if one is. */
static void tl__audio_obj_start(tl_audio *a, tl__audio_obj *o, uint32_t index) {
    void *data;
    uint32_t v;
    if (!o->clip || !a->free_count || tl__audio_clip_data(a, o->clip, &data) != TL_AUDIO_OK) return;
    v = tl__audio_voice_take(a, false);
    a->voices[v].kind = TL__AUDIO_VOICE_OBJECT;
    a->voices[v].owner = index;
    a->voices[v].clip = o->clip;
    a->voices[v].gain = o->gain;
    a->voices[v].pan = o->pan;
    o->voice = v;
    tl__audio_send_play(a, v, data, true);
}

/* Rolloff and pan (see SPATIAL OBJECTS AND ZONES); the zone's I x immersion into *strongest. */
static bool tl__audio_obj_place(tl_audio *a, tl__audio_obj *o, tl_fp *rolloff, tl_fp *strongest) {
    tl_fpv3 delta;
    tl_fp sq, d;
    *rolloff = o->flat ? TL_FP_ONE : TL_FP_ZERO;
    o->pan = TL_FP_ZERO;
    if (o->flat) return true;
    delta = tl_fpv3_sub(o->position, a->listener_position);
    if (tl__audio_outside_box(delta, o->max)) return false; /* most objects: no multiplication */
    sq = tl__audio_sq_distance(delta);
    if (tl_fp_ge(sq, o->max_sq)) return false;
    d = tl_fp_sqrt(sq);
    *rolloff = tl__audio_falloff(d, o->min, o->max, o->inv_span);
    o->pan = d.raw > 0 ? tl_fp_clamp(tl_fp_div(tl_fpv3_dot(delta, a->listener_right), d),
                                     tl_fp_neg(TL_FP_ONE), TL_FP_ONE)
                       : TL_FP_ZERO;
    if (o->zone) {
        tl_fp immersion = tl__audio_falloff(d, o->zone_radius, o->max, o->zone_inv_span);
        *strongest = tl_fp_max(*strongest, tl_fp_mul(o->influence, immersion));
    }
    return true;
}

static void tl__audio_objects_update(tl_audio *a) {
    tl_fp strongest = TL_FP_ZERO, rolloff;
    uint32_t i;
    for (i = 0; i < a->object_high; i++) {
        tl__audio_obj *o = &a->objects[i];
        bool in_range;
        if (!o->linked) continue;
        if (o->fading) {
            o->volume = tl_fp_move_towards(o->volume, o->target, a->step);
            o->fading = o->volume.raw != o->target.raw;
        }
        /* Silent and no voice to take: nothing to place (a zone is placed for its immersion). */
        if (o->voice == TL__AUDIO_NONE && !o->zone && (!o->clip || !a->free_count)) continue;
        in_range = tl__audio_obj_place(a, o, &rolloff, &strongest);
        o->gain =
            tl__audio_gain(tl__audio_gain(tl__audio_gain(o->volume, rolloff), a->bus_max[o->bus]),
                           a->listener_volume);
        if (!in_range) {
            if (o->voice != TL__AUDIO_NONE) tl__audio_voice_stop(a, o->voice);
        } else if (o->voice == TL__AUDIO_NONE) {
            tl__audio_obj_start(a, o, i);
        } else {
            tl__audio_send_gain(a, o->voice, o->gain, o->pan);
        }
    }
    a->zone_attenuation = tl_fp_sub(TL_FP_ONE, tl_fp_clamp01(strongest));
}

/* --- effects ----------------------------------------------------------------------------------------- */

static void tl__audio_effects_update(tl_audio *a) {
    tl_fp scale = tl__audio_gain(a->bus_max[TL_AUDIO_BUS_SFX], a->listener_volume);
    uint32_t v;
    for (v = TL__AUDIO_TRACK_VOICES; v < a->voice_count; v++) {
        tl__audio_voice *voice = &a->voices[v];
        if (voice->kind != TL__AUDIO_VOICE_EFFECT) continue;
        if (a->backend.is_playing && !a->backend.is_playing(a->backend.ctx, v)) {
            voice->kind = TL__AUDIO_VOICE_FREE; /* ended by itself: nothing to stop */
            voice->gen++;
            voice->clip = 0;
            a->free_voices[a->free_count++] = v;
            continue;
        }
        tl__audio_send_gain(a, v, tl__audio_gain(voice->volume, scale), TL_FP_ZERO);
    }
}

static tl_audio_voice tl__audio_play(tl_audio *a, uint32_t clip, tl_fp volume) {
    tl_audio_voice handle = { NULL, 0, 0 };
    void *data;
    uint32_t v;
    if (tl__audio_clip_data(a, clip, &data) != TL_AUDIO_OK) return handle;
    if ((v = tl__audio_voice_take(a, true)) == TL__AUDIO_NONE) {
        tl__audio_log(&a->logger, TL_AUDIO_LOG_NO_VOICE, clip, a->voice_count);
        a->last = TL_AUDIO_NO_VOICE;
        return handle;
    }
    a->voices[v].kind = TL__AUDIO_VOICE_EFFECT;
    a->voices[v].clip = clip;
    a->voices[v].volume = tl_fp_clamp01(volume);
    a->voices[v].gain = tl__audio_gain(
        tl__audio_gain(a->voices[v].volume, a->bus_max[TL_AUDIO_BUS_SFX]), a->listener_volume);
    a->voices[v].pan = TL_FP_ZERO;
    tl__audio_send_play(a, v, data, false);
    handle.audio = a;
    handle.index = v;
    handle.gen = a->voices[v].gen;
    a->last = TL_AUDIO_OK;
    return handle;
}

/* --- event listeners --------------------------------------------------------------------------------- */

static void tl__audio_on_presented(void *ctx, tl_level *level) {
    tl_audio *a = (tl_audio *)ctx;
    tl_audio_present_level(a, a->level_id(level));
}
/* An interface sound's listeners, one per parameter shape (tl_audio_ui_args). */
#define TL__AUDIO_UI_LISTENERS(name, sound) \
    static void tl__audio_ui_##name##_u32_u32(void *ctx, uint32_t a, uint32_t b) { \
        (void)a; \
        (void)b; \
        tl_audio_play_ui((tl_audio *)ctx, sound); \
    } \
    static void tl__audio_ui_##name##_u32(void *ctx, uint32_t a) { \
        (void)a; \
        tl_audio_play_ui((tl_audio *)ctx, sound); \
    } \
    static void tl__audio_ui_##name##_none(void *ctx) { \
        tl_audio_play_ui((tl_audio *)ctx, sound); \
    } \
    static void tl__audio_ui_##name##_pointer(void *ctx, void *p) { \
        (void)p; \
        tl_audio_play_ui((tl_audio *)ctx, sound); \
    }
TL__AUDIO_UI_LISTENERS(navigate, TL_AUDIO_UI_NAVIGATE)
TL__AUDIO_UI_LISTENERS(confirm, TL_AUDIO_UI_CONFIRM)
TL__AUDIO_UI_LISTENERS(cancel, TL_AUDIO_UI_CANCEL)
#undef TL__AUDIO_UI_LISTENERS

/* The listener and signature id of interface sound k's event. */
static void tl__audio_ui_listener(const tl_audio *a, uint32_t k, tl_events_fn *fn,
                                  uint32_t *signature) {
    static const tl_audio_ui_args native[TL_AUDIO_UI_COUNT] = { TL_AUDIO_UI_ARGS_U32_U32,
                                                                TL_AUDIO_UI_ARGS_U32_U32,
                                                                TL_AUDIO_UI_ARGS_U32 };
    static const uint32_t signatures[5] = { 0, TL_AUDIO_SIG_U32_U32, TL_AUDIO_SIG_U32,
                                            TL_AUDIO_SIG_NONE, 0 };
    const tl_events_fn fns[TL_AUDIO_UI_COUNT][5] = {
        { NULL, TL_EVENTS_FN(tl__audio_ui_navigate_u32_u32),
          TL_EVENTS_FN(tl__audio_ui_navigate_u32), TL_EVENTS_FN(tl__audio_ui_navigate_none),
          TL_EVENTS_FN(tl__audio_ui_navigate_pointer) },
        { NULL, TL_EVENTS_FN(tl__audio_ui_confirm_u32_u32), TL_EVENTS_FN(tl__audio_ui_confirm_u32),
          TL_EVENTS_FN(tl__audio_ui_confirm_none), TL_EVENTS_FN(tl__audio_ui_confirm_pointer) },
        { NULL, TL_EVENTS_FN(tl__audio_ui_cancel_u32_u32), TL_EVENTS_FN(tl__audio_ui_cancel_u32),
          TL_EVENTS_FN(tl__audio_ui_cancel_none), TL_EVENTS_FN(tl__audio_ui_cancel_pointer) }
    };
    tl_audio_ui_args args = a->ui.args[k] == TL_AUDIO_UI_ARGS_NATIVE ? native[k] : a->ui.args[k];
    *fn = fns[k][args];
    *signature = args == TL_AUDIO_UI_ARGS_POINTER ? a->ui.pointer_signature : signatures[args];
}

typedef struct tl__audio_subscription {
    uint32_t event, signature, flags;
    tl_events_fn fn;
} tl__audio_subscription;

/* The subscriptions the desc asks for; their count. */
static uint32_t tl__audio_subscriptions(const tl_audio *a, tl__audio_subscription *out) {
    uint32_t n = 0, k;
    if (!a->registry) return 0;
    if (a->level_id) {
        tl__audio_subscription s = { a->events.scene_presented, TL_AUDIO_SIG_LEVEL, 0,
                                     TL_EVENTS_FN(tl__audio_on_presented) };
        out[n++] = s;
    }
    if (a->fader.provide) {
        tl__audio_subscription d = { a->events.display_fader, TL_AUDIO_SIG_PROVIDER,
                                     TL_EVENTS_SINGLE_PROVIDER,
                                     TL_EVENTS_FN(tl_audio_display_fader) };
        tl__audio_subscription h = { a->events.hide_fader, TL_AUDIO_SIG_PROVIDER,
                                     TL_EVENTS_SINGLE_PROVIDER, TL_EVENTS_FN(tl_audio_hide_fader) };
        out[n++] = d;
        out[n++] = h;
    }
    for (k = 0; k < TL_AUDIO_UI_COUNT; k++) {
        if (!a->ui.events[k]) continue;
        out[n].event = a->ui.events[k];
        out[n].flags = 0;
        tl__audio_ui_listener(a, k, &out[n].fn, &out[n].signature);
        n++;
    }
    return n;
}

static bool tl__audio_subscribe(tl_audio *a) {
    tl__audio_subscription subs[3 + TL_AUDIO_UI_COUNT];
    uint32_t n = tl__audio_subscriptions(a, subs), i;
    for (i = 0; i < n; i++) {
        if (tl_events_subscribe(a->registry, subs[i].event, subs[i].signature, subs[i].flags,
                                subs[i].fn, a) == TL_EVENTS_OK)
            continue;
        tl__audio_log(&a->logger, TL_AUDIO_LOG_SUBSCRIBE_FAILED, subs[i].event,
                      "see the Events line above");
        while (i-- > 0) tl_events_unsubscribe(a->registry, subs[i].event, subs[i].fn, a);
        return false;
    }
    return true;
}

static void tl__audio_unsubscribe(tl_audio *a) {
    tl__audio_subscription subs[3 + TL_AUDIO_UI_COUNT];
    uint32_t n = tl__audio_subscriptions(a, subs), i;
    for (i = 0; i < n; i++) tl_events_unsubscribe(a->registry, subs[i].event, subs[i].fn, a);
}

/* --- creation ---------------------------------------------------------------------------------------- */

static void tl__audio_free(tl_audio *a) {
    TL_FREE(a->voices);
    TL_FREE(a->free_voices);
    TL_FREE(a->objects);
    TL_FREE(a->names);
    TL_FREE(a->clips);
    TL_FREE(a->levels);
    TL_FREE(a);
}

/* The desc's defaults, applied in one place (see tl_audio_desc). */
static void tl__audio_defaults(tl_audio *a, const tl_audio_desc *desc) {
    static const tl_audio_events native = TL_AUDIO_EVENTS_NATIVE;
    int bus;
    a->backend = desc->backend;
    a->source = desc->clips;
    a->registry = desc->registry;
    a->events = desc->events ? *desc->events : native;
    if (!desc->events && !tl_events_natives_declared(a->registry, 11u, 17u, "Audio"))
        a->registry = NULL;
    if (desc->logger) a->logger = *desc->logger;
    a->level_id = desc->level_id;
    a->ui = desc->ui;
    a->fader = desc->fader;
    a->fade_speed = desc->fade_speed.raw > 0 ? desc->fade_speed : TL_FP_ONE;
    a->voice_count = desc->voices ? desc->voices : 32u;
    a->object_cap = desc->max_objects ? desc->max_objects : 256u;
    a->clip_cap = desc->max_clips ? desc->max_clips : 64u;
    a->level_cap = desc->max_levels ? desc->max_levels : 64u;
    a->listener_volume = a->listener_target = a->listener_restore = TL_FP_ONE;
    for (bus = 0; bus < TL_AUDIO_BUS_COUNT; bus++) a->bus_max[bus] = a->bus_target[bus] = TL_FP_ONE;
    a->zone_attenuation = TL_FP_ONE;
    a->listener_right = tl_fpv3_right();
}

static void *tl__audio_alloc(size_t count, size_t size) {
    void *p = TL_MALLOC(count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

static bool tl__audio_allocate(tl_audio *a) {
    uint32_t v, bus;
    a->voices = (tl__audio_voice *)tl__audio_alloc(a->voice_count, sizeof *a->voices);
    a->free_voices = (uint32_t *)tl__audio_alloc(a->voice_count, sizeof *a->free_voices);
    a->objects = (tl__audio_obj *)tl__audio_alloc(a->object_cap, sizeof *a->objects);
    a->names = (tl__audio_name *)tl__audio_alloc(a->object_cap, sizeof *a->names);
    a->clips = (tl__audio_clip *)tl__audio_alloc(a->clip_cap, sizeof *a->clips);
    a->levels = (tl__audio_level *)tl__audio_alloc(a->level_cap, sizeof *a->levels);
    if (!a->voices || !a->free_voices || !a->objects || !a->names || !a->clips || !a->levels)
        return false;
    for (v = 0; v < TL__AUDIO_TRACK_VOICES; v++) a->voices[v].kind = TL__AUDIO_VOICE_TRACK;
    for (bus = TL_AUDIO_BUS_MUSIC; bus <= TL_AUDIO_BUS_ATMOS; bus++) {
        a->tracks[bus][0].voice = (bus - 1u) * 2u;
        a->tracks[bus][1].voice = (bus - 1u) * 2u + 1u;
    }
    for (v = a->voice_count; v-- > TL__AUDIO_TRACK_VOICES;) a->free_voices[a->free_count++] = v;
    return true;
}

/* Whether every interface sound's event parameters are a known shape. */
static bool tl__audio_ui_args_valid(const tl_audio_ui_desc *ui) {
    int k;
    for (k = 0; k < TL_AUDIO_UI_COUNT; k++) {
        if ((unsigned)ui->args[k] > (unsigned)TL_AUDIO_UI_ARGS_POINTER) return false;
        if (ui->events[k] && ui->args[k] == TL_AUDIO_UI_ARGS_POINTER && !ui->pointer_signature)
            return false;
    }
    return true;
}

/* Whether the desc asks for subscriptions (then it needs a registry). */
static bool tl__audio_wants_events(const tl_audio_desc *desc) {
    int k;
    bool ui = false;
    for (k = 0; k < TL_AUDIO_UI_COUNT; k++) ui = ui || desc->ui.events[k] != 0;
    return desc->level_id || desc->fader.provide || ui;
}

tl_audio *tl_audio_create(const tl_audio_desc *desc) {
    tl_audio *a;
    if (!desc || (desc->voices && desc->voices <= TL__AUDIO_TRACK_VOICES) ||
        (!desc->registry && tl__audio_wants_events(desc)) || !tl__audio_ui_args_valid(&desc->ui)) {
        tl__audio_log(desc ? desc->logger : NULL, TL_AUDIO_LOG_INVALID_ARGUMENT, "tl_audio_create");
        return NULL;
    }
    if (!(a = (tl_audio *)tl__audio_alloc(1, sizeof *a))) {
        tl__audio_log(desc->logger, TL_AUDIO_LOG_OUT_OF_MEMORY, "tl_audio_create");
        return NULL;
    }
    tl__audio_defaults(a, desc);
    if (!tl__audio_allocate(a)) {
        tl__audio_log(&a->logger, TL_AUDIO_LOG_OUT_OF_MEMORY, "tl_audio_create");
        tl__audio_free(a);
        return NULL;
    }
    if (!tl__audio_subscribe(a)) {
        tl__audio_free(a);
        return NULL;
    }
    return a;
}

void tl_audio_destroy(tl_audio *a) {
    uint32_t v, i;
    if (!a) return;
    tl__audio_unsubscribe(a);
    for (v = 0; v < a->voice_count; v++)
        if (a->voices[v].clip) tl__audio_voice_stop(a, v);
    for (i = 0; i < a->clip_cap; i++)
        if (a->clips[i].id && a->backend.unload)
            a->backend.unload(a->backend.ctx, a->clips[i].data);
    tl__audio_free(a);
}

tl_audio_result tl_audio_last_result(const tl_audio *a) {
    return a ? a->last : TL_AUDIO_INVALID_ARGUMENT;
}

/* --- the update -------------------------------------------------------------------------------------- */

static void tl__audio_fades_update(tl_audio *a) {
    int bus;
    a->listener_volume = tl_fp_move_towards(a->listener_volume, a->listener_target, a->step);
    for (bus = 0; bus < TL_AUDIO_BUS_COUNT; bus++)
        a->bus_max[bus] = tl_fp_move_towards(a->bus_max[bus], a->bus_target[bus], a->step);
}

void tl_audio_update(tl_audio *a, double seconds) {
    if (!a) return;
    a->dt = seconds > 0 ? tl_fp_from_double(seconds) : TL_FP_ZERO;
    a->step = tl_fp_mul(a->fade_speed, a->dt);
    a->gain_changes = 0;
    tl__audio_fades_update(a);
    tl__audio_objects_update(a); /* before the tracks: it measures the zones */
    tl__audio_tracks_update(a);
    tl__audio_effects_update(a);
    if (a->backend.commit) a->backend.commit(a->backend.ctx);
}

void tl_audio_on_update(void *audio, float seconds) {
    tl_audio_update((tl_audio *)audio, (double)seconds);
}

/* --- clips ------------------------------------------------------------------------------------------- */

tl_audio_result tl_audio_preload(tl_audio *a, uint32_t clip) {
    void *data;
    if (!a || !clip) {
        if (a) tl__audio_log(&a->logger, TL_AUDIO_LOG_INVALID_ARGUMENT, "tl_audio_preload");
        return TL_AUDIO_INVALID_ARGUMENT;
    }
    return tl__audio_clip_data(a, clip, &data);
}

void tl_audio_unload(tl_audio *a, uint32_t clip) {
    tl__audio_clip *row;
    uint32_t v;
    int bus, k;
    if (!a || !clip || !(row = tl__audio_clip_find(a, clip))) return;
    for (bus = TL_AUDIO_BUS_MUSIC; bus <= TL_AUDIO_BUS_ATMOS; bus++)
        for (k = 0; k < 2; k++)
            if (a->tracks[bus][k].clip == clip) tl__audio_track_stop(a, &a->tracks[bus][k]);
    for (v = TL__AUDIO_TRACK_VOICES; v < a->voice_count; v++)
        if (a->voices[v].clip == clip) tl__audio_voice_stop(a, v);
    if (a->backend.unload) a->backend.unload(a->backend.ctx, row->data);
    row->id = 0;
    row->data = NULL;
}

bool tl_audio_is_loaded(const tl_audio *a, uint32_t clip) {
    return a && clip && tl__audio_clip_find(a, clip) != NULL;
}

/* --- volumes ----------------------------------------------------------------------------------------- */

void tl_audio_set_fade_speed(tl_audio *a, tl_fp speed) {
    if (a && speed.raw > 0) a->fade_speed = speed;
}
void tl_audio_set_bus_max(tl_audio *a, tl_audio_bus bus, tl_fp volume) {
    if (!a) return;
    if ((unsigned)bus >= (unsigned)TL_AUDIO_BUS_COUNT) {
        tl__audio_log(&a->logger, TL_AUDIO_LOG_INVALID_ARGUMENT, "tl_audio_set_bus_max");
        return;
    }
    a->bus_target[bus] = tl_fp_clamp01(volume);
}
void tl_audio_set_global_volumes_max(tl_audio *a, tl_fp music, tl_fp atmos) {
    tl_audio_set_bus_max(a, TL_AUDIO_BUS_MUSIC, music);
    tl_audio_set_bus_max(a, TL_AUDIO_BUS_ATMOS, atmos);
}
tl_fp tl_audio_bus_max(const tl_audio *a, tl_audio_bus bus) {
    return a && (unsigned)bus < (unsigned)TL_AUDIO_BUS_COUNT ? a->bus_max[bus] : TL_FP_ZERO;
}
bool tl_audio_fade_listener_volume(tl_audio *a, tl_fp target) {
    if (!a) return true;
    a->listener_target = tl_fp_clamp01(target);
    return a->listener_volume.raw == a->listener_target.raw;
}
tl_fp tl_audio_listener_volume(const tl_audio *a) { return a ? a->listener_volume : TL_FP_ZERO; }
tl_fp tl_audio_zone_attenuation(const tl_audio *a) { return a ? a->zone_attenuation : TL_FP_ONE; }

/* --- scenarios --------------------------------------------------------------------------------------- */

tl_audio_result tl_audio_transition_to_scenario(tl_audio *a, const tl_audio_scenario *s) {
    tl_audio_result music, atmos;
    if (!a || !s) {
        if (a)
            tl__audio_log(&a->logger, TL_AUDIO_LOG_INVALID_ARGUMENT,
                          "tl_audio_transition_to_scenario");
        return TL_AUDIO_INVALID_ARGUMENT;
    }
    music = tl__audio_track_to(a, TL_AUDIO_BUS_MUSIC, s->music, s->music_volume);
    atmos = tl__audio_track_to(a, TL_AUDIO_BUS_ATMOS, s->atmos, s->atmos_volume);
    return music != TL_AUDIO_OK ? music : atmos;
}

bool tl_audio_scenario_settled(const tl_audio *a) {
    int bus;
    if (!a) return true;
    for (bus = TL_AUDIO_BUS_MUSIC; bus <= TL_AUDIO_BUS_ATMOS; bus++)
        if (a->tracks[bus][1].clip || a->tracks[bus][0].volume.raw != a->tracks[bus][0].target.raw)
            return false;
    return true;
}

tl_audio_scenario tl_audio_current_scenario(const tl_audio *a) {
    tl_audio_scenario s;
    memset(&s, 0, sizeof s);
    if (!a) return s;
    s.music = a->tracks[TL_AUDIO_BUS_MUSIC][0].clip;
    s.atmos = a->tracks[TL_AUDIO_BUS_ATMOS][0].clip;
    s.music_volume = a->tracks[TL_AUDIO_BUS_MUSIC][0].target;
    s.atmos_volume = a->tracks[TL_AUDIO_BUS_ATMOS][0].target;
    return s;
}

static tl__audio_level *tl__audio_level_find(tl_audio *a, uint32_t level) {
    uint32_t i;
    for (i = 0; i < a->level_count; i++)
        if (a->levels[i].level == level) return &a->levels[i];
    return NULL;
}

tl_audio_result tl_audio_set_level_scenario(tl_audio *a, uint32_t level,
                                            const tl_audio_scenario *s) {
    tl__audio_level *row;
    if (!a || !s) {
        if (a)
            tl__audio_log(&a->logger, TL_AUDIO_LOG_INVALID_ARGUMENT, "tl_audio_set_level_scenario");
        return TL_AUDIO_INVALID_ARGUMENT;
    }
    if (!(row = tl__audio_level_find(a, level))) {
        if (a->level_count == a->level_cap) {
            tl__audio_log(&a->logger, TL_AUDIO_LOG_LEVELS_FULL, level, a->level_cap);
            return TL_AUDIO_LEVELS_FULL;
        }
        row = &a->levels[a->level_count++];
        row->level = level;
    }
    row->scenario = *s;
    return TL_AUDIO_OK;
}

void tl_audio_present_level(tl_audio *a, uint32_t level) {
    tl__audio_level *row;
    if (!a) return;
    a->presented = level;
    a->has_presented = true;
    tl__audio_relink(a);
    if ((row = tl__audio_level_find(a, level)) != NULL)
        tl_audio_transition_to_scenario(a, &row->scenario);
}

bool tl_audio_presented_level(const tl_audio *a, uint32_t *level) {
    if (level) *level = a && a->has_presented ? a->presented : 0;
    return a && a->has_presented;
}

/* --- the listener ------------------------------------------------------------------------------------ */

void tl_audio_drive_listener(tl_audio *a, tl_fpv3 position, const tl_fpquat *rotation) {
    if (!a) return;
    a->listener_position = position;
    if (rotation) a->listener_right = tl_fpquat_rotate(*rotation, tl_fpv3_right());
}
tl_fpv3 tl_audio_listener_position(const tl_audio *a) {
    return a ? a->listener_position : tl_fpv3_zero();
}

/* --- spatial objects: the API ------------------------------------------------------------------------- */

static void tl__audio_obj_fill(tl__audio_obj *o, tl__audio_name *name,
                               const tl_audio_object_desc *d) {
    size_t len = d->name ? strlen(d->name) : 0;
    if (len >= TL__AUDIO_NAME_MAX) len = TL__AUDIO_NAME_MAX - 1;
    memcpy(name->text, d->name ? d->name : "", len);
    name->text[len] = '\0';
    o->name_hash = tl_hash32(name->text, len, 0);
    o->level = d->level;
    o->clip = d->clip;
    o->bus = (unsigned)d->bus < (unsigned)TL_AUDIO_BUS_COUNT ? d->bus : TL_AUDIO_BUS_SFX;
    o->position = d->position;
    o->volume = o->target = d->volume.raw ? tl_fp_clamp01(d->volume) : TL_FP_ONE;
    o->min = d->min_distance.raw > 0 ? d->min_distance : TL_FP_ONE;
    o->max = d->max_distance.raw > 0 ? d->max_distance : tl_fp_from_int(10);
    o->max_sq = tl_fp_mul(o->max, o->max);
    o->inv_span = tl__audio_inverse_span(o->min, o->max);
    o->flat = d->flat;
    o->zone = d->zone;
    o->influence = tl_fp_clamp01(d->influence);
    o->zone_radius = tl_fp_mul(tl_fp_clamp01(d->radius_coefficient), o->max);
    o->zone_inv_span = tl__audio_inverse_span(o->zone_radius, o->max);
    o->voice = TL__AUDIO_NONE;
}

static uint32_t tl__audio_obj_slot(tl_audio *a) {
    uint32_t i;
    for (i = 0; i < a->object_high; i++)
        if (!a->objects[i].live) return i;
    return a->object_high < a->object_cap ? a->object_high++ : TL__AUDIO_NONE;
}

tl_audio_object tl_audio_object_create(tl_audio *a, const tl_audio_object_desc *desc) {
    tl_audio_object h = { NULL, 0, 0 };
    tl__audio_obj *o;
    uint32_t slot, gen;
    void *data;
    if (!a || !desc) {
        if (a) tl__audio_log(&a->logger, TL_AUDIO_LOG_INVALID_ARGUMENT, "tl_audio_object_create");
        if (a) a->last = TL_AUDIO_INVALID_ARGUMENT;
        return h;
    }
    if (desc->clip && tl__audio_clip_data(a, desc->clip, &data) != TL_AUDIO_OK) return h;
    if ((slot = tl__audio_obj_slot(a)) == TL__AUDIO_NONE) {
        tl__audio_log(&a->logger, TL_AUDIO_LOG_OBJECTS_FULL, desc->name ? desc->name : "",
                      a->object_cap);
        a->last = TL_AUDIO_OBJECTS_FULL;
        return h;
    }
    o = &a->objects[slot];
    gen = o->gen + 1u;
    memset(o, 0, sizeof *o);
    tl__audio_obj_fill(o, &a->names[slot], desc);
    o->gen = gen;
    o->live = true;
    a->object_count++;
    if (tl__audio_level_linked(a, o->level)) tl__audio_link(a, o);
    h.audio = a;
    h.index = slot;
    h.gen = gen;
    a->last = TL_AUDIO_OK;
    return h;
}

void tl_audio_object_discard(tl_audio_object h) {
    tl__audio_obj *o = tl__audio_obj_get(h, "tl_audio_object_discard");
    if (!o) return;
    tl__audio_unlink(h.audio, o);
    o->live = false;
    h.audio->object_count--;
    while (h.audio->object_high && !h.audio->objects[h.audio->object_high - 1u].live)
        h.audio->object_high--;
}

bool tl_audio_object_valid(tl_audio_object h) {
    return h.audio && h.index < h.audio->object_high && h.audio->objects[h.index].live &&
           h.audio->objects[h.index].gen == h.gen;
}
bool tl_audio_object_linked(tl_audio_object h) {
    return tl_audio_object_valid(h) && h.audio->objects[h.index].linked;
}

tl_audio_result tl_audio_object_move(tl_audio_object h, tl_fpv3 position) {
    tl__audio_obj *o = tl__audio_obj_get(h, "tl_audio_object_move");
    if (!o) return TL_AUDIO_STALE_HANDLE;
    o->position = position;
    return TL_AUDIO_OK;
}

tl_audio_result tl_audio_set_source_volume(tl_audio_object h, tl_fp volume) {
    tl__audio_obj *o = tl__audio_obj_get(h, "tl_audio_set_source_volume");
    if (!o) return TL_AUDIO_STALE_HANDLE;
    o->volume = o->target = tl_fp_clamp01(volume);
    o->fading = false;
    return TL_AUDIO_OK;
}

bool tl_audio_fade_source_volume(tl_audio_object h, tl_fp target) {
    tl__audio_obj *o = tl__audio_obj_get(h, "tl_audio_fade_source_volume");
    if (!o) return true;
    o->target = tl_fp_clamp01(target);
    o->fading = o->volume.raw != o->target.raw;
    return !o->fading;
}

tl_fp tl_audio_move_towards_volume(tl_audio_object h, tl_fp target) {
    tl__audio_obj *o = tl__audio_obj_get(h, "tl_audio_move_towards_volume");
    if (!o) return TL_FP_ZERO;
    o->volume = o->target = tl_fp_move_towards(o->volume, tl_fp_clamp01(target), h.audio->step);
    o->fading = false;
    return o->volume;
}

tl_fp tl_audio_source_volume(tl_audio_object h) {
    return tl_audio_object_valid(h) ? h.audio->objects[h.index].volume : TL_FP_ZERO;
}
tl_fp tl_audio_object_gain(tl_audio_object h) {
    const tl__audio_obj *o;
    if (!tl_audio_object_valid(h)) return TL_FP_ZERO;
    o = &h.audio->objects[h.index];
    return o->voice != TL__AUDIO_NONE ? h.audio->voices[o->voice].gain : TL_FP_ZERO;
}

/* --- effects: the API ---------------------------------------------------------------------------------- */

tl_audio_voice tl_audio_play(tl_audio *a, uint32_t clip, tl_fp volume) {
    tl_audio_voice none = { NULL, 0, 0 };
    if (!a || !clip) {
        if (a) tl__audio_log(&a->logger, TL_AUDIO_LOG_INVALID_ARGUMENT, "tl_audio_play");
        if (a) a->last = TL_AUDIO_INVALID_ARGUMENT;
        return none;
    }
    return tl__audio_play(a, clip, volume);
}

static bool tl__audio_voice_live(tl_audio_voice h) {
    return h.audio && h.index >= TL__AUDIO_TRACK_VOICES && h.index < h.audio->voice_count &&
           h.audio->voices[h.index].kind == TL__AUDIO_VOICE_EFFECT &&
           h.audio->voices[h.index].gen == h.gen;
}
void tl_audio_stop(tl_audio_voice h) {
    if (tl__audio_voice_live(h)) tl__audio_voice_stop(h.audio, h.index);
}
bool tl_audio_voice_playing(tl_audio_voice h) { return tl__audio_voice_live(h); }

tl_audio_voice tl_audio_play_ui(tl_audio *a, tl_audio_ui_sound sound) {
    tl_audio_voice none = { NULL, 0, 0 };
    if (!a || (unsigned)sound >= (unsigned)TL_AUDIO_UI_COUNT || !a->ui.clips[sound]) return none;
    return tl__audio_play(a, a->ui.clips[sound], TL_FP_ONE);
}

/* --- the transition's providers ------------------------------------------------------------------------ */

/* One poll of the game's own provider, until it has answered true once. */
static bool tl__audio_poll_game(tl_audio_provider_fn fn, void *ctx, tl_levels *levels, bool *done) {
    if (!*done) *done = !fn || fn(ctx, levels);
    return *done;
}

bool tl_audio_display_fader(void *audio, tl_levels *levels) {
    tl_audio *a = (tl_audio *)audio;
    bool heard, seen;
    if (!a) return true;
    if (!a->fader_out) {
        a->listener_restore = a->listener_target;
        a->fader_out = true;
        a->hide_done = false;
    }
    heard = tl_audio_fade_listener_volume(a, TL_FP_ZERO);
    seen = tl__audio_poll_game(a->fader.display, a->fader.ctx, levels, &a->display_done);
    return heard && seen;
}

bool tl_audio_hide_fader(void *audio, tl_levels *levels) {
    tl_audio *a = (tl_audio *)audio;
    bool heard, seen;
    if (!a) return true;
    a->fader_out = false;
    a->display_done = false;
    heard = tl_audio_fade_listener_volume(a, a->listener_restore);
    seen = tl__audio_poll_game(a->fader.hide, a->fader.ctx, levels, &a->hide_done);
    if (heard && seen) a->hide_done = false;
    return heard && seen;
}

tl_audio_stats tl_audio_get_stats(const tl_audio *a) {
    tl_audio_stats s;
    uint32_t v, i;
    memset(&s, 0, sizeof s);
    if (!a) return s;
    s.objects = a->object_count;
    s.linked = a->linked_count;
    s.zones = a->zone_count;
    for (v = 0; v < a->voice_count; v++) s.voices_busy += a->voices[v].clip != 0;
    for (i = 0; i < a->clip_cap; i++) s.clips += a->clips[i].id != 0;
    s.gain_changes = a->gain_changes;
    return s;
}

/* --- the null backend ------------------------------------------------------------------------------------ */

static void tl__audio_null_record(tl_audio_null *n, tl_audio_null_op op, uint32_t voice,
                                  uint32_t clip, bool loop, tl_fp gain, tl_fp pan) {
    tl_audio_null_command *c;
    if (n->count == n->capacity) {
        n->dropped++;
        return;
    }
    c = &n->commands[n->count++];
    c->op = op;
    c->frame = n->frame;
    c->voice = voice;
    c->clip = clip;
    c->loop = loop;
    c->gain = gain;
    c->pan = pan;
}

static void *tl__audio_null_load(void *ctx, uint32_t clip, const void *bytes, size_t size) {
    tl_audio_null *n = (tl_audio_null *)ctx;
    uint32_t i;
    (void)bytes;
    for (i = 0; i < TL_AUDIO_NULL_CLIPS; i++) {
        if (n->clip_ids[i]) continue;
        n->clip_ids[i] = clip;
        n->clip_sizes[i] = size;
        n->loads++;
        tl__audio_null_record(n, TL_AUDIO_NULL_LOAD, 0, clip, false, TL_FP_ZERO, TL_FP_ZERO);
        return &n->clip_ids[i];
    }
    return NULL;
}

static void tl__audio_null_unload(void *ctx, void *data) {
    tl_audio_null *n = (tl_audio_null *)ctx;
    uint32_t *row = (uint32_t *)data;
    n->unloads++;
    tl__audio_null_record(n, TL_AUDIO_NULL_UNLOAD, 0, *row, false, TL_FP_ZERO, TL_FP_ZERO);
    *row = 0;
}

static void tl__audio_null_play(void *ctx, uint32_t voice, void *data, bool loop, tl_fp gain,
                                tl_fp pan) {
    tl_audio_null *n = (tl_audio_null *)ctx;
    uint32_t clip = *(const uint32_t *)data;
    tl__audio_null_record(n, TL_AUDIO_NULL_PLAY, voice, clip, loop, gain, pan);
    if (voice >= TL_AUDIO_NULL_VOICES) return;
    n->voices[voice].clip = clip;
    n->voices[voice].playing = true;
    n->voices[voice].loop = loop;
    n->voices[voice].gain = gain;
    n->voices[voice].pan = pan;
}

static void tl__audio_null_stop(void *ctx, uint32_t voice) {
    tl_audio_null *n = (tl_audio_null *)ctx;
    uint32_t clip = voice < TL_AUDIO_NULL_VOICES ? n->voices[voice].clip : 0;
    tl__audio_null_record(n, TL_AUDIO_NULL_STOP, voice, clip, false, TL_FP_ZERO, TL_FP_ZERO);
    if (voice < TL_AUDIO_NULL_VOICES) n->voices[voice].playing = false;
}

static void tl__audio_null_gain(void *ctx, uint32_t voice, tl_fp gain, tl_fp pan) {
    tl_audio_null *n = (tl_audio_null *)ctx;
    uint32_t clip = voice < TL_AUDIO_NULL_VOICES ? n->voices[voice].clip : 0;
    tl__audio_null_record(n, TL_AUDIO_NULL_GAIN, voice, clip, false, gain, pan);
    if (voice >= TL_AUDIO_NULL_VOICES) return;
    n->voices[voice].gain = gain;
    n->voices[voice].pan = pan;
}

static bool tl__audio_null_playing(void *ctx, uint32_t voice) {
    const tl_audio_null *n = (const tl_audio_null *)ctx;
    return voice >= TL_AUDIO_NULL_VOICES || n->voices[voice].playing;
}

static void tl__audio_null_commit(void *ctx) { ((tl_audio_null *)ctx)->frame++; }

void tl_audio_null_init(tl_audio_null *n, tl_audio_null_command *commands, uint32_t capacity) {
    memset(n, 0, sizeof *n);
    n->commands = commands;
    n->capacity = commands ? capacity : 0;
}

tl_audio_backend tl_audio_null_backend(tl_audio_null *n) {
    tl_audio_backend b;
    b.ctx = n;
    b.load = tl__audio_null_load;
    b.unload = tl__audio_null_unload;
    b.play = tl__audio_null_play;
    b.stop = tl__audio_null_stop;
    b.set_gain = tl__audio_null_gain;
    b.is_playing = tl__audio_null_playing;
    b.commit = tl__audio_null_commit;
    return b;
}

void tl_audio_null_finish(tl_audio_null *n, uint32_t voice) {
    if (n && voice < TL_AUDIO_NULL_VOICES) n->voices[voice].playing = false;
}

int tl_audio_null_voice_of(const tl_audio_null *n, uint32_t clip) {
    int v;
    for (v = 0; v < TL_AUDIO_NULL_VOICES; v++)
        if (n->voices[v].playing && n->voices[v].clip == clip) return v;
    return -1;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_AUDIO_IMPL */
