/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* tl_input_sdl2.h -- SDL2 adapter for threadlink/input.h (the seed's Dextra's devices).

   WHAT
   ----
   Translates SDL2's events into input.h's normalised events: keys by scancode (SDL_Scancode is
   the USB HID usage input.h takes; key repeats are dropped), mouse buttons 1..5, and the
   SDL_GameController events -- a controller's buttons and axes (SDL's standard gamepad, the
   order and names input.h uses), a controller added (opened here, its family from
   SDL_GameControllerGetType, else from its vendor id and name by tl_input_family_guess) and
   removed (closed here). Its one state: the controllers it opened, by a reference of its own
   (SDL counts them: a controller the game opens too stays open for the game), in a table of
   TL_INPUT_SDL2_MAX_PADS (16) per source file, so feed and close_all from the same file.
   runtime/threadlink/input.h includes no SDL header; this one is for games on SDL2. Its folder,
   backends/sdl2/ (installed as include/threadlink/backends/sdl2/), is on the include path through
   CMake's threadlink::sdl2, or Meson's and pkg-config's threadlink_sdl2, with the runtime's
   (docs/build-systems.md); the game adds SDL2.

   USE
   ---
       #include <SDL.h>
       #include "tl_input_sdl2.h"            // includes <threadlink/input.h>
       SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER);  // the controllers present at init
                                              // arrive as SDL_CONTROLLERDEVICEADDED events
       ... each frame:
       SDL_Event e;
       while (SDL_PollEvent(&e)) {
           if (tl_input_sdl2_feed(in, &e)) continue;   // an input event: fed
           ...                                           // the game's own (quit, resize)
       }
       tl_input_update(in);
       ... at exit: tl_input_sdl2_close_all() before SDL_Quit (the adapter's references only)

   RULES
   -----
   - Gamepad axes: SDL's -32768..32767 become -1..1 (clamped), triggers 0..32767 become 0..1.
   - A controller's device id in input.h is its SDL_JoystickID (instance id).
   - tl_input_sdl2_feed calls input.h's per-kind feeds (tl_input_feed_key, ...) from one switch;
     tl_input_sdl2_translate gives the tl_input_event instead, for code that keeps events.
   - With no window focused (a test, a headless run), SDL drops controller events unless
     SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS is "1"; tl_input_sdl2_feed does not set it.
   - A game that opens a controller itself (rumble, the LED) closes its own handle; the adapter
     never does, in tl_input_sdl2_remove or tl_input_sdl2_close_all.
   - Header-only, static inline; SDL 2.0.14 or newer (controller types, paddles, touchpad). */
#ifndef TL_INPUT_SDL2_H
#define TL_INPUT_SDL2_H

#include <SDL.h>
#include <threadlink/input.h>

/* The controllers the adapter can hold open at once (input.h's desc.max_devices is 8 by default). */
#ifndef TL_INPUT_SDL2_MAX_PADS
#define TL_INPUT_SDL2_MAX_PADS 16
#endif

/* A controller's family: its SDL type, else its vendor id and name. The switch is on an int:
   each SDL release adds types (Joy-Cons, Luna, ...), and -Wswitch-enum would ask for every one. */
static inline uint32_t tl_input_sdl2_family(SDL_GameController *pad) {
    switch ((int)SDL_GameControllerGetType(pad)) {
    case SDL_CONTROLLER_TYPE_XBOX360:
    case SDL_CONTROLLER_TYPE_XBOXONE: return TL_INPUT_FAMILY_XBOX;
    case SDL_CONTROLLER_TYPE_PS3:
    case SDL_CONTROLLER_TYPE_PS4:
    case SDL_CONTROLLER_TYPE_PS5: return TL_INPUT_FAMILY_PLAYSTATION;
    case SDL_CONTROLLER_TYPE_NINTENDO_SWITCH_PRO: return TL_INPUT_FAMILY_SWITCH;
    default: break;
    }
    return tl_input_family_guess(SDL_GameControllerGetVendor(pad),
                                 SDL_GameControllerGetProduct(pad), SDL_GameControllerName(pad));
}

static inline float tl_input_sdl2_axis_value(int value) {
    float v = (float)value / 32767.0f;
    return v < -1.0f ? -1.0f : v > 1.0f ? 1.0f : v;
}

/* The controllers this adapter opened, each by a reference of its own: SDL counts references, so
   a controller the game opened too stays open for the game when the adapter closes its own. */
typedef struct tl__input_sdl2_pad {
    SDL_GameController *pad; /* NULL: a free row */
    SDL_JoystickID id;
} tl__input_sdl2_pad;

static inline tl__input_sdl2_pad *tl__input_sdl2_pads(void) {
    static tl__input_sdl2_pad pads[TL_INPUT_SDL2_MAX_PADS]; /* one table per source file */
    return pads;
}

/* The adapter's row of a controller it opened, or NULL. */
static inline tl__input_sdl2_pad *tl__input_sdl2_opened(SDL_JoystickID id) {
    tl__input_sdl2_pad *pads = tl__input_sdl2_pads();
    int i;
    for (i = 0; i < TL_INPUT_SDL2_MAX_PADS; i++)
        if (pads[i].pad && pads[i].id == id) return &pads[i];
    return NULL;
}

/* Closes the adapter's reference of a row, if SDL still has that controller (SDL_Quit closes
   every one), and frees the row. */
static inline void tl__input_sdl2_close(tl__input_sdl2_pad *row) {
    if (SDL_GameControllerFromInstanceID(row->id) == row->pad) SDL_GameControllerClose(row->pad);
    row->pad = NULL;
}

/* A row for a controller this adapter opens now: its reference taken; NULL when none. */
static inline tl__input_sdl2_pad *tl__input_sdl2_open(int device_index, SDL_JoystickID id) {
    tl__input_sdl2_pad *row = NULL, *pads = tl__input_sdl2_pads();
    int i;
    for (i = 0; !row && i < TL_INPUT_SDL2_MAX_PADS; i++)
        if (!pads[i].pad) row = &pads[i];
    if (!row) {
        SDL_LogError(SDL_LOG_CATEGORY_INPUT,
                     "tl_input_sdl2: controller %d not opened: %d are (TL_INPUT_SDL2_MAX_PADS)",
                     (int)id, TL_INPUT_SDL2_MAX_PADS);
        return NULL;
    }
    row->pad = SDL_GameControllerOpen(device_index);
    row->id = id;
    return row->pad ? row : NULL;
}

/* SDL_CONTROLLERDEVICEADDED (which: a device index): opens the controller (a reference of the
   adapter's own, once however often it is added), feeds it with its family. */
static inline tl_input_result tl_input_sdl2_add(tl_input *in, int device_index) {
    SDL_JoystickID id = SDL_JoystickGetDeviceInstanceID(device_index);
    tl__input_sdl2_pad *row = tl__input_sdl2_opened(id);
    tl_input_event ev;
    if (!row && id >= 0) row = tl__input_sdl2_open(device_index, id);
    if (!row) return TL_INPUT_INVALID_ARGUMENT;
    SDL_memset(&ev, 0, sizeof ev);
    ev.type = TL_INPUT_EVENT_DEVICE_ADDED;
    ev.device = (uint32_t)id;
    ev.family = tl_input_sdl2_family(row->pad);
    return tl_input_feed(in, &ev);
}

/* SDL_CONTROLLERDEVICEREMOVED (which: an instance id): feeds the removal, closes the adapter's
   reference (never the game's). */
static inline tl_input_result tl_input_sdl2_remove(tl_input *in, SDL_JoystickID id) {
    tl__input_sdl2_pad *row = tl__input_sdl2_opened(id);
    tl_input_event ev;
    SDL_memset(&ev, 0, sizeof ev);
    ev.type = TL_INPUT_EVENT_DEVICE_REMOVED;
    ev.device = (uint32_t)id;
    if (row) tl__input_sdl2_close(row);
    return tl_input_feed(in, &ev);
}

/* The input.h event of a key, mouse button or controller button or axis event; false for others. */
static inline bool tl_input_sdl2_translate(const SDL_Event *e, tl_input_event *ev) {
    ev->device = ev->code = ev->family = 0; /* no SDL_memset: a call per event */
    ev->value = 0.0f;
    switch (e->type) {
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        if (e->key.repeat || (unsigned)e->key.keysym.scancode >= 256u) return false;
        ev->type = TL_INPUT_EVENT_KEY;
        ev->code = (uint32_t)e->key.keysym.scancode;
        ev->value = e->type == SDL_KEYDOWN ? 1.0f : 0.0f;
        return true;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        if (e->button.which == SDL_TOUCH_MOUSEID) return false; /* a touch, not the mouse */
        ev->type = TL_INPUT_EVENT_MOUSE_BUTTON;
        ev->code = e->button.button;
        ev->value = e->type == SDL_MOUSEBUTTONDOWN ? 1.0f : 0.0f;
        return true;
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
        if (e->cbutton.button >= TL_INPUT_BUTTON_END_) return false;
        ev->type = TL_INPUT_EVENT_GAMEPAD_BUTTON;
        ev->device = (uint32_t)e->cbutton.which;
        ev->code = e->cbutton.button;
        ev->value = e->type == SDL_CONTROLLERBUTTONDOWN ? 1.0f : 0.0f;
        return true;
    case SDL_CONTROLLERAXISMOTION:
        if (e->caxis.axis >= TL_INPUT_AXIS_END_) return false;
        ev->type = TL_INPUT_EVENT_GAMEPAD_AXIS;
        ev->device = (uint32_t)e->caxis.which;
        ev->code = e->caxis.axis;
        ev->value = tl_input_sdl2_axis_value(e->caxis.value);
        return true;
    default: return false;
    }
}

/* Feeds one SDL event; true when it was an input event (fed, or a device added or removed). The
   same as tl_input_sdl2_translate then tl_input_feed, by input.h's per-kind calls (no event in
   between, one switch). */
static inline bool tl_input_sdl2_feed(tl_input *in, const SDL_Event *e) {
    switch (e->type) {
    case SDL_KEYDOWN:
    case SDL_KEYUP:
        if (e->key.repeat || (unsigned)e->key.keysym.scancode >= 256u) return false;
        (void)tl_input_feed_key(in, (uint32_t)e->key.keysym.scancode, e->type == SDL_KEYDOWN);
        return true;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        if (e->button.which == SDL_TOUCH_MOUSEID) return false; /* a touch, not the mouse */
        (void)tl_input_feed_mouse_button(in, e->button.button, e->type == SDL_MOUSEBUTTONDOWN);
        return true;
    case SDL_CONTROLLERBUTTONDOWN:
    case SDL_CONTROLLERBUTTONUP:
        if (e->cbutton.button >= TL_INPUT_BUTTON_END_) return false;
        (void)tl_input_feed_gamepad_button(in, (uint32_t)e->cbutton.which, e->cbutton.button,
                                           e->type == SDL_CONTROLLERBUTTONDOWN);
        return true;
    case SDL_CONTROLLERAXISMOTION:
        if (e->caxis.axis >= TL_INPUT_AXIS_END_) return false;
        (void)tl_input_feed_gamepad_axis(in, (uint32_t)e->caxis.which, e->caxis.axis,
                                         tl_input_sdl2_axis_value(e->caxis.value));
        return true;
    case SDL_CONTROLLERDEVICEADDED: (void)tl_input_sdl2_add(in, e->cdevice.which); return true;
    case SDL_CONTROLLERDEVICEREMOVED: (void)tl_input_sdl2_remove(in, e->cdevice.which); return true;
    default: return false;
    }
}

/* Closes every controller this adapter opened: its own references, never the game's (call before
   SDL_Quit; from the file that feeds). */
static inline void tl_input_sdl2_close_all(void) {
    tl__input_sdl2_pad *pads = tl__input_sdl2_pads();
    int i;
    for (i = 0; i < TL_INPUT_SDL2_MAX_PADS; i++)
        if (pads[i].pad) tl__input_sdl2_close(&pads[i]);
}

#endif
