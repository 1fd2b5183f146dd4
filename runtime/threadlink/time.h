/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/time.h -- the frame clock: delta times, fixed steps, pause, playtime (the seed's Chronos).

   WHAT
   ----
   A tl_time turns the game loop's frame times into the seed's time service: scaled and unscaled
   delta times (a time scale of exactly 0 or 1, pausing), a smoothed delta, fixed steps (a float
   step or an exact integer rate), playtime counting, and the update events, published through
   events.h's untyped core from the game's own loop: OnFixedUpdate per due step, OnUpdate,
   OnLateUpdate. It owns no thread and no clock: the game gives it each frame's time.

   INCLUDE
   -------
       #include <threadlink/time.h>
       #define TL_TIME_IMPL                 // in exactly one C or C++ file (or TL_IMPLEMENTATION)
       #include <threadlink/time.h>
   A service: it includes only the core (events.h, log.h). lifecycle.h does not own it; glue.h's
   tl_glue_weave_time weaves it into a lifecycle as its first native subsystem, so it is discarded
   last, as the seed's Chronos is.

   USE
   ---
       static const tl_time_events events = TL_TIME_EVENTS_INIT(Iris_Events_);  // generated enum
       tl_time_desc desc = {0};                 // zero: defaults (see tl_time_desc)
       desc.registry = &registry;               // where the update events are published
       desc.events = &events;
       desc.fixed_steps_per_second = 60;
       tl_time time;
       tl_time_init(&time, &desc);
       for (;;) tl_time_frame_ns(&time, nanoseconds_since_last_frame);  // fixed, update, late
       tl_time_discard(&time);

   NATIVE EVENTS (natives/Iris.Events.Native.txt, ordinals 1..8)
   -------------
       OnUpdate(float)                tl_time_publish_update: scaled delta time, seconds
       OnFixedUpdate(float)           tl_time_publish_fixed_update: the fixed delta, seconds
       OnLateUpdate(float)            tl_time_publish_late_update: scaled delta time, seconds
       OnPlaytimeCountTick(double)    tl_time_tick while counting: total playtime, seconds
       OnGamePauseRequested()         tl_time_request_pause (project code asks; a listener pauses)
       OnGameResumeRequested()        tl_time_request_resume
       OnGamePaused()                 tl_time_set_scale(t, 0) when the scale was 1
       OnGameResumed()                tl_time_set_scale(t, 1) when the scale was 0
   TL_TIME_EVENTS_INIT(Iris_Events_) builds tl_time_events from the generated enum; NULL events
   mean the native ordinals, provided the registry's table declares the natives there (every
   service checks: a project's own events at those ordinals turn its events off, with an error,
   events.h's tl_events_natives_declared).

   ERRORS
   ------
   tl_time_set_scale and tl_time_set_raw_scale return tl_time_result (TL_TIME_OK = 0,
   tl_time_result_message; docs/errors.md); a failure is logged once through desc.logger
   (TL_TIME_LOG_ITEMS). A desc value out of range is not a failure: logged, the default used.

   Main thread only, like the rest of the runtime.
*/
#if defined(TL_IMPLEMENTATION) && !defined(TL_TIME_IMPL)
#define TL_TIME_IMPL
#endif
#ifndef TL_TIME_H
#define TL_TIME_H

#include "api.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"
#include "log.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- native events ------------------------------------------------------------------------------ */

typedef struct tl_time_events {
    uint32_t update, fixed_update, late_update, playtime_count_tick;
    uint32_t game_pause_requested, game_resume_requested, game_paused, game_resumed;
} tl_time_events;

/* From a generated enum: TL_TIME_EVENTS_INIT(Iris_Events_) -> { Iris_Events_OnUpdate, ... }. */
#define TL_TIME_EVENTS_INIT(prefix) \
    { \
        prefix##OnUpdate, prefix##OnFixedUpdate, prefix##OnLateUpdate, \
            prefix##OnPlaytimeCountTick, prefix##OnGamePauseRequested, \
            prefix##OnGameResumeRequested, prefix##OnGamePaused, prefix##OnGameResumed \
    }
/* The native ordinals (the order of natives/Iris.Events.Native.txt): what NULL events mean. */
#define TL_TIME_EVENTS_NATIVE \
    { 1, 2, 3, 4, 5, 6, 7, 8 }

/* Signature ids of the native events (XXH32 of the normalised text, see events.h). */
#define TL_TIME_SIG_FLOAT 0x810d49fau  /* "(float)" */
#define TL_TIME_SIG_DOUBLE 0xc5c82766u /* "(double)" */
#define TL_TIME_SIG_VOID 0x12f682fdu   /* "()" */

/* Listener types of the native events, for code that subscribes through the untyped core. */
typedef void (*tl_time_float_fn)(void *ctx, float seconds);
typedef void (*tl_time_double_fn)(void *ctx, double seconds);
typedef void (*tl_time_void_fn)(void *ctx);

/* --- results and diagnostics -------------------------------------------------------------------- */

#define TL_TIME_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(SCALE, "time scale must be exactly 0 or 1")

typedef enum tl_time_result {
    TL_TIME_OK = 0,
#define TL__TIME_RESULT_ENUM(id, message) TL_TIME_##id,
    TL_TIME_RESULTS(TL__TIME_RESULT_ENUM)
#undef TL__TIME_RESULT_ENUM
        TL_TIME_RESULT_END_
} tl_time_result;

TL_API const char *tl_time_result_message(tl_time_result result);

#define TL_TIME_LOG_ITEMS(X) \
    X(SCALE, TL_LOG_LEVEL_ERROR, "time scale must be exactly 0 or 1, not %g") \
    X(DESC, TL_LOG_LEVEL_ERROR, "tl_time_desc.%s is %g, not %s: the default %g s is used") \
    X(FIXED_STEPS_DROPPED, TL_LOG_LEVEL_WARNING, \
      "frame %llu owed more than %u fixed steps: the rest (%g s) is dropped") \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: no time service")

#define TL_TIME_LOG_BASE 0x800u
typedef enum tl_time_log_item {
    TL_TIME_LOG_NONE_ = TL_TIME_LOG_BASE - 1,
#define TL__TIME_LOG_ENUM(id, level, message) TL_TIME_LOG_##id,
    TL_TIME_LOG_ITEMS(TL__TIME_LOG_ENUM) /* TL_TIME_LOG_<id>, one per row from the base */
#undef TL__TIME_LOG_ENUM
    TL_TIME_LOG_END_
} tl_time_log_item;

/* --- time service ------------------------------------------------------------------------------- */

typedef enum tl_time_playtime_mode {
    TL_TIME_PLAYTIME_SCALED = 0,
    TL_TIME_PLAYTIME_UNSCALED = 1
} tl_time_playtime_mode;

/* The smallest fixed step tl_time_desc accepts (10 kHz), and the most fixed steps one frame
   runs. With a valid desc a frame owes at most max_delta_time / fixed_delta_time + 1 steps; a
   frame owing more than TL_TIME_MAX_FIXED_STEPS (a max_delta_time over 10000 fixed steps, then
   a frame that long) runs that many, and the rest of its time is dropped with a warning, as
   max_delta_time drops the rest of a long frame. Both keep tl_time_fixed_steps bounded. */
#define TL_TIME_MIN_FIXED_DELTA 1e-4f
#define TL_TIME_MAX_FIXED_STEPS 10000u
/* The most fixed_steps_per_second accepted: the same 10 kHz. */
#define TL_TIME_MAX_STEPS_PER_SECOND 10000u

/* Zero-initialised: no events, stderr logging, fixed step 0.02 s (50 Hz), frames longer than
   0.25 s clamped to 0.25 s, playtime not counted, scaled playtime. */
typedef struct tl_time_desc {
    tl_events *registry;          /* NULL: nothing is published */
    const tl_time_events *events; /* NULL: native ordinals */
    const tl_logger *logger;      /* NULL: stderr */
    /* 0: 0.02. Otherwise finite and >= TL_TIME_MIN_FIXED_DELTA; anything else (negative, NaN,
       infinite, too small a step to advance the accumulator) is logged and 0.02 is used. */
    float fixed_delta_time;
    /* 0: the step is fixed_delta_time. Otherwise (at most TL_TIME_MAX_STEPS_PER_SECOND, else
       logged and fixed_delta_time is used) the step is exactly 1/fixed_steps_per_second s and
       fixed_delta_time is ignored: the accumulator counts whole nanoseconds times the rate, so
       the steps never drift from the time ticked (1/60 is no float; the float step ran a little
       slower than the clock, and a 20 Hz frame could owe two 60 Hz steps). Deterministic games
       step with this and count tl_time.fixed_step_count; OnFixedUpdate still publishes the step
       as a float (1.0f / rate). tl_time_tick_ns feeds exact nanoseconds. */
    uint32_t fixed_steps_per_second;
    /* 0: 0.25. Otherwise finite and > 0; anything else (negative, NaN, infinite: there is no
       "no clamp" value) is logged and 0.25 is used. */
    float max_delta_time;
    bool count_playtime;
    tl_time_playtime_mode playtime_mode;
} tl_time_desc;

/* Fields are read-only to users; change them through the functions. Delta times are cached once
   per tl_time_tick, so every listener of one frame sees the same values. */
typedef struct tl_time {
    tl_events *registry;
    tl_time_events events;
    tl_logger logger;
    float delta_time;          /* unscaled_delta_time * time_scale */
    float unscaled_delta_time; /* the frame's time, clamped to [0, max_delta_time] */
    float smooth_delta_time;   /* exponential average of delta_time (weight 0.2 per frame) */
    float fixed_delta_time; /* with fixed_steps_per_second: 1.0f / it, what OnFixedUpdate sends */
    float max_delta_time;
    float time_scale;                 /* exactly 0 or 1 */
    uint32_t fixed_steps_per_second;  /* 0: the step is fixed_delta_time (a float) */
    uint64_t fixed_accumulator_ticks; /* with a rate: scaled nanoseconds * rate not yet stepped */
    double fixed_excess; /* with a rate: seconds of the frame past the 10,000 s the ticks hold */
    uint64_t fixed_step_count; /* fixed steps handed out by tl_time_fixed_steps so far */
    double time_since_start;   /* unscaled seconds ticked */
    double total_playtime;
    double fixed_accumulator; /* scaled time not yet consumed by fixed steps */
    uint64_t frame;           /* ticks so far */
    bool count_playtime;
    bool running; /* false once discarded: every call is then a no-op */
    tl_time_playtime_mode playtime_mode;
} tl_time;

TL_API void tl_time_init(tl_time *time, const tl_time_desc *desc);
/* Starts a frame: caches the delta times for it, accumulates playtime and, while counting,
   publishes OnPlaytimeCountTick(total). */
TL_API void tl_time_tick(tl_time *time, double seconds);
/* tl_time_tick for a frame measured in nanoseconds: with fixed_steps_per_second, its steps are
   counted from the exact integer (tl_time_tick rounds its seconds to whole nanoseconds). */
TL_API void tl_time_tick_ns(tl_time *time, uint64_t nanoseconds);
/* The number of fixed steps due this frame (consumes them from the accumulator), at most
   TL_TIME_MAX_FIXED_STEPS: beyond it the accumulator is emptied and a warning logged. */
TL_API uint32_t tl_time_fixed_steps(tl_time *time);
TL_API void tl_time_publish_update(tl_time *time);
TL_API void tl_time_publish_fixed_update(tl_time *time);
TL_API void tl_time_publish_late_update(tl_time *time);
/* One whole frame: tick, OnFixedUpdate per due step, OnUpdate, OnLateUpdate. */
TL_API void tl_time_frame(tl_time *time, double seconds);
/* tl_time_frame of a frame measured in nanoseconds (tl_time_tick_ns). */
TL_API void tl_time_frame_ns(tl_time *time, uint64_t nanoseconds);
/* Accepts only 0 or 1 (else TL_TIME_SCALE, logged). A change publishes OnGamePaused (1 -> 0) or
   OnGameResumed (0 -> 1); the cached delta times change at the next tick. */
TL_API tl_time_result tl_time_set_scale(tl_time *time, float scale);
/* The same restriction, publishing nothing. */
TL_API tl_time_result tl_time_set_raw_scale(tl_time *time, float scale);
TL_API void tl_time_request_pause(tl_time *time);  /* publishes OnGamePauseRequested */
TL_API void tl_time_request_resume(tl_time *time); /* publishes OnGameResumeRequested */
TL_API void tl_time_set_playtime_counting(tl_time *time, bool count);
TL_API void tl_time_set_playtime_mode(tl_time *time, tl_time_playtime_mode mode);
TL_API void tl_time_clear_playtime(tl_time *time);
/* Frames per second of the last tick (1 / unscaled delta), 0 before the first. */
TL_API float tl_time_framerate(const tl_time *time);
/* Ends the service: every later call is a no-op (lifecycle.h's glue runs it at the discard of the
   time subsystem, glue.h). */
TL_API void tl_time_discard(tl_time *time);

#ifdef __cplusplus
}
#endif
#endif /* TL_TIME_H */

/* ------------------------------------------------------------------------------------------------ */
#if defined(TL_TIME_IMPL) && !defined(TL__TIME_IMPLEMENTED)
#define TL__TIME_IMPLEMENTED
#include <float.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

TL_LOG_TABLE_FN(tl__time_log, TL_TIME_LOG_ITEMS, TL_TIME_LOG_BASE, "Time")
TL_RESULT_MESSAGE_FN(tl_time_result_message, tl_time_result, TL_TIME_RESULTS)

static const tl_time_events tl__time_native_events = TL_TIME_EVENTS_NATIVE;

static void tl__time_publish_void(tl_events *registry, uint32_t event) {
    if (registry) TL_EVENTS_PUBLISH0(registry, event, TL_TIME_SIG_VOID, tl_time_void_fn);
}
static void tl__time_publish_float(tl_events *registry, uint32_t event, float value) {
    if (registry) TL_EVENTS_PUBLISH(registry, event, TL_TIME_SIG_FLOAT, tl_time_float_fn, value);
}
static void tl__time_publish_double(tl_events *registry, uint32_t event, double value) {
    if (registry) TL_EVENTS_PUBLISH(registry, event, TL_TIME_SIG_DOUBLE, tl_time_double_fn, value);
}

/* --- the service ------------------------------------------------------------------------------------------ */

/* a == b, written so -Wfloat-equal has nothing to say (the same result for every a and b, NaN and -0
   included): the scale and the desc durations are compared with exact values on purpose. */
static bool tl__time_same(float a, float b) { return a <= b && a >= b; }

/* A desc duration: 0 means the default; a positive value in [minimum, FLT_MAX] is kept; anything
   else (negative, NaN, infinite, below the minimum) is logged and replaced by the default.
   Written as comparisons that NaN fails, so no <math.h>. */
static float tl__time_desc_value(const tl_logger *logger, const char *field, float value,
                                 float minimum, const char *rule, float fallback) {
    if (tl__time_same(value, 0.0f)) return fallback;
    if (value > 0.0f && value >= minimum && value <= FLT_MAX) return value;
    tl__time_log(logger, TL_TIME_LOG_DESC, field, (double)value, rule, (double)fallback);
    return fallback;
}

/* fixed_steps_per_second: 0 keeps the float step; a rate above the maximum is logged and keeps
   it too. */
static void tl__time_set_rate(tl_time *time, uint32_t rate) {
    if (rate > TL_TIME_MAX_STEPS_PER_SECOND) {
        tl__time_log(&time->logger, TL_TIME_LOG_DESC, "fixed_steps_per_second", (double)rate,
                     "at most TL_TIME_MAX_STEPS_PER_SECOND (10000)",
                     (double)time->fixed_delta_time);
        return;
    }
    if (rate == 0) return;
    time->fixed_steps_per_second = rate;
    time->fixed_delta_time = 1.0f / (float)rate;
}

/* Whole nanoseconds of a clamped frame time (at most 10,000 s: a longer frame owes more than
   TL_TIME_MAX_FIXED_STEPS steps at any rate, so the rest is dropped either way). */
static uint64_t tl__time_ns(double seconds) {
    if (seconds > 1e4) seconds = 1e4;
    return (uint64_t)(seconds * 1e9 + 0.5);
}

void tl_time_init(tl_time *time, const tl_time_desc *desc) {
    tl_time_desc zero;
    if (!time) return;
    if (!desc) {
        memset(&zero, 0, sizeof zero);
        desc = &zero;
    }
    memset(time, 0, sizeof *time);
    time->registry = desc->registry;
    time->events = desc->events ? *desc->events : tl__time_native_events;
    if (!desc->events && !tl_events_natives_declared(time->registry, 1u, 8u, "Time"))
        time->registry = NULL;
    if (desc->logger) time->logger = *desc->logger;
    time->fixed_delta_time = tl__time_desc_value(
        &time->logger, "fixed_delta_time", desc->fixed_delta_time, TL_TIME_MIN_FIXED_DELTA,
        "finite and at least TL_TIME_MIN_FIXED_DELTA (0.0001 s)", 0.02f);
    time->max_delta_time = tl__time_desc_value(
        &time->logger, "max_delta_time", desc->max_delta_time, 0.0f, "finite and positive", 0.25f);
    tl__time_set_rate(time, desc->fixed_steps_per_second);
    time->time_scale = 1.0f;
    time->count_playtime = desc->count_playtime;
    time->playtime_mode = desc->playtime_mode;
    time->running = true;
}

/* A frame of `seconds` (clamped), `ns` of them in whole nanoseconds (at most 10,000 s of them:
   the rest, owing more steps than a frame runs, is only counted to be reported dropped). */
static void tl__time_advance(tl_time *time, double seconds, uint64_t ns) {
    float unscaled = (float)seconds;
    time->unscaled_delta_time = unscaled;
    time->delta_time = unscaled * time->time_scale;
    time->smooth_delta_time =
        time->frame == 0
            ? time->delta_time
            : time->smooth_delta_time + (time->delta_time - time->smooth_delta_time) * 0.2f;
    time->time_since_start += seconds;
    if (!time->fixed_steps_per_second) time->fixed_accumulator += (double)time->delta_time;
    else if (time->time_scale > 0.5f) {
        time->fixed_accumulator_ticks += ns * time->fixed_steps_per_second;
        time->fixed_excess = seconds > 1e4 ? seconds - 1e4 : 0.0;
    }
    time->frame++;
    if (time->count_playtime) {
        time->total_playtime += time->playtime_mode == TL_TIME_PLAYTIME_UNSCALED
                                    ? (double)time->unscaled_delta_time
                                    : (double)time->delta_time;
        tl__time_publish_double(time->registry, time->events.playtime_count_tick,
                                time->total_playtime);
    }
}

void tl_time_tick(tl_time *time, double seconds) {
    if (!time || !time->running) return;
    if (!(seconds > 0.0)) seconds = 0.0; /* negative or NaN: a frame of no time */
    if (seconds > (double)time->max_delta_time) seconds = (double)time->max_delta_time;
    tl__time_advance(time, seconds, tl__time_ns(seconds));
}

void tl_time_tick_ns(tl_time *time, uint64_t nanoseconds) {
    double seconds;
    if (!time || !time->running) return;
    seconds = (double)nanoseconds / 1e9;
    if (seconds > (double)time->max_delta_time) { /* the clamp, exact where it is whole */
        seconds = (double)time->max_delta_time;
        nanoseconds = tl__time_ns(seconds);
    }
    tl__time_advance(time, seconds, seconds > 1e4 ? tl__time_ns(1e4) : nanoseconds);
}

/* tl_time_fixed_steps with a rate: the accumulator holds nanoseconds times the rate, so a step
   is exactly 1e9 of it. */
static uint32_t tl__time_exact_steps(tl_time *time) {
    const uint64_t step = 1000000000u;
    uint64_t due = time->fixed_accumulator_ticks / step;
    uint32_t steps = due > TL_TIME_MAX_FIXED_STEPS ? TL_TIME_MAX_FIXED_STEPS : (uint32_t)due;
    time->fixed_accumulator_ticks -= (uint64_t)steps * step;
    if (time->fixed_accumulator_ticks >= step || time->fixed_excess > 0.0) {
        tl__time_log(&time->logger, TL_TIME_LOG_FIXED_STEPS_DROPPED,
                     (unsigned long long)time->frame, TL_TIME_MAX_FIXED_STEPS,
                     (double)time->fixed_accumulator_ticks / 1e9 /
                             (double)time->fixed_steps_per_second +
                         time->fixed_excess);
        time->fixed_accumulator_ticks = 0;
    }
    time->fixed_excess = 0.0;
    time->fixed_step_count += steps;
    return steps;
}

uint32_t tl_time_fixed_steps(tl_time *time) {
    uint32_t steps = 0;
    double step;
    if (!time || !time->running) return 0;
    if (time->fixed_steps_per_second) return tl__time_exact_steps(time);
    step = (double)time->fixed_delta_time;
    /* Capped: a huge accumulator (a max_delta_time of hours, then such a frame) would otherwise
       take billions of iterations and overflow the count. The sum is the loop's, step by step,
       so the usual counts and carries stay what they always were. */
    while (time->fixed_accumulator >= step && steps < TL_TIME_MAX_FIXED_STEPS) {
        time->fixed_accumulator -= step;
        steps++;
    }
    if (time->fixed_accumulator >= step) {
        tl__time_log(&time->logger, TL_TIME_LOG_FIXED_STEPS_DROPPED,
                     (unsigned long long)time->frame, TL_TIME_MAX_FIXED_STEPS,
                     time->fixed_accumulator);
        time->fixed_accumulator = 0.0;
    }
    time->fixed_step_count += steps;
    return steps;
}

void tl_time_publish_update(tl_time *time) {
    if (time && time->running)
        tl__time_publish_float(time->registry, time->events.update, time->delta_time);
}
void tl_time_publish_fixed_update(tl_time *time) {
    if (time && time->running)
        tl__time_publish_float(time->registry, time->events.fixed_update, time->fixed_delta_time);
}
void tl_time_publish_late_update(tl_time *time) {
    if (time && time->running)
        tl__time_publish_float(time->registry, time->events.late_update, time->delta_time);
}

/* A frame after its tick: OnFixedUpdate per due step, OnUpdate, OnLateUpdate. */
static void tl__time_publish_frame(tl_time *time) {
    uint32_t steps;
    for (steps = tl_time_fixed_steps(time); steps > 0; steps--) tl_time_publish_fixed_update(time);
    tl_time_publish_update(time);
    tl_time_publish_late_update(time);
}

void tl_time_frame(tl_time *time, double seconds) {
    tl_time_tick(time, seconds);
    tl__time_publish_frame(time);
}

void tl_time_frame_ns(tl_time *time, uint64_t nanoseconds) {
    tl_time_tick_ns(time, nanoseconds);
    tl__time_publish_frame(time);
}

/* Whether `scale` may be set on `time`: TL_TIME_OK, or the failure, logged. */
static tl_time_result tl__time_scale_check(tl_time *time, float scale, const char *what) {
    if (!time) {
        tl__time_log(NULL, TL_TIME_LOG_INVALID_ARGUMENT, what);
        return TL_TIME_INVALID_ARGUMENT;
    }
    if (tl__time_same(scale, 0.0f) || tl__time_same(scale, 1.0f)) return TL_TIME_OK;
    tl__time_log(&time->logger, TL_TIME_LOG_SCALE, (double)scale);
    return TL_TIME_SCALE;
}

tl_time_result tl_time_set_raw_scale(tl_time *time, float scale) {
    tl_time_result result = tl__time_scale_check(time, scale, "tl_time_set_raw_scale");
    if (result == TL_TIME_OK) time->time_scale = scale;
    return result;
}

tl_time_result tl_time_set_scale(tl_time *time, float scale) {
    float before;
    tl_time_result result = tl__time_scale_check(time, scale, "tl_time_set_scale");
    if (result != TL_TIME_OK) return result;
    before = time->time_scale;
    time->time_scale = scale;
    if (!tl__time_same(before, scale) && time->running)
        tl__time_publish_void(time->registry, tl__time_same(scale, 0.0f)
                                                  ? time->events.game_paused
                                                  : time->events.game_resumed);
    return TL_TIME_OK;
}

void tl_time_request_pause(tl_time *time) {
    if (time && time->running)
        tl__time_publish_void(time->registry, time->events.game_pause_requested);
}
void tl_time_request_resume(tl_time *time) {
    if (time && time->running)
        tl__time_publish_void(time->registry, time->events.game_resume_requested);
}
void tl_time_set_playtime_counting(tl_time *time, bool count) {
    if (time) time->count_playtime = count;
}
void tl_time_set_playtime_mode(tl_time *time, tl_time_playtime_mode mode) {
    if (time) time->playtime_mode = mode;
}
void tl_time_clear_playtime(tl_time *time) {
    if (time) time->total_playtime = 0.0;
}
float tl_time_framerate(const tl_time *time) {
    return time && time->unscaled_delta_time > 0.0f ? 1.0f / time->unscaled_delta_time : 0.0f;
}

void tl_time_discard(tl_time *time) {
    if (time) time->running = false;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_TIME_IMPL */
