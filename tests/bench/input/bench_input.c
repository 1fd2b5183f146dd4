/* input.h (fed through backends/sdl2/tl_input_sdl2.h) against a hand-written SDL scancode switch
   doing the same job, in one run: each frame, the same SDL events (keys, controller buttons and
   stick motion) are fed, then 64 actions in 2 active modes (Gameplay and Menu over it, Menu
   owning the controls both bind) are asked pressed, released, held and their value or vector.
   Prints the median ns per frame of each, the ratio (goal: at most 1.2), and the allocations made
   after start-up (counted by TL_MALLOC; goal: 0). Run pinned to one CPU (meson's benchmark does
   it through taskset). */
#define _GNU_SOURCE /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

static size_t bench_allocations;
static void *bench_malloc(size_t size) {
    bench_allocations++;
    return malloc(size);
}
#define TL_MALLOC(size) bench_malloc(size)
#define TL_FREE(ptr) free(ptr)
#define TL_IMPLEMENTATION
#include "../../../backends/sdl2/tl_input_sdl2.h"

#define GAMEPLAY TL_INPUT_MODE_GAMEPLAY
#define MENU TL_INPUT_MODE_MENU
#define BUTTONS 28 /* per mode; then 2 axes and 2 vectors: 32 actions a mode */
#define PAD_BUTTONS 21
#define FRAMES 1024
#define EVENTS_PER_FRAME 8
#define SAMPLES 31
#define PAD_ID 7u
#define DEAD_ZONE 0.2f
#define PRESS_POINT 0.5f

/* ---- the map: Gameplay's buttons on keys 30..57, Menu's on keys 58..85 (F1.., some of Gameplay's axis keys among them), both on the gamepad's
   buttons 0..20 (Menu, activated last, owns them); each mode's axes on two keys and a trigger, its
   vectors on four keys and a stick. ------------------------------------------------------------ */
static tl_input_action_info actions[64];
static tl_input_binding_info bindings[64 * 4];
static tl_input_map map;
static const uint32_t gameplay_axis_keys[2][2] = { { 80, 79 }, { 74, 77 } };
static const uint32_t gameplay_vector_keys[2][4] = { { 26, 22, 4, 7 }, { 12, 14, 13, 15 } };
static const uint32_t menu_axis_keys[2][2] = { { 86, 87 }, { 88, 89 } };
static const uint32_t menu_vector_keys[2][4] = { { 90, 91, 92, 93 }, { 94, 95, 96, 97 } };

/* The i-th button key from first_key, skipping usage 50 (non-US #, which input.h does not name). */
static uint32_t button_key(uint32_t first_key, int i) {
    uint32_t key = first_key + (uint32_t)i;
    return first_key < 50 && key >= 50 ? key + 1 : key;
}

static uint32_t bind(uint32_t at, uint32_t control, uint32_t part) {
    bindings[at].control = control;
    bindings[at].part = part;
    bindings[at].threshold = 0;
    return at + 1;
}

static uint32_t build_mode(uint32_t a, uint32_t b, uint32_t mode, uint32_t first_key,
                           const uint32_t axis_keys[2][2], const uint32_t vector_keys[2][4]) {
    uint32_t i, p;
    for (i = 0; i < 32; i++, a++) {
        actions[a].action = 0x1000u + a;
        actions[a].mode = mode;
        actions[a].first_binding = b;
        actions[a].name = "bench";
        if (i < BUTTONS) {
            actions[a].kind = TL_INPUT_KIND_BUTTON;
            b = bind(b, TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, button_key(first_key, (int)i)), 0);
            if (i < PAD_BUTTONS) b = bind(b, TL_INPUT_CONTROL(TL_INPUT_CLASS_BUTTON, i), 0);
        } else if (i < BUTTONS + 2) {
            actions[a].kind = TL_INPUT_KIND_AXIS;
            b = bind(b, TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, axis_keys[i - BUTTONS][0]), TL_INPUT_PART_NEGATIVE);
            b = bind(b, TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, axis_keys[i - BUTTONS][1]), TL_INPUT_PART_POSITIVE);
            b = bind(b, TL_INPUT_CONTROL(TL_INPUT_CLASS_AXIS, TL_INPUT_AXIS_LEFTTRIGGER + (i - BUTTONS)), 0);
        } else {
            actions[a].kind = TL_INPUT_KIND_VECTOR;
            for (p = 0; p < 4; p++)
                b = bind(b, TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, vector_keys[i - BUTTONS - 2][p]), TL_INPUT_PART_UP + p);
            b = bind(b, TL_INPUT_CONTROL(TL_INPUT_CLASS_STICK, i - BUTTONS - 2), 0);
        }
        actions[a].binding_count = b - actions[a].first_binding;
    }
    return b;
}

static void build_map(void) {
    uint32_t b = build_mode(0, 0, GAMEPLAY, 30, gameplay_axis_keys, gameplay_vector_keys);
    b = build_mode(32, b, MENU, 58, menu_axis_keys, menu_vector_keys);
    map.actions = actions;
    map.action_count = 64;
    map.bindings = bindings;
    map.binding_count = b;
    map.dead_zone = DEAD_ZONE;
    map.press_point = PRESS_POINT;
}

/* ---- the frames' events: keys of both modes going down and up, controller buttons, the left
   stick turning (a fixed pseudo-random script, the same for both) ------------------------------ */
static SDL_Event script[FRAMES][EVENTS_PER_FRAME];

static void build_script(void) {
    uint32_t seed = 12345u, f, k;
    for (f = 0; f < FRAMES; f++)
        for (k = 0; k < EVENTS_PER_FRAME; k++) {
            SDL_Event *e = &script[f][k];
            seed = seed * 1664525u + 1013904223u;
            memset(e, 0, sizeof *e);
            if (k < 4) { /* a key of Gameplay or Menu, down on even frames, up on odd ones */
                static const uint32_t keys[] = { 30, 31, 44, 26, 7, 80, 58, 74, 86, 90 };
                e->type = (f & 1u) ? SDL_KEYUP : SDL_KEYDOWN;
                e->key.keysym.scancode = (SDL_Scancode)keys[(f / 2 + k * 3) % 10];
            } else if (k < 6) {
                e->type = (f & 1u) ? SDL_CONTROLLERBUTTONUP : SDL_CONTROLLERBUTTONDOWN;
                e->cbutton.which = (SDL_JoystickID)PAD_ID;
                e->cbutton.button = (Uint8)((f / 2 + k) % PAD_BUTTONS);
            } else {
                e->type = SDL_CONTROLLERAXISMOTION;
                e->caxis.which = (SDL_JoystickID)PAD_ID;
                e->caxis.axis = (Uint8)(k - 6); /* leftx, lefty */
                e->caxis.value = (Sint16)((int)(seed >> 16) - 32768);
            }
        }
}

/* ---- the hand-written switch: state per scancode and pad control, each action by hand -------- */
typedef struct manual {
    bool key[256], pad[PAD_BUTTONS], menu_active;
    float axis[6];
    bool held[64], prev[64];
    float value[64];
    tl_input_vec2 vec[64];
} manual;

static void manual_feed(manual *m, const SDL_Event *e) {
    switch (e->type) {
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        if (!e->key.repeat) m->key[e->key.keysym.scancode & 255] = e->type == SDL_KEYDOWN;
        break;
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
        if (e->cbutton.button < PAD_BUTTONS) m->pad[e->cbutton.button] = e->type == SDL_CONTROLLERBUTTONDOWN;
        break;
    case SDL_CONTROLLERAXISMOTION:
        if (e->caxis.axis < 6) m->axis[e->caxis.axis] = tl_input_sdl2_axis_value(e->caxis.value);
        break;
    default: break;
    }
}

static float manual_dead(float v) {
    float a = v < 0 ? -v : v;
    if (a <= DEAD_ZONE) return 0;
    a = (a - DEAD_ZONE) / (1.0f - DEAD_ZONE);
    return v < 0 ? -a : a;
}

static tl_input_vec2 manual_stick(const manual *m, int stick) {
    tl_input_vec2 v = { m->axis[stick * 2], m->axis[stick * 2 + 1] };
    float len = sqrtf(v.x * v.x + v.y * v.y), scaled;
    if (len <= DEAD_ZONE) v.x = v.y = 0;
    else {
        scaled = (len - DEAD_ZONE) / (1.0f - DEAD_ZONE);
        scaled = (scaled > 1 ? 1 : scaled) / len;
        v.x *= scaled, v.y *= scaled;
    }
    return v;
}

/* A key as a mode reads it: Menu (activated last) owns its keys, 58..97, while it is active. */
static bool manual_key(const manual *m, uint32_t key, bool menu) {
    return m->key[key] && (menu || !m->menu_active || key < 58 || key > 97);
}

/* One mode's 32 actions (`menu`: Menu's, else Gameplay's, whose shared controls Menu takes). */
static void manual_mode(manual *m, int first, uint32_t first_key, const uint32_t axis_keys[2][2],
                        const uint32_t vector_keys[2][4], bool menu) {
    bool pad_ok = menu || !m->menu_active;
    int i;
    for (i = 0; i < BUTTONS; i++) {
        bool on = manual_key(m, button_key(first_key, i), menu) || (pad_ok && i < PAD_BUTTONS && m->pad[i]);
        m->held[first + i] = on;
        m->value[first + i] = on ? 1.0f : 0.0f;
    }
    for (i = 0; i < 2; i++) { /* strongest positive minus strongest negative */
        float pad = pad_ok ? manual_dead(m->axis[4 + i]) : 0;
        float pos = manual_key(m, axis_keys[i][1], menu) ? 1.0f : 0.0f, neg = manual_key(m, axis_keys[i][0], menu) ? 1.0f : 0.0f, v;
        if (pad > pos) pos = pad;
        if (-pad > neg) neg = -pad;
        v = pos - neg;
        m->value[first + BUTTONS + i] = v;
        m->held[first + BUTTONS + i] = (v < 0 ? -v : v) >= PRESS_POINT;
    }
    for (i = 0; i < 2; i++) { /* per direction likewise, then at most length 1 */
        const uint32_t *k = vector_keys[i];
        tl_input_vec2 st = { 0, 0 }, v;
        float up = manual_key(m, k[0], menu), down = manual_key(m, k[1], menu), left = manual_key(m, k[2], menu),
              right = manual_key(m, k[3], menu), len;
        if (pad_ok) st = manual_stick(m, i);
        if (-st.y > up) up = -st.y;
        if (st.y > down) down = st.y;
        if (-st.x > left) left = -st.x;
        if (st.x > right) right = st.x;
        v.x = right - left, v.y = down - up;
        len = sqrtf(v.x * v.x + v.y * v.y);
        if (len > 1) v.x /= len, v.y /= len, len = 1;
        m->vec[first + BUTTONS + 2 + i] = v;
        m->value[first + BUTTONS + 2 + i] = len;
        m->held[first + BUTTONS + 2 + i] = len >= PRESS_POINT;
    }
}

static void manual_update(manual *m) {
    memcpy(m->prev, m->held, sizeof m->held);
    manual_mode(m, 0, 30, gameplay_axis_keys, gameplay_vector_keys, false);
    manual_mode(m, 32, 58, menu_axis_keys, menu_vector_keys, true);
}

/* ---- the two frames -------------------------------------------------------------------------- */
static volatile float sink;

static void frame_threadlink(tl_input *in, const SDL_Event *events) {
    float acc = 0;
    uint32_t k, a;
    for (k = 0; k < EVENTS_PER_FRAME; k++) (void)tl_input_sdl2_feed(in, &events[k]);
    tl_input_update(in);
    for (a = 0; a < 64; a++) {
        uint32_t id = actions[a].action;
        acc += (float)tl_input_pressed(in, id) + (float)tl_input_released(in, id) + (float)tl_input_held(in, id);
        if (actions[a].kind == TL_INPUT_KIND_VECTOR) {
            tl_input_vec2 v = tl_input_vector(in, id);
            acc += v.x + v.y;
        } else {
            acc += tl_input_value(in, id);
        }
    }
    sink = acc;
}

static void frame_manual(manual *m, const SDL_Event *events) {
    float acc = 0;
    uint32_t k, a;
    for (k = 0; k < EVENTS_PER_FRAME; k++) manual_feed(m, &events[k]);
    manual_update(m);
    for (a = 0; a < 64; a++) {
        acc += (float)(m->held[a] && !m->prev[a]) + (float)(!m->held[a] && m->prev[a]) + (float)m->held[a];
        if (actions[a].kind == TL_INPUT_KIND_VECTOR) acc += m->vec[a].x + m->vec[a].y;
        else acc += m->value[a];
    }
    sink = acc;
}

/* Both over the whole script from rest, compared after each frame: the actions that disagree
   (held, pressed, released, or a value or vector component off by more than 0.01). */
static unsigned verify(tl_input *in, manual *m) {
    unsigned wrong = 0, f, a;
    for (f = 0; f < FRAMES; f++) {
        frame_threadlink(in, script[f]);
        frame_manual(m, script[f]);
        for (a = 0; a < 64; a++) {
            uint32_t id = actions[a].action;
            bool vector = actions[a].kind == TL_INPUT_KIND_VECTOR;
            tl_input_vec2 v = tl_input_vector(in, id);
            float value = tl_input_value(in, id);
            bool same = tl_input_held(in, id) == m->held[a] && tl_input_pressed(in, id) == (m->held[a] && !m->prev[a]) &&
                        tl_input_released(in, id) == (!m->held[a] && m->prev[a]) && fabsf(value - m->value[a]) < 0.01f &&
                        (!vector || (fabsf(v.x - m->vec[a].x) < 0.01f && fabsf(v.y - m->vec[a].y) < 0.01f));
            if (!same && wrong < 5)
                fprintf(stderr, "frame %u action %u (kind %u): threadlink held %d value %g (%g, %g), switch held %d value %g (%g, %g)\n",
                        f, a, actions[a].kind, tl_input_held(in, id), (double)value, (double)v.x, (double)v.y, m->held[a],
                        (double)m->value[a], (double)m->vec[a].x, (double)m->vec[a].y);
            wrong += !same;
        }
    }
    return wrong;
}

/* Only the events fed and the update: what the frame costs before any question. */
static void frame_feed_update(tl_input *in, const SDL_Event *events) {
    uint32_t k;
    for (k = 0; k < EVENTS_PER_FRAME; k++) (void)tl_input_sdl2_feed(in, &events[k]);
    tl_input_update(in);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* An input module over the map with both modes active and an Xbox pad; the switch likewise. */
static tl_input *start(manual *m) {
    tl_input_desc desc;
    tl_input_event pad;
    tl_input *in;
    memset(&desc, 0, sizeof desc);
    desc.map = &map;
    in = tl_input_create(&desc);
    if (!in) return NULL;
    tl_input_set_mode_active(in, GAMEPLAY, true);
    tl_input_set_mode_active(in, MENU, true);
    memset(&pad, 0, sizeof pad);
    pad.type = TL_INPUT_EVENT_DEVICE_ADDED;
    pad.device = PAD_ID;
    pad.family = TL_INPUT_FAMILY_XBOX;
    (void)tl_input_feed(in, &pad);
    tl_input_update(in);
    memset(m, 0, sizeof *m);
    m->menu_active = true;
    return in;
}

int main(void) {
    static double times[3][SAMPLES];
    static manual m;
    tl_input *in;
    size_t after_start;
    int s, f;
    static manual check;
    tl_input *fresh;
    unsigned wrong;
    build_map();
    build_script();
    fresh = start(&check);
    if (!fresh) return 1;
    wrong = verify(fresh, &check);
    tl_input_destroy(fresh);
    in = start(&m);
    if (!in) return 1;
    after_start = bench_allocations;
    for (s = 0; s < SAMPLES; s++) { /* the three in turn, each first in a third of the samples */
        int k;
        for (k = 0; k < 3; k++) {
            int which = (s + k) % 3;
            double t0 = now_ns();
            for (f = 0; f < FRAMES; f++) {
                if (which == 0) frame_threadlink(in, script[f]);
                else if (which == 1) frame_manual(&m, script[f]);
                else frame_feed_update(in, script[f]);
            }
            times[which][s] = (now_ns() - t0) / FRAMES;
        }
    }
    for (s = 0; s < 3; s++) qsort(times[s], SAMPLES, sizeof(double), by_value);
    printf("input: a frame of %d SDL events fed, 64 actions in 2 active modes asked (median of %d x %d frames)\n",
           EVENTS_PER_FRAME, SAMPLES, FRAMES);
    printf("  threadlink input.h + tl_input_sdl2.h  %8.1f ns/frame\n", times[0][SAMPLES / 2]);
    printf("    of which feeding and the update      %8.1f ns/frame (the queries asked no question)\n", times[2][SAMPLES / 2]);
    printf("  hand-written SDL scancode switch      %8.1f ns/frame\n", times[1][SAMPLES / 2]);
    printf("  the two agree on every action of every frame: %s (%u disagreements)\n", wrong ? "NO" : "yes", wrong);
    printf("  ratio %.2fx (goal <= 1.2x); allocations after start-up: %zu (goal 0)\n",
           times[0][SAMPLES / 2] / times[1][SAMPLES / 2], bench_allocations - after_start);
    tl_input_destroy(in);
    return bench_allocations != after_start || wrong;
}
