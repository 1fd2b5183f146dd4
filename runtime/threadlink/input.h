/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/input.h -- actions, modes, devices, rebinding and prompt glyphs (the seed's Dextra).

   WHAT
   ----
   The seed's Dextra input for C, engine-agnostic: the game (or a backend such as
   backends/sdl2/tl_input_sdl2.h) feeds normalised events each frame -- keys by their USB HID
   usage, mouse buttons, gamepad buttons and axes by the standard gamepad's names (SDL's), devices
   connected and removed -- then calls tl_input_update once and asks about actions: pressed this
   frame, released this frame, held, a value (an axis) or a vector (a stick or a composite).
   Actions live in input modes (the Dextra.InputModes domain: Gameplay, Menu, Cutscene and the
   project's own); several modes may be active at once. The action map (actions, their kinds and
   default bindings per device family, the prompt glyphs) is data, checked and baked by
   threadlink-gen into const tables (tl_input_map). Bindings can be rebound at run time, by code
   or by capturing the next control, and saved as versioned bytes (the game puts them in its
   save). The device family (MouseAndKeyboard, Xbox, PlayStation, Switch, a generic Gamepad)
   follows the last meaningful input and picks the glyph each prompt shows.

   INCLUDE
   -------
       #include <threadlink/input.h>
       #define TL_INPUT_IMPL                   // or TL_IMPLEMENTATION (all modules), in one file
       #include <threadlink/input.h>
   Includes only the core (api.h, log.h, events.h). TL_MALLOC / TL_FREE override the allocator
   (both or neither). Control names, families and their lookups are static inline: a tool (the
   generator, a backend) uses them without the implementation.

   OVERRIDES
   ---------
   TL_MALLOC(size) / TL_FREE(ptr)    default malloc / free; used only by tl_input_create and
                                     tl_input_destroy (nothing allocates after start-up)

   USE
   ---
       #include "input_map.h"                      // threadlink-gen: input_map(), the actions
       tl_input_desc desc = {0};                   // zero: defaults (see tl_input_desc)
       desc.map = input_map();
       desc.registry = &registry;                  // OnInputDeviceChanged
       tl_input *in = tl_input_create(&desc);
       tl_input_set_mode_active(in, TL_INPUT_MODE_GAMEPLAY, true);
       ... each frame:
       tl_input_event e = {0};
       e.type = TL_INPUT_EVENT_KEY;  e.code = 44;  e.value = 1.0f;   // Space went down
       tl_input_feed(in, &e);                      // or tl_input_feed_key(in, 44, true),
                                                   // or tl_input_sdl2_feed(in, &sdl_event)
       tl_input_update(in);
       if (tl_input_pressed(in, DEXTRA_ACTIONS_U32(Dextra_Actions_Fire))) fire(); // uint32_t ids
       tl_input_vec2 move = tl_input_vector(in, DEXTRA_ACTIONS_U32(Dextra_Actions_Move));
       uint32_t glyph = tl_input_prompt_glyph(in, DEXTRA_ACTIONS_U32(Dextra_Actions_Fire)); // an asset id
       tl_input_destroy(in);

   CONTROLS
   --------
   A control is a 32-bit value: its class in bits 16..23 (TL_INPUT_CLASS_*), its code below.
   Names, as action maps and tl_input_control_from_name spell them (case-insensitive):
       keyboard/<key>     the key's USB HID usage (SDL_Scancode's value): keyboard/A, keyboard/1,
                          keyboard/Space, keyboard/Return, keyboard/Up, keyboard/LeftShift, ...
                          (TL_INPUT_KEYS)
       mouse/<button>     left, middle, right, x1, x2
       gamepad/<button>   SDL's names: a b x y back guide start leftstick rightstick leftshoulder
                          rightshoulder dpup dpdown dpleft dpright misc1 paddle1..4 touchpad
       gamepad/<axis>     leftx lefty rightx righty lefttrigger righttrigger (-1..1; triggers 0..1;
                          y grows downwards, as SDL's sticks and the screen); a half axis adds its
                          sign: gamepad/leftx- (left), gamepad/lefty- (up), gamepad/righttrigger+
       gamepad/leftxy     the left stick as a vector (leftx, lefty); gamepad/rightxy the right one
   Keyboard and mouse are one device family (MouseAndKeyboard); the gamepad controls belong to
   whichever gamepad family the device is. Every connected gamepad drives them (the largest
   magnitude wins); local multiplayer (a device per player) is not modelled.

   ACTIONS AND VALUES
   ------------------
   - A button action is held while any of its live bindings is active: a key or button down, an
     axis (half or whole) at or past the binding's threshold. Its value is 1 or 0.
   - An axis action's value is the strongest positive contribution minus the strongest negative
     one, in -1..1: a key or button gives 1 (-1 for the negative part of a composite), an axis
     its value after the dead zone. A vector action sums likewise per direction (right - left,
     down - up); a composite of four buttons at a diagonal gives length 1 (0.7071, 0.7071), a
     stick its value after the dead zone. Axis and vector actions are held while the value's
     magnitude is at least the press point (0.5 by default).
   - Dead zone (the map's, 0.2 by default; desc.dead_zone overrides): a stick is radial, an axis
     axial; below it the value is 0, above it the range is rescaled to start at 0 and end at 1,
     so no step appears at its edge. Input inside the dead zone is not meaningful: it moves no
     action and does not change the current device family.
   - Pressed is true for the one update at which an action becomes held, released for the one at
     which it stops. A tap that goes down and up between two updates reports both pressed and
     released at the next update, and held false.
   - An action of a mode that is not active reads as at rest (an action held when its mode goes
     inactive reports released at the next update).

   QUERIES AND COST
   ----------------
   tl_input_held, _pressed, _released, _value and _vector are static inline: each reads the
   action's tl_input_state (tl_input_state_of: the identity value's low bits -- it is a hash --
   index a table a quarter full, nearly always at the action's entry; the compiler merges the
   lookups of several questions on one action), so asking costs about what reading a game's own
   array does.
   tl_input_update evaluates only the actions whose controls changed since the last one (a bit
   per action, set by the feed through each control's listeners), clears only the edges it set,
   and each binding keeps its control decoded. tests/bench/input measures it against a
   hand-written SDL switch.

   MODES
   -----
   tl_input_set_mode_active(mode, true/false), as the seed's SetInputMapActive. When two active
   modes bind one control (or overlapping ones: gamepad/leftx overlaps gamepad/leftx- and
   gamepad/leftxy), the mode activated most recently takes it and the other's binding does
   nothing while both are active: Menu activated over Gameplay owns Escape. A control that is
   already active when its mode is activated (or when a capture ends) acts only after it has
   been released: the Return that confirmed "New game" does not fire in Gameplay.

   DEVICES
   -------
   Gamepads are fed as TL_INPUT_EVENT_DEVICE_ADDED with a family (a backend recognises it;
   tl_input_family_guess does it from USB vendor and product ids and the name) and
   TL_INPUT_EVENT_DEVICE_REMOVED, which releases every control it held. The current family is
   that of the device of the last meaningful input (a key or button going down, an axis outside
   its dead zone); desc.initial_family (MouseAndKeyboard) until then. When it changes,
   OnInputDeviceChanged(uint32_t family) is published once, at the next tl_input_update.

   REBINDING
   ---------
   Each action's bindings are numbered in the map's order (tl_input_binding_count,
   tl_input_binding_control). tl_input_rebind(action, index, control) refuses a control of the
   other device family (WRONG_FAMILY), one that cannot drive that binding (KIND_MISMATCH: a stick
   on a button), and one that overlaps another binding of the same mode (CONFLICT:
   tl_input_conflict names the action that has it). tl_input_capture_begin waits for the next
   control of the binding's family that goes from rest to active, and rebinds to it at an
   update; while it waits no action moves (every action reads at rest), and its
   tl_input_capture_status ends DONE, CONFLICT (nothing changed) or CANCELLED (the cancel
   control, or tl_input_capture_cancel). tl_input_reset_bindings restores the map's defaults.
   tl_input_save_bindings writes the bindings that differ from the defaults as bytes (format 1:
   each by its action's identity value, the binding's family, part and ordinal, so a map that
   reorders its actions or bindings still reads them); tl_input_load_bindings applies them to the
   defaults: an action the map no longer has, a binding it no longer has, or a control that no
   longer suits it is dropped with a warning (the default stays), an action new to the map keeps
   its default. Overlaps are judged on the whole loaded set (bindings that traded controls load
   as saved); where two still overlap, the first in map order goes back to its default, with a
   warning. save.h stores the bytes; this header never includes it.

   PROMPT GLYPHS
   -------------
   The map's glyph table gives a catalog asset per (control, family); a gamepad family without a
   row falls back to the Gamepad family's. tl_input_prompt_glyph(action) is the glyph of the
   action's first binding of the current family's device class (0 when none). Whoever shows a
   prompt watches it (tl_input_prompt_watch): its function is called at once and whenever the
   glyph changes (device family, rebinding, reset, load), from tl_input_update or the call that
   changed it, until tl_input_prompt_unwatch.

   NATIVE EVENTS (natives/Iris.Events.Native.txt, after platform.h's: ordinal 20)
   -------------
       OnInputDeviceChanged(uint32_t)      the current family changed (a tl_input_family)
   A project whose Iris.Events domain had events of its own before these natives were shipped
   keeps their ordinals, and the natives get later ones: give desc.events from the generated
   enum (TL_INPUT_EVENTS_INIT(Iris_Events_), as examples/game does), not the native ordinals.

   RULES
   -----
   No allocation after tl_input_create (feed, update, queries, rebinding, save and load, prompts
   use what create sized). Queries on an action the map does not have answer false / 0 (and NULL
   as the module). Square roots (sticks, vectors) are IEEE's correctly rounded ones: SSE's
   instruction where the build has it, else plain C with the same bits (no libm), so values are
   the same bits on every machine. Main thread only; no global state.
*/
#if defined(TL_IMPLEMENTATION) && !defined(TL_INPUT_IMPL)
#define TL_INPUT_IMPL
#endif
#ifndef TL_INPUT_H
#define TL_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"
#include "events.h"
#include "log.h"

#if defined(TL_MALLOC) != defined(TL_FREE)
#error "threadlink/input.h: define both TL_MALLOC and TL_FREE, or neither"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_input tl_input;

/* --- device families ---------------------------------------------------------------------------- */

/* X(id, name): the seed's Dextra.InputDevice, plus a generic gamepad. */
#define TL_INPUT_FAMILIES(X) \
    X(MOUSE_AND_KEYBOARD, "MouseAndKeyboard") \
    X(XBOX, "Xbox") \
    X(PLAYSTATION, "PlayStation") \
    X(SWITCH, "Switch") \
    X(GAMEPAD, "Gamepad")
typedef enum tl_input_family {
    TL_INPUT_FAMILY_NONE = 0,
#define TL__INPUT_FAMILY_ENUM(id, name) TL_INPUT_FAMILY_##id,
    TL_INPUT_FAMILIES(TL__INPUT_FAMILY_ENUM)
#undef TL__INPUT_FAMILY_ENUM
        TL_INPUT_FAMILY_END_
} tl_input_family;

/* --- controls ----------------------------------------------------------------------------------- */

#define TL_INPUT_CLASS_KEY 1u    /* code: USB HID keyboard usage (SDL_Scancode), below 256 */
#define TL_INPUT_CLASS_MOUSE 2u  /* code: 1 left, 2 middle, 3 right, 4 x1, 5 x2 (SDL's) */
#define TL_INPUT_CLASS_BUTTON 3u /* code: tl_input_button */
#define TL_INPUT_CLASS_AXIS 4u   /* code: tl_input_axis, | a TL_INPUT_HALF_* for a half axis */
#define TL_INPUT_CLASS_STICK 5u  /* code: 0 left (leftx, lefty), 1 right (rightx, righty) */
#define TL_INPUT_CONTROL(cls, code) ((uint32_t)(cls) << 16 | (uint32_t)(code))
#define TL_INPUT_CONTROL_CLASS(control) ((uint32_t)(control) >> 16 & 0xffu)
#define TL_INPUT_CONTROL_CODE(control) ((uint32_t)(control)&0xffffu)
#define TL_INPUT_HALF_NEGATIVE 0x100u
#define TL_INPUT_HALF_POSITIVE 0x200u

/* The device classes a binding belongs to (a rebinding stays in its class). */
#define TL_INPUT_DEVICES_KEYBOARD_MOUSE 1u
#define TL_INPUT_DEVICES_GAMEPAD 2u

/* X(name, usage): every key an action map may name, by its USB HID usage (= SDL_Scancode). */
#define TL_INPUT_KEYS(X) \
    X("A", 4) \
    X("B", 5) \
    X("C", 6) \
    X("D", 7) \
    X("E", 8) \
    X("F", 9) \
    X("G", 10) \
    X("H", 11) \
    X("I", 12) \
    X("J", 13) \
    X("K", 14) \
    X("L", 15) \
    X("M", 16) \
    X("N", 17) \
    X("O", 18) \
    X("P", 19) \
    X("Q", 20) \
    X("R", 21) \
    X("S", 22) \
    X("T", 23) \
    X("U", 24) \
    X("V", 25) \
    X("W", 26) \
    X("X", 27) \
    X("Y", 28) \
    X("Z", 29) \
    X("1", 30) \
    X("2", 31) \
    X("3", 32) \
    X("4", 33) \
    X("5", 34) \
    X("6", 35) \
    X("7", 36) \
    X("8", 37) \
    X("9", 38) \
    X("0", 39) \
    X("Return", 40) \
    X("Escape", 41) \
    X("Backspace", 42) \
    X("Tab", 43) \
    X("Space", 44) \
    X("Minus", 45) \
    X("Equals", 46) \
    X("LeftBracket", 47) \
    X("RightBracket", 48) \
    X("Backslash", 49) \
    X("Semicolon", 51) \
    X("Apostrophe", 52) \
    X("Grave", 53) \
    X("Comma", 54) \
    X("Period", 55) \
    X("Slash", 56) \
    X("CapsLock", 57) \
    X("F1", 58) \
    X("F2", 59) \
    X("F3", 60) \
    X("F4", 61) \
    X("F5", 62) \
    X("F6", 63) \
    X("F7", 64) \
    X("F8", 65) \
    X("F9", 66) \
    X("F10", 67) \
    X("F11", 68) \
    X("F12", 69) \
    X("PrintScreen", 70) \
    X("ScrollLock", 71) \
    X("Pause", 72) \
    X("Insert", 73) \
    X("Home", 74) \
    X("PageUp", 75) \
    X("Delete", 76) \
    X("End", 77) \
    X("PageDown", 78) \
    X("Right", 79) \
    X("Left", 80) \
    X("Down", 81) \
    X("Up", 82) \
    X("NumLock", 83) \
    X("KeypadDivide", 84) \
    X("KeypadMultiply", 85) \
    X("KeypadMinus", 86) \
    X("KeypadPlus", 87) \
    X("KeypadEnter", 88) \
    X("Keypad1", 89) \
    X("Keypad2", 90) \
    X("Keypad3", 91) \
    X("Keypad4", 92) \
    X("Keypad5", 93) \
    X("Keypad6", 94) \
    X("Keypad7", 95) \
    X("Keypad8", 96) \
    X("Keypad9", 97) \
    X("Keypad0", 98) \
    X("KeypadPeriod", 99) \
    X("LeftCtrl", 224) \
    X("LeftShift", 225) \
    X("LeftAlt", 226) \
    X("LeftGui", 227) \
    X("RightCtrl", 228) \
    X("RightShift", 229) \
    X("RightAlt", 230) \
    X("RightGui", 231)

#define TL_INPUT_MOUSE_BUTTONS(X) \
    X("left", 1) \
    X("middle", 2) \
    X("right", 3) \
    X("x1", 4) \
    X("x2", 5)

/* ROW(id, name) (not X: a button is named X): the standard gamepad's buttons and axes in SDL_GameController's order and names. */
#define TL_INPUT_BUTTONS(ROW) \
    ROW(A, "a") \
    ROW(B, "b") \
    ROW(X, "x") \
    ROW(Y, "y") \
    ROW(BACK, "back") \
    ROW(GUIDE, "guide") \
    ROW(START, "start") \
    ROW(LEFTSTICK, "leftstick") \
    ROW(RIGHTSTICK, "rightstick") \
    ROW(LEFTSHOULDER, "leftshoulder") \
    ROW(RIGHTSHOULDER, "rightshoulder") \
    ROW(DPUP, "dpup") \
    ROW(DPDOWN, "dpdown") \
    ROW(DPLEFT, "dpleft") \
    ROW(DPRIGHT, "dpright") \
    ROW(MISC1, "misc1") \
    ROW(PADDLE1, "paddle1") \
    ROW(PADDLE2, "paddle2") \
    ROW(PADDLE3, "paddle3") \
    ROW(PADDLE4, "paddle4") \
    ROW(TOUCHPAD, "touchpad")
typedef enum tl_input_button {
#define TL__INPUT_BUTTON_ENUM(id, name) TL_INPUT_BUTTON_##id,
    TL_INPUT_BUTTONS(TL__INPUT_BUTTON_ENUM)
#undef TL__INPUT_BUTTON_ENUM
        TL_INPUT_BUTTON_END_
} tl_input_button;

#define TL_INPUT_AXES(X) \
    X(LEFTX, "leftx") \
    X(LEFTY, "lefty") \
    X(RIGHTX, "rightx") \
    X(RIGHTY, "righty") \
    X(LEFTTRIGGER, "lefttrigger") \
    X(RIGHTTRIGGER, "righttrigger")
typedef enum tl_input_axis {
#define TL__INPUT_AXIS_ENUM(id, name) TL_INPUT_AXIS_##id,
    TL_INPUT_AXES(TL__INPUT_AXIS_ENUM)
#undef TL__INPUT_AXIS_ENUM
        TL_INPUT_AXIS_END_
} tl_input_axis;

/* --- actions and the map ------------------------------------------------------------------------ */

typedef enum tl_input_kind {
    TL_INPUT_KIND_BUTTON = 0,
    TL_INPUT_KIND_AXIS = 1,  /* 1D, -1..1 */
    TL_INPUT_KIND_VECTOR = 2 /* 2D, length at most 1 */
} tl_input_kind;

/* A binding's part in its action: a whole control, one side of a 1D composite, or one direction
   of a 2D composite. */
typedef enum tl_input_part {
    TL_INPUT_PART_NONE = 0,
    TL_INPUT_PART_NEGATIVE = 1,
    TL_INPUT_PART_POSITIVE = 2,
    TL_INPUT_PART_UP = 3,
    TL_INPUT_PART_DOWN = 4,
    TL_INPUT_PART_LEFT = 5,
    TL_INPUT_PART_RIGHT = 6
} tl_input_part;

typedef struct tl_input_action_info {
    uint32_t action;        /* its Dextra.Actions identity value (never 0) */
    uint32_t mode;          /* its Dextra.InputModes value */
    uint32_t kind;          /* tl_input_kind */
    uint32_t first_binding; /* its bindings: [first_binding, first_binding + binding_count) */
    uint32_t binding_count;
    const char *name; /* "Gameplay.Fire", for logs */
} tl_input_action_info;

typedef struct tl_input_binding_info {
    uint32_t control;
    uint32_t part;   /* tl_input_part */
    float threshold; /* a button action on an axis: its press point (0: the press point) */
} tl_input_binding_info;

typedef struct tl_input_glyph_info {
    uint32_t control, family, asset; /* asset: a content catalog id */
} tl_input_glyph_info;

/* What threadlink-gen bakes from an action map (all static const). */
typedef struct tl_input_map {
    const tl_input_action_info *actions;
    uint32_t action_count;
    const tl_input_binding_info *bindings;
    uint32_t binding_count;
    const tl_input_glyph_info *glyphs;
    uint32_t glyph_count;
    float dead_zone;   /* 0: 0.2 */
    float press_point; /* 0: 0.5 */
} tl_input_map;

typedef struct tl_input_vec2 {
    float x, y;
} tl_input_vec2;

/* --- events fed --------------------------------------------------------------------------------- */

typedef enum tl_input_event_type {
    TL_INPUT_EVENT_NONE = 0,
    TL_INPUT_EVENT_KEY = 1,            /* code: HID usage; value 1 down, 0 up */
    TL_INPUT_EVENT_MOUSE_BUTTON = 2,   /* code: mouse button; value 1 / 0 */
    TL_INPUT_EVENT_GAMEPAD_BUTTON = 3, /* device, code: tl_input_button; value 1 / 0 */
    TL_INPUT_EVENT_GAMEPAD_AXIS = 4,   /* device, code: tl_input_axis; value -1..1 */
    TL_INPUT_EVENT_DEVICE_ADDED = 5,   /* device, family */
    TL_INPUT_EVENT_DEVICE_REMOVED = 6  /* device */
} tl_input_event_type;

typedef struct tl_input_event {
    uint32_t type;   /* tl_input_event_type */
    uint32_t device; /* a gamepad's id, the backend's (SDL's instance id); unused for keyboard */
    uint32_t code;
    float value;
    uint32_t family; /* DEVICE_ADDED: tl_input_family (0: Gamepad) */
} tl_input_event;

/* --- results and diagnostics -------------------------------------------------------------------- */

#define TL_INPUT_RESULTS(X) \
    X(INVALID_ARGUMENT, "invalid argument") \
    X(OUT_OF_MEMORY, "out of memory") \
    X(UNKNOWN_MODE, "no action of the map is in this mode") \
    X(UNKNOWN_ACTION, "the map has no such action") \
    X(NO_SUCH_BINDING, "the action has no binding of that number") \
    X(UNKNOWN_CONTROL, "not a control") \
    X(WRONG_FAMILY, "the control is of the other device family than the binding") \
    X(KIND_MISMATCH, "the control cannot drive this binding (a stick on a button, ...)") \
    X(CONFLICT, "another binding of the mode has this control (tl_input_conflict)") \
    X(BUSY, "a capture is already waiting") \
    X(TOO_MANY_DEVICES, "more gamepads than desc.max_devices") \
    X(TOO_MANY_PROMPTS, "more prompt watchers than desc.max_prompts") \
    X(BAD_DATA, "not saved input bindings, or cut short") \
    X(NEWER_FORMAT, "saved input bindings of a newer format")
typedef enum tl_input_result {
    TL_INPUT_OK = 0,
#define TL__INPUT_RESULT_ENUM(id, message) TL_INPUT_##id,
    TL_INPUT_RESULTS(TL__INPUT_RESULT_ENUM)
#undef TL__INPUT_RESULT_ENUM
        TL_INPUT_RESULT_END_
} tl_input_result;

#define TL_INPUT_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(BAD_MAP, TL_LOG_LEVEL_ERROR, "the action map is malformed: %s") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(UNKNOWN_MODE, TL_LOG_LEVEL_ERROR, "%s: no action of the map is in mode 0x%08x") \
    X(UNKNOWN_ACTION, TL_LOG_LEVEL_ERROR, "%s: the map has no action 0x%08x") \
    X(REBIND_REFUSED, TL_LOG_LEVEL_WARNING, "%s binding %u: %s refused: %s") \
    X(TOO_MANY_DEVICES, TL_LOG_LEVEL_ERROR, "gamepad %u ignored: %u gamepads already") \
    X(TOO_MANY_PROMPTS, TL_LOG_LEVEL_ERROR, "prompt for %s refused: %u watchers already") \
    X(BAD_DATA, TL_LOG_LEVEL_ERROR, "saved bindings refused: %s") \
    X(DROPPED, TL_LOG_LEVEL_WARNING, "saved binding dropped (%s): %s") \
    X(FAMILY_CHANGED, TL_LOG_LEVEL_INFO, "device family %s -> %s")
#define TL_INPUT_LOG_BASE 0xa00u
typedef enum tl_input_log_item {
    TL_INPUT_LOG_NONE_ = TL_INPUT_LOG_BASE - 1,
#define TL__INPUT_LOG_ENUM(id, level, message) TL_INPUT_LOG_##id,
    TL_INPUT_LOG_ITEMS(TL__INPUT_LOG_ENUM)
#undef TL__INPUT_LOG_ENUM
        TL_INPUT_LOG_END_
} tl_input_log_item;

/* --- native events and modes -------------------------------------------------------------------- */

typedef struct tl_input_events {
    uint32_t device_changed; /* OnInputDeviceChanged(uint32_t) */
} tl_input_events;
#define TL_INPUT_EVENTS_INIT(prefix) \
    { prefix##OnInputDeviceChanged }
/* Its native ordinal: after platform.h's (tests/input checks it against the natives file). */
#define TL_INPUT_EVENTS_NATIVE \
    { 20 }
#define TL_INPUT_SIG_FAMILY 0xfe1b43c4u /* "(uint32_t)" */
typedef void (*tl_input_family_fn)(void *ctx, uint32_t family);

/* The native Dextra.InputModes entries' identity values (XXH32 of "native.gameplay", ...: the
   generated header's Dextra_InputModes_Gameplay, which tests/input checks). */
#define TL_INPUT_MODE_GAMEPLAY 0x6765a775u
#define TL_INPUT_MODE_MENU 0x4e55ffa0u
#define TL_INPUT_MODE_CUTSCENE 0xdaff0c9fu

/* --- the module --------------------------------------------------------------------------------- */

/* An action's state as the last update left it (tl_input_state_of; the queries read it). */
typedef struct tl_input_state {
    float x, y;  /* a vector's; an axis' value (and 0); a button's 0 or 1 (and 0) */
    float value; /* a button's 0 or 1, an axis' -1..1, a vector's length */
    bool held, pressed, released;
} tl_input_state;

/* Zero-initialised: no events published, native ordinal, stderr logging, 8 gamepads, 32 prompt
   watchers, the map's dead zone and press point (0.2 and 0.5 when it has none), the keyboard and
   mouse as the family until a meaningful input. No mode is active. */
typedef struct tl_input_desc {
    const tl_input_map *map; /* required; kept by pointer (static const) */
    tl_events *registry;
    const tl_input_events *events; /* NULL: TL_INPUT_EVENTS_NATIVE */
    const tl_logger *logger;
    uint32_t max_devices;
    uint32_t max_prompts;
    float dead_zone;
    float press_point;
    uint32_t initial_family;
} tl_input_desc;

typedef enum tl_input_capture {
    TL_INPUT_CAPTURE_NONE = 0,
    TL_INPUT_CAPTURE_WAITING = 1,
    TL_INPUT_CAPTURE_DONE = 2,     /* rebound */
    TL_INPUT_CAPTURE_CONFLICT = 3, /* the control is another binding's: tl_input_conflict */
    TL_INPUT_CAPTURE_CANCELLED = 4
} tl_input_capture;

/* Called at once and whenever the prompt's glyph changes: the asset (0: none) and the family. */
typedef void (*tl_input_prompt_fn)(void *ctx, uint32_t action, uint32_t asset, uint32_t family);

/* NULL on a bad desc or map, or no memory (logged). */
TL_API tl_input *tl_input_create(const tl_input_desc *desc);
TL_API void tl_input_destroy(tl_input *in);
/* The reason of the last call that failed. */
TL_API tl_input_result tl_input_last_result(const tl_input *in);
TL_API const char *tl_input_result_message(tl_input_result result);

/* Per frame: feed, then update once, then ask. */
TL_API tl_input_result tl_input_feed(tl_input *in, const tl_input_event *event);
/* tl_input_feed of one kind of event, without the event (a backend's per-kind callbacks, the SDL2
   adapter's switch). */
TL_API tl_input_result tl_input_feed_key(tl_input *in, uint32_t usage, bool down);
TL_API tl_input_result tl_input_feed_mouse_button(tl_input *in, uint32_t button, bool down);
TL_API tl_input_result tl_input_feed_gamepad_button(tl_input *in, uint32_t device, uint32_t button,
                                                    bool down);
TL_API tl_input_result tl_input_feed_gamepad_axis(tl_input *in, uint32_t device, uint32_t axis,
                                                  float value);
TL_API void tl_input_update(tl_input *in);

TL_API tl_input_result tl_input_set_mode_active(tl_input *in, uint32_t mode, bool active);
TL_API bool tl_input_is_mode_active(const tl_input *in, uint32_t mode);

/* Queries (static inline: see QUERIES). */
static inline const tl_input_state *tl_input_state_of(const tl_input *in, uint32_t action);
static inline bool tl_input_held(const tl_input *in, uint32_t action);
static inline bool tl_input_pressed(const tl_input *in, uint32_t action);
static inline bool tl_input_released(const tl_input *in, uint32_t action);
/* A button's 0 or 1, an axis' -1..1, a vector's length. */
static inline float tl_input_value(const tl_input *in, uint32_t action);
static inline tl_input_vec2 tl_input_vector(const tl_input *in, uint32_t action);
/* Bit i set when actions[i] was pressed at the last update (n at most 32): a menu's commands. */
TL_API uint32_t tl_input_pressed_mask(const tl_input *in, const uint32_t *actions, uint32_t n);

/* Devices. */
TL_API uint32_t tl_input_current_family(const tl_input *in);
TL_API uint32_t tl_input_device_count(const tl_input *in);
TL_API uint32_t tl_input_device_family(const tl_input *in, uint32_t device); /* 0: unknown */

/* Rebinding (see REBINDING). */
TL_API uint32_t tl_input_binding_count(const tl_input *in, uint32_t action);
TL_API uint32_t tl_input_binding_control(const tl_input *in, uint32_t action, uint32_t index);
/* The index of the action's `ordinal`-th binding of a device class (TL_INPUT_DEVICES_*), or
   UINT32_MAX. */
TL_API uint32_t tl_input_binding_find(const tl_input *in, uint32_t action, uint32_t devices,
                                      uint32_t ordinal);
TL_API tl_input_result tl_input_rebind(tl_input *in, uint32_t action, uint32_t index,
                                       uint32_t control);
/* The action whose binding refused the last rebinding (CONFLICT), else 0. */
TL_API uint32_t tl_input_conflict(const tl_input *in);
TL_API tl_input_result tl_input_capture_begin(tl_input *in, uint32_t action, uint32_t index,
                                              uint32_t cancel_control);
TL_API void tl_input_capture_cancel(tl_input *in);
TL_API tl_input_capture tl_input_capture_status(const tl_input *in);
TL_API void tl_input_reset_bindings(tl_input *in);
/* Writes the bytes (when `capacity` holds them) and returns how many they are. */
TL_API size_t tl_input_save_bindings(const tl_input *in, void *out, size_t capacity);
TL_API tl_input_result tl_input_load_bindings(tl_input *in, const void *data, size_t size);

/* Prompt glyphs. */
TL_API uint32_t tl_input_glyph(const tl_input *in, uint32_t control, uint32_t family);
TL_API uint32_t tl_input_prompt_glyph(const tl_input *in, uint32_t action);
/* A handle (never 0), or 0: tl_input_last_result. */
TL_API uint32_t tl_input_prompt_watch(tl_input *in, uint32_t action, tl_input_prompt_fn fn,
                                      void *ctx);
TL_API void tl_input_prompt_unwatch(tl_input *in, uint32_t handle);

/* --- queries (static inline) ------------------------------------------------------------------- */

/* Private: the first member of every tl_input, what the inline queries read. A table of mask + 1
   entries, at most a quarter full, open addressing: an action's state at the entry of its id (an
   empty entry's state stays at rest, for actions the map does not have). */
typedef struct tl__input_view {
    const uint32_t *ids;          /* per entry: an action's id, 0 when empty */
    const tl_input_state *states; /* per entry: that action's state */
    uint32_t mask;                /* an id's first entry: its low bits (ids are XXH32 hashes) */
} tl__input_view;
/* The entry of an id not in its first (out of line: rarely needed), from entry `at` on. */
TL_API uint32_t tl__input_find_on(const tl__input_view *view, uint32_t action, uint32_t at);

/* The state of an action (never NULL: one at rest for an action the map does not have); it
   changes at each tl_input_update, and lives until tl_input_destroy. A mask and two loads side by
   side (the state's address does not wait for the id's), nearly always without a loop (no
   multiplying hash: the ids are hashes already). */
static inline const tl_input_state *tl_input_state_of(const tl_input *in, uint32_t action) {
    static const tl_input_state rest = { 0.0f, 0.0f, 0.0f, false, false, false };
    const tl__input_view *view = (const tl__input_view *)(const void *)in;
    uint32_t at;
    if (!in) return &rest;
    at = action & view->mask;
    if (view->ids[at] == action) return &view->states[at];
    return &view->states[tl__input_find_on(view, action, at)]; /* further on, or unknown */
}

static inline bool tl_input_held(const tl_input *in, uint32_t action) {
    return tl_input_state_of(in, action)->held;
}
static inline bool tl_input_pressed(const tl_input *in, uint32_t action) {
    return tl_input_state_of(in, action)->pressed;
}
static inline bool tl_input_released(const tl_input *in, uint32_t action) {
    return tl_input_state_of(in, action)->released;
}
static inline float tl_input_value(const tl_input *in, uint32_t action) {
    return tl_input_state_of(in, action)->value;
}
static inline tl_input_vec2 tl_input_vector(const tl_input *in, uint32_t action) {
    const tl_input_state *s = tl_input_state_of(in, action);
    tl_input_vec2 v;
    v.x = s->x;
    v.y = s->y;
    return v;
}

/* --- names (static inline: the generator and backends use them without the implementation) ----- */

static inline bool tl__input_ieq(const char *a, size_t alen, const char *b) {
    size_t i;
    for (i = 0; i < alen; i++) {
        char x = a[i], y = b[i];
        if (y == '\0') return false;
        if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = (char)(y - 'A' + 'a');
        if (x != y) return false;
    }
    return b[alen] == '\0';
}

typedef struct tl__input_name {
    const char *name;
    uint32_t code;
} tl__input_name;

#define TL__INPUT_NAME_ROW(name, code) { name, code },
static inline const tl__input_name *tl__input_keys(uint32_t *count) {
    static const tl__input_name keys[] = { TL_INPUT_KEYS(TL__INPUT_NAME_ROW) };
    *count = (uint32_t)(sizeof keys / sizeof keys[0]);
    return keys;
}
static inline const tl__input_name *tl__input_mouse_buttons(uint32_t *count) {
    static const tl__input_name buttons[] = { TL_INPUT_MOUSE_BUTTONS(TL__INPUT_NAME_ROW) };
    *count = (uint32_t)(sizeof buttons / sizeof buttons[0]);
    return buttons;
}
#undef TL__INPUT_NAME_ROW
static inline const char *tl_input_button_name(uint32_t button) {
#define TL__INPUT_BUTTON_NAME(id, name) name,
    static const char *const names[] = { TL_INPUT_BUTTONS(TL__INPUT_BUTTON_NAME) };
#undef TL__INPUT_BUTTON_NAME
    return button < TL_INPUT_BUTTON_END_ ? names[button] : NULL;
}
static inline const char *tl_input_axis_name(uint32_t axis) {
#define TL__INPUT_AXIS_NAME(id, name) name,
    static const char *const names[] = { TL_INPUT_AXES(TL__INPUT_AXIS_NAME) };
#undef TL__INPUT_AXIS_NAME
    return axis < TL_INPUT_AXIS_END_ ? names[axis] : NULL;
}
static inline const char *tl_input_family_name(uint32_t family) {
#define TL__INPUT_FAMILY_NAME(id, name) name,
    static const char *const names[] = { "None", TL_INPUT_FAMILIES(TL__INPUT_FAMILY_NAME) };
#undef TL__INPUT_FAMILY_NAME
    return family < TL_INPUT_FAMILY_END_ ? names[family] : "?";
}
/* Case-insensitive; 0 (NONE) for no family. */
static inline uint32_t tl_input_family_from_name(const char *name) {
    uint32_t f;
    for (f = 1; name && f < TL_INPUT_FAMILY_END_; f++)
        if (tl__input_ieq(name, strlen(name), tl_input_family_name(f))) return f;
    return TL_INPUT_FAMILY_NONE;
}

/* The code of `name` (len bytes) in a table, or UINT32_MAX. */
static inline uint32_t tl__input_code_in(const tl__input_name *rows, uint32_t count,
                                         const char *name, size_t len) {
    uint32_t i;
    for (i = 0; i < count; i++)
        if (tl__input_ieq(name, len, rows[i].name)) return rows[i].code;
    return UINT32_MAX;
}

/* A gamepad control's name after "gamepad/": a button, an axis (with its half sign), a stick. */
static inline uint32_t tl__input_gamepad_from_name(const char *name, size_t len) {
    uint32_t i, half = 0;
    if (tl__input_ieq(name, len, "leftxy")) return TL_INPUT_CONTROL(TL_INPUT_CLASS_STICK, 0);
    if (tl__input_ieq(name, len, "rightxy")) return TL_INPUT_CONTROL(TL_INPUT_CLASS_STICK, 1);
    for (i = 0; i < TL_INPUT_BUTTON_END_; i++)
        if (tl__input_ieq(name, len, tl_input_button_name(i)))
            return TL_INPUT_CONTROL(TL_INPUT_CLASS_BUTTON, i);
    if (len > 0 && (name[len - 1] == '-' || name[len - 1] == '+')) {
        half = name[len - 1] == '-' ? TL_INPUT_HALF_NEGATIVE : TL_INPUT_HALF_POSITIVE;
        len--;
    }
    for (i = 0; i < TL_INPUT_AXIS_END_; i++)
        if (tl__input_ieq(name, len, tl_input_axis_name(i)))
            return TL_INPUT_CONTROL(TL_INPUT_CLASS_AXIS, i | half);
    return 0;
}

/* "keyboard/Space", "gamepad/leftx-", ... (case-insensitive) -> the control, or 0. */
static inline uint32_t tl_input_control_from_name(const char *name, size_t len) {
    uint32_t count, code;
    if (!name) return 0;
    if (len > 9 && tl__input_ieq(name, 9, "keyboard/")) {
        const tl__input_name *keys = tl__input_keys(&count);
        code = tl__input_code_in(keys, count, name + 9, len - 9);
        return code == UINT32_MAX ? 0 : TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, code);
    }
    if (len > 6 && tl__input_ieq(name, 6, "mouse/")) {
        const tl__input_name *buttons = tl__input_mouse_buttons(&count);
        code = tl__input_code_in(buttons, count, name + 6, len - 6);
        return code == UINT32_MAX ? 0 : TL_INPUT_CONTROL(TL_INPUT_CLASS_MOUSE, code);
    }
    if (len > 8 && tl__input_ieq(name, 8, "gamepad/"))
        return tl__input_gamepad_from_name(name + 8, len - 8);
    return 0;
}

/* The name of a key or mouse button code, or NULL. */
static inline const char *tl__input_name_of(const tl__input_name *rows, uint32_t count,
                                            uint32_t code) {
    uint32_t i;
    for (i = 0; i < count; i++)
        if (rows[i].code == code) return rows[i].name;
    return NULL;
}

/* Copies a + b into out (size bytes, at least 1), cut if need be; returns out. */
static inline const char *tl__input_join(char *out, size_t size, const char *a, const char *b,
                                         const char *c) {
    size_t at = 0;
    const char *parts[3];
    int p;
    parts[0] = a;
    parts[1] = b;
    parts[2] = c;
    for (p = 0; p < 3; p++) {
        const char *s = parts[p];
        while (s && *s && at + 1 < size) out[at++] = *s++;
    }
    out[at] = '\0';
    return out;
}

/* The control's name ("keyboard/Space", "gamepad/leftx-"), or NULL when it is not a control. */
static inline const char *tl_input_control_name(uint32_t control, char *out, size_t size) {
    uint32_t count, code = TL_INPUT_CONTROL_CODE(control), half = code & 0x300u;
    const char *name = NULL, *prefix = "gamepad/", *sign = NULL;
    const tl__input_name *rows;
    if (!out || size == 0) return NULL;
    switch (TL_INPUT_CONTROL_CLASS(control)) {
    case TL_INPUT_CLASS_KEY:
        prefix = "keyboard/";
        rows = tl__input_keys(&count);
        name = tl__input_name_of(rows, count, code);
        break;
    case TL_INPUT_CLASS_MOUSE:
        prefix = "mouse/";
        rows = tl__input_mouse_buttons(&count);
        name = tl__input_name_of(rows, count, code);
        break;
    case TL_INPUT_CLASS_BUTTON: name = tl_input_button_name(code); break;
    case TL_INPUT_CLASS_AXIS:
        name = half == 0x300u ? NULL : tl_input_axis_name(code & 0xffu);
        sign = half == TL_INPUT_HALF_NEGATIVE ? "-" : half == TL_INPUT_HALF_POSITIVE ? "+" : NULL;
        break;
    case TL_INPUT_CLASS_STICK: name = code == 0 ? "leftxy" : code == 1 ? "rightxy" : NULL; break;
    default: break;
    }
    return name ? tl__input_join(out, size, prefix, name, sign) : NULL;
}

static inline bool tl_input_control_valid(uint32_t control) {
    char name[40];
    return tl_input_control_name(control, name, sizeof name) != NULL;
}

/* TL_INPUT_DEVICES_KEYBOARD_MOUSE, TL_INPUT_DEVICES_GAMEPAD, or 0 for no control. */
static inline uint32_t tl_input_control_devices(uint32_t control) {
    uint32_t cls = TL_INPUT_CONTROL_CLASS(control);
    if (!tl_input_control_valid(control)) return 0;
    return cls <= TL_INPUT_CLASS_MOUSE ? TL_INPUT_DEVICES_KEYBOARD_MOUSE : TL_INPUT_DEVICES_GAMEPAD;
}

/* The physical inputs a control reads: up to two axis-or-button slots, each with the sides it
   reads (bit 0 the negative side or the whole, bit 1 the positive side). Shared by the overlap
   rule below and the runtime's claims. */
typedef struct tl__input_reach {
    uint32_t slot[2], sides[2], count;
} tl__input_reach;

static inline tl__input_reach tl__input_reach_of(uint32_t control) {
    tl__input_reach r;
    uint32_t code = TL_INPUT_CONTROL_CODE(control);
    memset(&r, 0, sizeof r);
    r.count = 1;
    r.sides[0] = 3u;
    r.slot[0] = control;
    if (TL_INPUT_CONTROL_CLASS(control) == TL_INPUT_CLASS_AXIS) {
        r.slot[0] = TL_INPUT_CONTROL(TL_INPUT_CLASS_AXIS, code & 0xffu);
        if (code & TL_INPUT_HALF_NEGATIVE) r.sides[0] = 1u;
        if (code & TL_INPUT_HALF_POSITIVE) r.sides[0] = 2u;
    } else if (TL_INPUT_CONTROL_CLASS(control) == TL_INPUT_CLASS_STICK) {
        r.count = 2;
        r.slot[0] = TL_INPUT_CONTROL(TL_INPUT_CLASS_AXIS, code * 2u);
        r.slot[1] = TL_INPUT_CONTROL(TL_INPUT_CLASS_AXIS, code * 2u + 1u);
        r.sides[1] = 3u;
    }
    return r;
}

/* Whether two controls read the same physical input: one key, one button, one axis (a half axis
   overlaps the whole and not the other half; a stick overlaps both its axes). */
static inline bool tl_input_controls_overlap(uint32_t a, uint32_t b) {
    tl__input_reach ra = tl__input_reach_of(a), rb = tl__input_reach_of(b);
    uint32_t i, j;
    for (i = 0; i < ra.count; i++)
        for (j = 0; j < rb.count; j++)
            if (ra.slot[i] == rb.slot[j] && (ra.sides[i] & rb.sides[j])) return true;
    return false;
}

/* Why a part does not belong to an action of `kind` (NULL: it does). */
static inline const char *tl__input_part_misfit(uint32_t kind, uint32_t part) {
    if (kind > TL_INPUT_KIND_VECTOR || part > TL_INPUT_PART_RIGHT) return "no such kind or part";
    if (kind == TL_INPUT_KIND_BUTTON && part != TL_INPUT_PART_NONE)
        return "a button action has no composite parts";
    if (kind == TL_INPUT_KIND_AXIS && part > TL_INPUT_PART_POSITIVE)
        return "an axis action's composite has negative and positive parts";
    if (kind == TL_INPUT_KIND_VECTOR && part >= TL_INPUT_PART_NEGATIVE &&
        part <= TL_INPUT_PART_POSITIVE)
        return "a vector action's composite has up, down, left and right parts";
    return NULL;
}

/* Why `control` cannot drive a binding of `part` in an action of `kind` (NULL: it can). A button
   action takes a key, a button or an axis (whole or half: with a threshold); an axis action a
   key, a button or an axis (a composite side: no whole axis); a vector action a stick, or keys,
   buttons and half axes as the sides of a composite. */
static inline const char *tl_input_binding_misfit(uint32_t kind, uint32_t part, uint32_t control) {
    uint32_t cls = TL_INPUT_CONTROL_CLASS(control);
    bool half = cls == TL_INPUT_CLASS_AXIS && (TL_INPUT_CONTROL_CODE(control) & 0x300u) != 0;
    bool whole_vector = kind == TL_INPUT_KIND_VECTOR && part == TL_INPUT_PART_NONE;
    if (!tl_input_control_valid(control)) return "not a control";
    if (tl__input_part_misfit(kind, part)) return tl__input_part_misfit(kind, part);
    if (cls == TL_INPUT_CLASS_STICK && !whole_vector)
        return "a stick drives only a vector action (a whole one, not a composite part)";
    if (whole_vector && cls != TL_INPUT_CLASS_STICK)
        return "a vector action takes a stick, or a composite of up, down, left and right";
    if (cls == TL_INPUT_CLASS_AXIS && !half && part != TL_INPUT_PART_NONE)
        return "a composite part takes a key, a button or a half axis, not a whole axis";
    return NULL;
}

/* Whether `needle` occurs in `hay`, ASCII case ignored. */
static inline bool tl__input_contains(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; hay && *hay; hay++)
        if (strlen(hay) >= n) {
            size_t i;
            for (i = 0; i < n; i++) {
                char x = hay[i], y = needle[i];
                if (x >= 'A' && x <= 'Z') x = (char)(x - 'A' + 'a');
                if (x != y) break;
            }
            if (i == n) return true;
        }
    return false;
}

/* A gamepad's family from its USB vendor (and product) id and its name: Microsoft's are Xbox,
   Sony's PlayStation, Nintendo's Switch; else the name decides ("xbox", "dualshock", "dualsense",
   "ps4", "pro controller", "joy-con", ...); else Gamepad. */
static inline uint32_t tl_input_family_guess(uint16_t vendor, uint16_t product, const char *name) {
    static const char *const xbox[] = { "xbox", "x-box", "xinput" };
    static const char *const playstation[] = { "playstation", "dualshock", "dualsense",
                                               "ps3",         "ps4",       "ps5" };
    static const char *const nintendo[] = { "nintendo", "switch", "joy-con", "pro controller" };
    size_t i;
    (void)product;
    if (vendor == 0x045eu) return TL_INPUT_FAMILY_XBOX;
    if (vendor == 0x054cu) return TL_INPUT_FAMILY_PLAYSTATION;
    if (vendor == 0x057eu) return TL_INPUT_FAMILY_SWITCH;
    for (i = 0; i < sizeof xbox / sizeof xbox[0]; i++)
        if (tl__input_contains(name, xbox[i])) return TL_INPUT_FAMILY_XBOX;
    for (i = 0; i < sizeof playstation / sizeof playstation[0]; i++)
        if (tl__input_contains(name, playstation[i])) return TL_INPUT_FAMILY_PLAYSTATION;
    for (i = 0; i < sizeof nintendo / sizeof nintendo[0]; i++)
        if (tl__input_contains(name, nintendo[i])) return TL_INPUT_FAMILY_SWITCH;
    return TL_INPUT_FAMILY_GAMEPAD;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_INPUT_H */

/* ------------------------------------------------------------------------------------------------ */
#if defined(TL_INPUT_IMPL) && !defined(TL__INPUT_IMPLEMENTED)
#define TL__INPUT_IMPLEMENTED
/* Again here, for the usage block's order (include, define, include). */
#include "log.h"
#include "events.h"
#include <stdarg.h>
#include <string.h>
#if defined(__SSE__) || defined(_M_X64) || defined(_M_AMD64) || \
    (defined(_M_IX86_FP) && _M_IX86_FP >= 1)
#include <xmmintrin.h> /* the square root instruction (tl__input_sqrt) */
#define TL__INPUT_SSE 1
#else
#define TL__INPUT_SSE 0
#endif
#ifndef TL_MALLOC
#include <stdlib.h>
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TL__INPUT_MODULE "Input"
/* A step of every event fed, inlined into each per-kind feed where the compiler can be told so
   (a call less per event). */
#if defined(__GNUC__) || defined(__clang__)
#define TL__INPUT_INLINE static inline __attribute__((always_inline))
#else
#define TL__INPUT_INLINE static inline
#endif
/* Slots of the physical inputs: keys by usage, then mouse buttons, gamepad buttons, axes. */
#define TL__INPUT_MOUSE_BASE 256u
#define TL__INPUT_BUTTON_BASE 264u
#define TL__INPUT_AXIS_BASE 296u
#define TL__INPUT_SLOTS 304u
#define TL__INPUT_NONE UINT32_MAX
/* Binding flags. */
#define TL__INPUT_LIVE 1u    /* its mode is active and no higher mode claims its control */
#define TL__INPUT_LATCHED 2u /* active when it went live: ignored until released */
/* The saved bindings' bytes. */
#define TL__INPUT_SAVE_MAGIC "TLIB"
#define TL__INPUT_SAVE_FORMAT 1u
#define TL__INPUT_SAVE_HEADER 12u
#define TL__INPUT_SAVE_ENTRY 12u

/* The directions an action's bindings add to (an axis action: right, positive, and left). */
#define TL__INPUT_RIGHT 0u
#define TL__INPUT_LEFT 1u
#define TL__INPUT_DOWN 2u
#define TL__INPUT_UP 3u

/* How a binding reads its slot (set with its control, so the update need not decode it). */
typedef enum tl__input_read {
    TL__INPUT_READ_DIGITAL = 0, /* a key, mouse button or gamepad button: 0 or 1 */
    TL__INPUT_READ_AXIS,        /* a whole axis */
    TL__INPUT_READ_NEGATIVE,    /* an axis' negative half */
    TL__INPUT_READ_POSITIVE,    /* an axis' positive half */
    TL__INPUT_READ_STICK        /* two axes, slot and slot + 1 */
} tl__input_read;

typedef struct tl__input_binding {
    uint32_t control, default_control;
    float threshold;
    float point;     /* the level at which it is active: its threshold, else the press point */
    uint32_t action; /* index of its action */
    uint32_t part;
    uint32_t flags;
    uint32_t slot; /* its (first) slot */
    uint32_t read; /* tl__input_read */
    uint32_t dir;  /* the direction its part adds to (TL__INPUT_RIGHT, ...) */
} tl__input_binding;

typedef struct tl__input_action {
    uint32_t id, mode; /* mode: index into the modes */
    uint32_t kind, first, count;
    const char *name;
    uint32_t entry; /* its id's and state's entry in the view */
} tl__input_action;

typedef struct tl__input_slot {
    float value;      /* the aggregate: 0 / 1 for keys and buttons, -1..1 for axes */
    uint32_t downs;   /* times it went down since the last update */
    uint32_t holders; /* gamepad buttons: devices holding it */
    uint32_t first;   /* its first listener + 1 (0: none) */
    uint32_t claims;  /* sides claimed by a higher mode (tl__input_reach's sides) */
    bool touched;
} tl__input_slot;

typedef struct tl__input_listener {
    uint32_t binding, action, next; /* action: the binding's; next: listener + 1 */
} tl__input_listener;

typedef struct tl__input_mode {
    uint32_t id, stamp;
    bool active;
} tl__input_mode;

typedef struct tl__input_device {
    uint32_t id, family, buttons;
    float axes[TL_INPUT_AXIS_END_];
    bool used;
} tl__input_device;

typedef struct tl__input_prompt {
    uint32_t action, asset, family;
    tl_input_prompt_fn fn;
    void *ctx;
    bool used;
} tl__input_prompt;

struct tl_input {
    tl__input_view view;    /* first: the inline queries read it */
    uint32_t *ids;          /* the view's, writable */
    tl_input_state *states; /* the view's, writable */
    uint32_t *entry_action; /* per entry: its action's index, TL__INPUT_NONE when empty */
    const tl_input_map *map;
    tl_events *registry;
    tl_input_events events;
    tl_logger logger;
    float dead_zone, press_point;
    float live_scale; /* 1 / (1 - dead_zone): the rescaling past the dead zone, a multiplication */
    tl__input_action *actions;
    uint32_t action_count;
    tl__input_binding *bindings;
    uint32_t binding_count;
    tl__input_mode *modes;
    uint32_t mode_count, stamp;
    tl__input_slot slots[TL__INPUT_SLOTS];
    tl__input_listener *listeners;
    uint32_t listener_count;
    uint64_t *dirty;              /* a bit per action to evaluate at the next update */
    uint32_t *edged, edged_count; /* actions whose edges the next update clears */
    uint32_t touched[TL__INPUT_SLOTS], touched_count;
    tl__input_device *devices;
    uint32_t max_devices, devices_used;
    uint32_t
        refused; /* the last gamepad refused for want of a slot, + 1: logged once, not per event */
    tl__input_prompt *prompts;
    uint32_t max_prompts;
    uint32_t family, published; /* the last meaningful input's family; the one announced */
    uint32_t capture, capture_action, capture_binding, capture_cancel;
    uint32_t conflict;
    tl_input_result result;
};

TL_LOG_TABLE_FN(tl__input_log, TL_INPUT_LOG_ITEMS, TL_INPUT_LOG_BASE, TL__INPUT_MODULE)

/* Records the result of a call (and returns it). */
static tl_input_result tl__input_set(tl_input *in, tl_input_result r) {
    if (in) in->result = r;
    return r;
}

TL_API tl_input_result tl_input_last_result(const tl_input *in) {
    return in ? in->result : TL_INPUT_INVALID_ARGUMENT;
}

TL_RESULT_MESSAGE_FN(tl_input_result_message, tl_input_result, TL_INPUT_RESULTS)

/* --- small helpers ------------------------------------------------------------------------------ */

static float tl__input_abs(float v) { return v < 0.0f ? -v : v; }
static float tl__input_max(float a, float b) { return a > b ? a : b; }

/* The float after (step 1) or before (step -1) a positive finite float. */
static inline float tl__input_float_step(float v, int step) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits = step > 0 ? bits + 1u : bits - 1u;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The float nearest the square root of v > 0 in plain C (no libm), IEEE's sqrt to the bit:
   Newton's method in double from a guess within a few per cent, rounded to a float, then moved
   to its neighbour if the square root lies beyond the midpoint between them (a midpoint has 25
   bits: it squares exactly in a double, and a float never equals such a square, so no ties). */
static inline double tl__input_mid_square(float a, float b) {
    double m = ((double)a + (double)b) * 0.5; /* exact: the sum of two neighbours, halved */
    return m * m;                             /* exact: 25 bits squared */
}

static inline float tl__input_sqrt_exact(float v) {
    double d = (double)v, y;
    uint64_t bits;
    float r, next;
    int i;
    memcpy(&bits, &d, sizeof bits);
    bits = (bits >> 1) + 0x1ff8000000000000u; /* the exponent halved */
    memcpy(&y, &bits, sizeof y);
    for (i = 0; i < 4; i++) y = 0.5 * (y + d / y);
    r = (float)y;
    next = tl__input_float_step(r, 1);
    if (d > tl__input_mid_square(r, next)) return next;
    next = tl__input_float_step(r, -1);
    if (d < tl__input_mid_square(r, next)) return next;
    return r;
}

/* A square root with the same bits on every machine (0 for v <= 0): SSE's sqrtss where there is
   one (correctly rounded, as IEEE 754 requires), else tl__input_sqrt_exact. */
static float tl__input_sqrt(float v) {
    if (!(v > 0.0f)) return 0.0f;
#if TL__INPUT_SSE
    return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(v)));
#else
    return tl__input_sqrt_exact(v);
#endif
}

/* An axis after the axial dead zone, rescaled so that its range starts at 0. */
static float tl__input_axial(const tl_input *in, float v) {
    float m = tl__input_abs(v);
    if (m <= in->dead_zone) return 0.0f;
    m = (m - in->dead_zone) * in->live_scale;
    if (m > 1.0f) m = 1.0f;
    return v < 0.0f ? -m : m;
}

/* A stick after the radial dead zone, likewise rescaled, its length at most 1. */
static tl_input_vec2 tl__input_radial(const tl_input *in, float x, float y) {
    tl_input_vec2 out = { 0.0f, 0.0f };
    float len = tl__input_sqrt(x * x + y * y), scaled;
    if (len <= in->dead_zone) return out;
    scaled = (len - in->dead_zone) * in->live_scale;
    if (scaled > 1.0f) scaled = 1.0f;
    scaled /= len;
    out.x = x * scaled;
    out.y = y * scaled;
    return out;
}

/* The slot of a key, mouse button, gamepad button or (whole) axis control, or TL__INPUT_NONE. */
static uint32_t tl__input_slot_index(uint32_t control) {
    uint32_t code = TL_INPUT_CONTROL_CODE(control);
    switch (TL_INPUT_CONTROL_CLASS(control)) {
    case TL_INPUT_CLASS_KEY: return code < TL__INPUT_MOUSE_BASE ? code : TL__INPUT_NONE;
    case TL_INPUT_CLASS_MOUSE: return code < 8u ? TL__INPUT_MOUSE_BASE + code : TL__INPUT_NONE;
    case TL_INPUT_CLASS_BUTTON: return code < 32u ? TL__INPUT_BUTTON_BASE + code : TL__INPUT_NONE;
    case TL_INPUT_CLASS_AXIS:
        return (code & 0xffu) < 8u ? TL__INPUT_AXIS_BASE + (code & 0xffu) : TL__INPUT_NONE;
    default: return TL__INPUT_NONE;
    }
}

TL_API uint32_t tl__input_find_on(const tl__input_view *view, uint32_t action, uint32_t at) {
    while (view->ids[at] != action && view->ids[at] != 0) at = (at + 1u) & view->mask;
    return at;
}

/* The action's index, or TL__INPUT_NONE. */
static uint32_t tl__input_find(const tl_input *in, uint32_t action) {
    return in->entry_action[tl_input_state_of(in, action) - in->states];
}

static uint32_t tl__input_mode_index(const tl_input *in, uint32_t mode) {
    uint32_t i;
    for (i = 0; i < in->mode_count; i++)
        if (in->modes[i].id == mode) return i;
    return TL__INPUT_NONE;
}

/* --- levels and contributions ------------------------------------------------------------------- */

/* Sets what the update reads of a binding from its control and threshold (after either changed). */
static void tl__input_compile(const tl_input *in, tl__input_binding *b) {
    uint32_t code = TL_INPUT_CONTROL_CODE(b->control);
    b->point = b->threshold > 0.0f ? b->threshold : in->press_point;
    b->dir = b->part == TL_INPUT_PART_NEGATIVE || b->part == TL_INPUT_PART_LEFT ? TL__INPUT_LEFT
             : b->part == TL_INPUT_PART_DOWN                                    ? TL__INPUT_DOWN
             : b->part == TL_INPUT_PART_UP                                      ? TL__INPUT_UP
                                                                                : TL__INPUT_RIGHT;
    b->read = TL__INPUT_READ_DIGITAL;
    if (TL_INPUT_CONTROL_CLASS(b->control) == TL_INPUT_CLASS_STICK) {
        b->read = TL__INPUT_READ_STICK;
        b->slot = TL__INPUT_AXIS_BASE + code * 2u;
        return;
    }
    b->slot = tl__input_slot_index(b->control);
    if (TL_INPUT_CONTROL_CLASS(b->control) != TL_INPUT_CLASS_AXIS) return;
    b->read = code & TL_INPUT_HALF_NEGATIVE   ? TL__INPUT_READ_NEGATIVE
              : code & TL_INPUT_HALF_POSITIVE ? TL__INPUT_READ_POSITIVE
                                              : TL__INPUT_READ_AXIS;
}

static tl_input_vec2 tl__input_stick(const tl_input *in, const tl__input_binding *b) {
    return tl__input_radial(in, in->slots[b->slot].value, in->slots[b->slot + 1u].value);
}

/* A binding's level in its own direction, 0..1, after the dead zone. */
static float tl__input_level(const tl_input *in, const tl__input_binding *b) {
    float v = in->slots[b->slot].value;
    tl_input_vec2 s;
    switch (b->read) {
    case TL__INPUT_READ_DIGITAL: return v;
    case TL__INPUT_READ_STICK:
        s = tl__input_stick(in, b);
        return tl__input_sqrt(s.x * s.x + s.y * s.y);
    default: break;
    }
    v = tl__input_axial(in, v);
    if (b->read == TL__INPUT_READ_NEGATIVE) return v < 0.0f ? -v : 0.0f;
    if (b->read == TL__INPUT_READ_POSITIVE) return v > 0.0f ? v : 0.0f;
    return tl__input_abs(v);
}

static bool tl__input_active(const tl_input *in, const tl__input_binding *b) {
    return tl__input_level(in, b) >= b->point;
}

/* What an action's bindings add up to, per direction. */
typedef struct tl__input_sum {
    float dir[4]; /* TL__INPUT_RIGHT ... */
    bool any, tap;
} tl__input_sum;

/* A whole axis or a stick bound without a part: its signed value goes to both directions. */
static void tl__input_add_signed(const tl_input *in, const tl__input_binding *b, tl__input_sum *s) {
    tl_input_vec2 v;
    if (b->read == TL__INPUT_READ_STICK) {
        v = tl__input_stick(in, b);
    } else {
        v.x = tl__input_axial(in, in->slots[b->slot].value);
        v.y = 0.0f;
    }
    s->dir[TL__INPUT_RIGHT] = tl__input_max(s->dir[TL__INPUT_RIGHT], v.x);
    s->dir[TL__INPUT_LEFT] = tl__input_max(s->dir[TL__INPUT_LEFT], -v.x);
    s->dir[TL__INPUT_DOWN] = tl__input_max(s->dir[TL__INPUT_DOWN], v.y);
    s->dir[TL__INPUT_UP] = tl__input_max(s->dir[TL__INPUT_UP], -v.y);
}

/* An axis or vector action's binding: its level in its part's direction (a whole axis or stick
   both ways). */
static void tl__input_contribute(const tl_input *in, const tl__input_binding *b, tl__input_sum *s) {
    float level;
    if (b->read == TL__INPUT_READ_DIGITAL) {
        level = in->slots[b->slot].value;
        s->tap |= level < b->point && in->slots[b->slot].downs > 0;
    } else if ((b->read == TL__INPUT_READ_AXIS || b->read == TL__INPUT_READ_STICK) &&
               b->part == TL_INPUT_PART_NONE) {
        tl__input_add_signed(in, b, s);
        return;
    } else {
        level = tl__input_level(in, b);
    }
    s->dir[b->dir] = tl__input_max(s->dir[b->dir], level);
}

/* A button action's live bindings (a latched one is not yet live): whether one holds it, and
   whether a key or button went down and is up again since the last update (a tap). */
static tl__input_sum tl__input_sum_button(const tl_input *in, const tl__input_action *a) {
    tl__input_sum s;
    uint32_t i, end = a->first + a->count;
    memset(&s, 0, sizeof s);
    for (i = a->first; i < end; i++) {
        const tl__input_binding *b = &in->bindings[i];
        bool active;
        if ((b->flags & (TL__INPUT_LIVE | TL__INPUT_LATCHED)) != TL__INPUT_LIVE) continue;
        active = (b->read == TL__INPUT_READ_DIGITAL ? in->slots[b->slot].value
                                                    : tl__input_level(in, b)) >= b->point;
        s.any |= active;
        s.tap |= b->read == TL__INPUT_READ_DIGITAL && !active && in->slots[b->slot].downs > 0;
    }
    return s;
}

/* An axis or vector action's live bindings summed per direction. */
static tl__input_sum tl__input_sum_of(const tl_input *in, const tl__input_action *a) {
    tl__input_sum s;
    uint32_t i, end = a->first + a->count;
    memset(&s, 0, sizeof s);
    for (i = a->first; i < end; i++) {
        const tl__input_binding *b = &in->bindings[i];
        if ((b->flags & (TL__INPUT_LIVE | TL__INPUT_LATCHED)) == TL__INPUT_LIVE)
            tl__input_contribute(in, b, &s);
    }
    return s;
}

/* Sets the action's state from its live bindings, and its edges against the state before. The
   state is worked out in locals and stored once (reading back flags just stored byte by byte
   stalls the store buffer). */
static void tl__input_evaluate(tl_input *in, uint32_t action) {
    const tl__input_action *a = &in->actions[action];
    tl_input_state *st = &in->states[a->entry];
    tl__input_sum s =
        a->kind == TL_INPUT_KIND_BUTTON ? tl__input_sum_button(in, a) : tl__input_sum_of(in, a);
    bool was = st->held, held, tap;
    float x = s.dir[TL__INPUT_RIGHT] - s.dir[TL__INPUT_LEFT];
    float y = s.dir[TL__INPUT_DOWN] - s.dir[TL__INPUT_UP], len;
    if (a->kind == TL_INPUT_KIND_BUTTON) {
        held = s.any;
        x = len = held ? 1.0f : 0.0f;
        y = 0.0f;
    } else if (a->kind == TL_INPUT_KIND_AXIS) {
        y = 0.0f;
        len = tl__input_abs(x); /* at most 1: each side is */
        held = len >= in->press_point;
    } else {
        len = tl__input_sqrt(x * x + y * y);
        if (len > 1.0f) {
            x /= len;
            y /= len;
            len = 1.0f;
        }
        held = len >= in->press_point;
    }
    tap = s.tap && !held && !was;
    st->x = x;
    st->y = y;
    st->value = a->kind == TL_INPUT_KIND_VECTOR ? len : x;
    st->held = held;
    st->pressed = (held && !was) || tap;
    st->released = (!held && was) || tap;
    if (held != was || tap) in->edged[in->edged_count++] = action;
}

/* The action is evaluated at the next update (a bit per action: no test, no list). */
static void tl__input_mark(tl_input *in, uint32_t action) {
    in->dirty[action >> 6] |= (uint64_t)1 << (action & 63u);
}

static void tl__input_mark_none(tl_input *in) {
    memset(in->dirty, 0, ((in->action_count + 63u) >> 6) * sizeof *in->dirty);
}

static uint32_t tl__input_lowest_bit(uint64_t bits) {
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(bits);
#else
    uint32_t n = 0;
    for (; !(bits & 1u); bits >>= 1) n++;
    return n;
#endif
}

/* A slot changed: its listeners' actions are evaluated at the next update, and a latched binding
   that came to rest is released from its latch. */
TL__INPUT_INLINE void tl__input_slot_changed(tl_input *in, uint32_t slot) {
    uint32_t l = in->slots[slot].first;
    if (!in->slots[slot].touched) {
        in->slots[slot].touched = true;
        in->touched[in->touched_count++] = slot;
    }
    for (; l; l = in->listeners[l - 1].next) {
        const tl__input_listener *x = &in->listeners[l - 1];
        tl__input_binding *b = &in->bindings[x->binding];
        if ((b->flags & TL__INPUT_LATCHED) && !tl__input_active(in, b))
            b->flags &= ~TL__INPUT_LATCHED;
        tl__input_mark(in, x->action);
    }
}

/* --- modes: which bindings are live ------------------------------------------------------------- */

/* Whether a higher mode claimed any side of the binding's control; claim = also claim them. */
static bool tl__input_claimed(tl_input *in, const tl__input_binding *b, bool claim) {
    tl__input_reach r = tl__input_reach_of(b->control);
    uint32_t i;
    bool taken = false;
    for (i = 0; i < r.count; i++) {
        uint32_t slot = tl__input_slot_index(r.slot[i]);
        if (slot == TL__INPUT_NONE) continue;
        if (in->slots[slot].claims & r.sides[i]) taken = true;
        if (claim) in->slots[slot].claims |= r.sides[i];
    }
    return taken;
}

/* The live flags of one mode's bindings against the claims of the modes above it, then its
   claims. A binding that goes live while its control is active is latched. */
static void tl__input_settle_mode(tl_input *in, uint32_t mode) {
    uint32_t a, i, pass;
    for (pass = 0; pass < 2; pass++)
        for (a = 0; a < in->action_count; a++) {
            const tl__input_action *act = &in->actions[a];
            if (act->mode != mode) continue;
            for (i = act->first; i < act->first + act->count; i++) {
                tl__input_binding *b = &in->bindings[i];
                bool was = (b->flags & TL__INPUT_LIVE) != 0;
                if (pass == 1) {
                    if (was) (void)tl__input_claimed(in, b, true);
                    continue;
                }
                b->flags &= ~TL__INPUT_LIVE;
                if (!in->modes[mode].active || tl__input_claimed(in, b, false)) {
                    b->flags &= ~TL__INPUT_LATCHED;
                    continue;
                }
                b->flags |= TL__INPUT_LIVE;
                if (!was && tl__input_active(in, b)) b->flags |= TL__INPUT_LATCHED;
            }
        }
}

static void tl__input_listen(tl_input *in) {
    uint32_t i, k, s;
    for (s = 0; s < TL__INPUT_SLOTS; s++) in->slots[s].first = 0;
    in->listener_count = 0;
    for (i = 0; i < in->binding_count; i++) {
        tl__input_reach r = tl__input_reach_of(in->bindings[i].control);
        if (!(in->bindings[i].flags & TL__INPUT_LIVE)) continue;
        for (k = 0; k < r.count; k++) {
            uint32_t slot = tl__input_slot_index(r.slot[k]);
            tl__input_listener *l = &in->listeners[in->listener_count++];
            l->binding = i;
            l->action = in->bindings[i].action;
            l->next = in->slots[slot].first;
            in->slots[slot].first = in->listener_count;
        }
    }
}

/* After a mode change or a rebinding: live flags from the most recently activated mode down,
   the listeners again, every action evaluated at the next update. */
static void tl__input_recompute(tl_input *in) {
    uint32_t s, m, done, top = UINT32_MAX;
    for (s = 0; s < TL__INPUT_SLOTS; s++) in->slots[s].claims = 0;
    for (done = 0; done < in->mode_count; done++) {
        uint32_t best = TL__INPUT_NONE;
        for (m = 0; m < in->mode_count; m++) {
            uint32_t stamp = in->modes[m].active ? in->modes[m].stamp : 0;
            if (stamp < top && (best == TL__INPUT_NONE || stamp > in->modes[best].stamp)) best = m;
        }
        if (best == TL__INPUT_NONE) break;
        top = in->modes[best].active ? in->modes[best].stamp : 0;
        tl__input_settle_mode(in, best);
        if (top == 0) {
            for (m = 0; m < in->mode_count; m++)
                if (!in->modes[m].active) tl__input_settle_mode(in, m);
            break;
        }
    }
    tl__input_listen(in);
    for (m = 0; m < in->action_count; m++) tl__input_mark(in, m);
}

TL_API tl_input_result tl_input_set_mode_active(tl_input *in, uint32_t mode, bool active) {
    uint32_t m;
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    m = tl__input_mode_index(in, mode);
    if (m == TL__INPUT_NONE) {
        tl__input_log(&in->logger, TL_INPUT_LOG_UNKNOWN_MODE, "set_mode_active", (unsigned)mode);
        return tl__input_set(in, TL_INPUT_UNKNOWN_MODE);
    }
    if (in->modes[m].active != active) {
        in->modes[m].active = active;
        if (active) in->modes[m].stamp = ++in->stamp;
        tl__input_recompute(in);
    }
    return tl__input_set(in, TL_INPUT_OK);
}

TL_API bool tl_input_is_mode_active(const tl_input *in, uint32_t mode) {
    uint32_t m = in ? tl__input_mode_index(in, mode) : TL__INPUT_NONE;
    return m != TL__INPUT_NONE && in->modes[m].active;
}

/* --- create and destroy ------------------------------------------------------------------------- */

/* Why the map cannot be used, or NULL. */
static const char *tl__input_map_problem(const tl_input_map *map) {
    uint32_t a, b;
    if (!map || (map->action_count && !map->actions) || (map->binding_count && !map->bindings) ||
        (map->glyph_count && !map->glyphs))
        return "a count without its table";
    for (a = 0; a < map->action_count; a++) {
        const tl_input_action_info *info = &map->actions[a];
        if (info->action == 0) return "an action with the value 0";
        if (info->first_binding > map->binding_count ||
            info->binding_count > map->binding_count - info->first_binding)
            return "an action's bindings outside the binding table";
        for (b = info->first_binding; b < info->first_binding + info->binding_count; b++)
            if (tl_input_binding_misfit(info->kind, map->bindings[b].part,
                                        map->bindings[b].control))
                return tl_input_binding_misfit(info->kind, map->bindings[b].part,
                                               map->bindings[b].control);
    }
    return NULL;
}

static void *tl__input_alloc(tl_input *in, size_t count, size_t size, const char *what) {
    void *p = TL_MALLOC(count ? count * size : 1);
    if (!p) tl__input_log(&in->logger, TL_INPUT_LOG_OUT_OF_MEMORY, what);
    else memset(p, 0, count ? count * size : 1);
    return p;
}

/* The action table, each action's mode and the mode list. False on a repeated action. */
static bool tl__input_index_actions(tl_input *in) {
    uint32_t a, cap = 16;
    while (cap < in->action_count * 4u) cap *= 2u;
    in->view.mask = cap - 1u;
    in->view.ids = in->ids = (uint32_t *)tl__input_alloc(in, cap, sizeof *in->ids, "action table");
    in->view.states = in->states =
        (tl_input_state *)tl__input_alloc(in, cap, sizeof *in->states, "action table");
    in->entry_action = (uint32_t *)tl__input_alloc(in, cap, sizeof(uint32_t), "action table");
    if (!in->ids || !in->states || !in->entry_action) return false;
    for (a = 0; a < cap; a++) in->entry_action[a] = TL__INPUT_NONE;
    for (a = 0; a < in->action_count; a++) {
        const tl_input_action_info *info = &in->map->actions[a];
        uint32_t at = tl__input_find_on(&in->view, info->action, info->action & in->view.mask), m;
        if (in->ids[at]) {
            tl__input_log(&in->logger, TL_INPUT_LOG_BAD_MAP, "an action listed twice");
            return false;
        }
        in->ids[at] = info->action;
        in->entry_action[at] = a;
        in->actions[a].entry = at;
        m = tl__input_mode_index(in, info->mode);
        if (m == TL__INPUT_NONE) in->modes[m = in->mode_count++].id = info->mode;
        in->actions[a].id = info->action;
        in->actions[a].mode = m;
        in->actions[a].kind = info->kind;
        in->actions[a].first = info->first_binding;
        in->actions[a].count = info->binding_count;
        in->actions[a].name = info->name ? info->name : "?";
    }
    return true;
}

static void tl__input_default_bindings(tl_input *in) {
    uint32_t a, b;
    for (a = 0; a < in->action_count; a++)
        for (b = in->actions[a].first; b < in->actions[a].first + in->actions[a].count; b++) {
            tl__input_binding *x = &in->bindings[b];
            x->control = x->default_control = in->map->bindings[b].control;
            x->threshold = in->map->bindings[b].threshold;
            x->part = in->map->bindings[b].part;
            x->action = a;
            tl__input_compile(in, x);
        }
}

static bool tl__input_allocate(tl_input *in) {
    uint32_t n = in->action_count, nb = in->binding_count;
    in->actions = (tl__input_action *)tl__input_alloc(in, n, sizeof *in->actions, "actions");
    in->bindings = (tl__input_binding *)tl__input_alloc(in, nb, sizeof *in->bindings, "bindings");
    in->modes = (tl__input_mode *)tl__input_alloc(in, n, sizeof *in->modes, "modes");
    in->listeners =
        (tl__input_listener *)tl__input_alloc(in, nb * 2u, sizeof *in->listeners, "listeners");
    in->dirty = (uint64_t *)tl__input_alloc(in, (n + 63u) >> 6, sizeof *in->dirty, "actions");
    in->edged = (uint32_t *)tl__input_alloc(in, n, sizeof(uint32_t), "actions");
    in->devices =
        (tl__input_device *)tl__input_alloc(in, in->max_devices, sizeof *in->devices, "devices");
    in->prompts =
        (tl__input_prompt *)tl__input_alloc(in, in->max_prompts, sizeof *in->prompts, "prompts");
    return in->actions && in->bindings && in->modes && in->listeners && in->dirty && in->edged &&
           in->devices && in->prompts;
}

/* The desc's defaults, applied in one place. */
static void tl__input_apply_desc(tl_input *in, const tl_input_desc *desc) {
    static const tl_input_events natives = TL_INPUT_EVENTS_NATIVE;
    const tl_input_map *map = desc->map;
    in->map = map;
    in->registry = desc->registry;
    in->events = desc->events ? *desc->events : natives;
    if (!desc->events && !tl_events_natives_declared(in->registry, 20u, 20u, "Input"))
        in->registry = NULL;
    if (desc->logger) in->logger = *desc->logger;
    in->dead_zone = desc->dead_zone > 0.0f         ? desc->dead_zone
                    : map && map->dead_zone > 0.0f ? map->dead_zone
                                                   : 0.2f;
    if (in->dead_zone >= 1.0f) in->dead_zone = 0.2f;
    in->live_scale = 1.0f / (1.0f - in->dead_zone);
    in->press_point = desc->press_point > 0.0f         ? desc->press_point
                      : map && map->press_point > 0.0f ? map->press_point
                                                       : 0.5f;
    in->max_devices = desc->max_devices ? desc->max_devices : 8u;
    in->max_prompts = desc->max_prompts ? desc->max_prompts : 32u;
    in->family = in->published = desc->initial_family && desc->initial_family < TL_INPUT_FAMILY_END_
                                     ? desc->initial_family
                                     : (uint32_t)TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD;
}

TL_API tl_input *tl_input_create(const tl_input_desc *desc) {
    tl_input *in;
    const char *problem;
    if (!desc || !desc->map) { /* no map is not a malformed one */
        tl__input_log(desc ? desc->logger : NULL, TL_INPUT_LOG_INVALID_ARGUMENT,
                      desc ? "tl_input_create (desc.map is required: the generated input_map())"
                           : "tl_input_create (no desc)");
        return NULL;
    }
    problem = tl__input_map_problem(desc->map);
    if (problem) {
        tl__input_log(desc->logger, TL_INPUT_LOG_BAD_MAP, problem);
        return NULL;
    }
    in = (tl_input *)TL_MALLOC(sizeof *in);
    if (!in) {
        tl__input_log(desc->logger, TL_INPUT_LOG_OUT_OF_MEMORY, "tl_input");
        return NULL;
    }
    memset(in, 0, sizeof *in);
    tl__input_apply_desc(in, desc);
    in->action_count = desc->map->action_count;
    in->binding_count = desc->map->binding_count;
    if (!tl__input_allocate(in) || !tl__input_index_actions(in)) {
        tl_input_destroy(in);
        return NULL;
    }
    tl__input_default_bindings(in);
    return in;
}

TL_API void tl_input_destroy(tl_input *in) {
    if (!in) return;
    TL_FREE(in->actions);
    TL_FREE(in->states);
    TL_FREE(in->bindings);
    TL_FREE(in->modes);
    TL_FREE(in->listeners);
    TL_FREE(in->dirty);
    TL_FREE(in->edged);
    TL_FREE(in->devices);
    TL_FREE(in->prompts);
    TL_FREE(in->ids);
    TL_FREE(in->entry_action);
    TL_FREE(in);
}

/* --- feeding ------------------------------------------------------------------------------------ */

static void tl__input_meaningful(tl_input *in, uint32_t family) {
    if (family) in->family = family;
}

/* A key or mouse button (one device: the keyboard and mouse). */
static tl_input_result tl__input_feed_digital(tl_input *in, uint32_t slot, bool down) {
    bool was = in->slots[slot].value > 0.5f;
    if (down == was) return TL_INPUT_OK; /* a repeat */
    in->slots[slot].value = down ? 1.0f : 0.0f;
    if (down) {
        in->slots[slot].downs++;
        tl__input_meaningful(in, TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD);
    }
    tl__input_slot_changed(in, slot);
    return TL_INPUT_OK;
}

TL_API tl_input_result tl_input_feed_key(tl_input *in, uint32_t usage, bool down) {
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    if (usage >= TL__INPUT_MOUSE_BASE) return TL_INPUT_UNKNOWN_CONTROL;
    return tl__input_feed_digital(in, usage, down);
}

TL_API tl_input_result tl_input_feed_mouse_button(tl_input *in, uint32_t button, bool down) {
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    if (button >= 8u) return TL_INPUT_UNKNOWN_CONTROL;
    return tl__input_feed_digital(in, TL__INPUT_MOUSE_BASE + button, down);
}

static tl__input_device *tl__input_device_of(tl_input *in, uint32_t id) {
    uint32_t i;
    for (i = 0; i < in->max_devices; i++)
        if (in->devices[i].used && in->devices[i].id == id) return &in->devices[i];
    return NULL;
}

static void tl__input_set_button(tl_input *in, tl__input_device *d, uint32_t button, bool down) {
    uint32_t slot = TL__INPUT_BUTTON_BASE + button, bit = 1u << button;
    if (((d->buttons & bit) != 0) == down) return;
    d->buttons ^= bit;
    in->slots[slot].holders = down ? in->slots[slot].holders + 1u : in->slots[slot].holders - 1u;
    if ((in->slots[slot].holders > 0) == (in->slots[slot].value > 0.5f)) return;
    in->slots[slot].value = in->slots[slot].holders > 0 ? 1.0f : 0.0f;
    if (down) in->slots[slot].downs++;
    tl__input_slot_changed(in, slot);
}

/* The axis' aggregate: the value of largest magnitude over the gamepads. */
static void tl__input_set_axis(tl_input *in, tl__input_device *d, uint32_t axis, float value) {
    uint32_t i, slot = TL__INPUT_AXIS_BASE + axis;
    float best = 0.0f;
    d->axes[axis] = value < -1.0f ? -1.0f : value > 1.0f ? 1.0f : value;
    if (in->devices_used == 1u && tl__input_abs(d->axes[axis]) > 0.0f) best = d->axes[axis];
    for (i = 0; in->devices_used > 1u && i < in->max_devices; i++)
        if (in->devices[i].used && tl__input_abs(in->devices[i].axes[axis]) > tl__input_abs(best))
            best = in->devices[i].axes[axis];
    if (!(best < in->slots[slot].value || best > in->slots[slot].value)) return;
    in->slots[slot].value = best;
    tl__input_slot_changed(in, slot);
}

static tl_input_result tl__input_add_device(tl_input *in, uint32_t id, uint32_t family) {
    tl__input_device *d = tl__input_device_of(in, id);
    uint32_t i;
    if (!family || family >= TL_INPUT_FAMILY_END_ || family == TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD)
        family = TL_INPUT_FAMILY_GAMEPAD;
    for (i = 0; !d && i < in->max_devices; i++)
        if (!in->devices[i].used) d = &in->devices[i];
    if (!d) {
        if (in->refused != id + 1u)
            tl__input_log(&in->logger, TL_INPUT_LOG_TOO_MANY_DEVICES, (unsigned)id,
                          (unsigned)in->max_devices);
        in->refused = id + 1u;
        return tl__input_set(in, TL_INPUT_TOO_MANY_DEVICES);
    }
    if (!d->used) {
        memset(d, 0, sizeof *d);
        in->devices_used++;
    }
    d->used = true;
    d->id = id;
    d->family = family;
    return TL_INPUT_OK;
}

/* Releases everything the device held, then forgets it. */
static tl_input_result tl__input_remove_device(tl_input *in, uint32_t id) {
    tl__input_device *d = tl__input_device_of(in, id);
    uint32_t i;
    if (!d) return TL_INPUT_OK;
    for (i = 0; i < TL_INPUT_BUTTON_END_; i++) tl__input_set_button(in, d, i, false);
    for (i = 0; i < TL_INPUT_AXIS_END_; i++) tl__input_set_axis(in, d, i, 0.0f);
    d->used = false;
    in->devices_used--;
    return TL_INPUT_OK;
}

/* The gamepad of an id; a backend that does not announce devices gets a generic one. */
static tl__input_device *tl__input_gamepad(tl_input *in, uint32_t device) {
    tl__input_device *d = tl__input_device_of(in, device);
    if (d || tl__input_add_device(in, device, TL_INPUT_FAMILY_GAMEPAD) != TL_INPUT_OK) return d;
    return tl__input_device_of(in, device);
}

TL_API tl_input_result tl_input_feed_gamepad_button(tl_input *in, uint32_t device, uint32_t button,
                                                    bool down) {
    tl__input_device *d = in ? tl__input_gamepad(in, device) : NULL;
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    if (!d) return TL_INPUT_TOO_MANY_DEVICES;
    if (button >= TL_INPUT_BUTTON_END_) return TL_INPUT_UNKNOWN_CONTROL;
    tl__input_set_button(in, d, button, down);
    if (down) tl__input_meaningful(in, d->family);
    return TL_INPUT_OK;
}

TL_API tl_input_result tl_input_feed_gamepad_axis(tl_input *in, uint32_t device, uint32_t axis,
                                                  float value) {
    tl__input_device *d = in ? tl__input_gamepad(in, device) : NULL;
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    if (!d) return TL_INPUT_TOO_MANY_DEVICES;
    if (axis >= TL_INPUT_AXIS_END_) return TL_INPUT_UNKNOWN_CONTROL;
    tl__input_set_axis(in, d, axis, value);
    if (tl__input_abs(value) > in->dead_zone) tl__input_meaningful(in, d->family);
    return TL_INPUT_OK;
}

TL_API tl_input_result tl_input_feed(tl_input *in, const tl_input_event *e) {
    if (!in || !e) return TL_INPUT_INVALID_ARGUMENT;
    switch (e->type) {
    case TL_INPUT_EVENT_KEY: return tl_input_feed_key(in, e->code, e->value > 0.5f);
    case TL_INPUT_EVENT_MOUSE_BUTTON:
        return tl_input_feed_mouse_button(in, e->code, e->value > 0.5f);
    case TL_INPUT_EVENT_GAMEPAD_BUTTON:
        return tl_input_feed_gamepad_button(in, e->device, e->code, e->value > 0.5f);
    case TL_INPUT_EVENT_GAMEPAD_AXIS:
        return tl_input_feed_gamepad_axis(in, e->device, e->code, e->value);
    case TL_INPUT_EVENT_DEVICE_ADDED: return tl__input_add_device(in, e->device, e->family);
    case TL_INPUT_EVENT_DEVICE_REMOVED: return tl__input_remove_device(in, e->device);
    default: return TL_INPUT_INVALID_ARGUMENT;
    }
}

/* --- the update --------------------------------------------------------------------------------- */

static void tl__input_clear_edges(tl_input *in) {
    uint32_t i;
    for (i = 0; i < in->edged_count; i++) {
        in->states[in->actions[in->edged[i]].entry].pressed = false;
        in->states[in->actions[in->edged[i]].entry].released = false;
    }
    in->edged_count = 0;
}

static void tl__input_evaluate_dirty(tl_input *in) {
    uint32_t w, words = (in->action_count + 63u) >> 6;
    for (w = 0; w < words; w++) {
        uint64_t bits = in->dirty[w];
        in->dirty[w] = 0;
        for (; bits; bits &= bits - 1u)
            tl__input_evaluate(in, w * 64u + tl__input_lowest_bit(bits));
    }
}

static void tl__input_clear_touched(tl_input *in) {
    uint32_t i;
    for (i = 0; i < in->touched_count; i++) {
        in->slots[in->touched[i]].touched = false;
        in->slots[in->touched[i]].downs = 0;
    }
    in->touched_count = 0;
}

static void tl__input_prompts_refresh(tl_input *in);
static void tl__input_capture_step(tl_input *in);

static void tl__input_announce_family(tl_input *in) {
    uint32_t before = in->published;
    if (in->family == in->published) return;
    in->published = in->family;
    tl__input_log(&in->logger, TL_INPUT_LOG_FAMILY_CHANGED, tl_input_family_name(before),
                  tl_input_family_name(in->published));
    if (in->registry)
        TL_EVENTS_PUBLISH(in->registry, in->events.device_changed, TL_INPUT_SIG_FAMILY,
                          tl_input_family_fn, in->published);
    tl__input_prompts_refresh(in);
}

TL_API void tl_input_update(tl_input *in) {
    if (!in) return;
    tl__input_clear_edges(in);
    if (in->capture == TL_INPUT_CAPTURE_WAITING) tl__input_capture_step(in);
    else tl__input_evaluate_dirty(in);
    tl__input_clear_touched(in);
    tl__input_announce_family(in);
}

/* --- queries ------------------------------------------------------------------------------------ */

static const tl__input_action *tl__input_action_of(const tl_input *in, uint32_t action) {
    uint32_t i = in ? tl__input_find(in, action) : TL__INPUT_NONE;
    return i == TL__INPUT_NONE ? NULL : &in->actions[i];
}

TL_API uint32_t tl_input_pressed_mask(const tl_input *in, const uint32_t *actions, uint32_t n) {
    uint32_t i, mask = 0;
    for (i = 0; actions && i < n && i < 32u; i++)
        if (tl_input_pressed(in, actions[i])) mask |= 1u << i;
    return mask;
}

TL_API uint32_t tl_input_current_family(const tl_input *in) {
    return in ? in->published : (uint32_t)TL_INPUT_FAMILY_NONE;
}

TL_API uint32_t tl_input_device_count(const tl_input *in) {
    uint32_t i, n = 0;
    for (i = 0; in && i < in->max_devices; i++) n += in->devices[i].used ? 1u : 0u;
    return n;
}

TL_API uint32_t tl_input_device_family(const tl_input *in, uint32_t device) {
    uint32_t i;
    for (i = 0; in && i < in->max_devices; i++)
        if (in->devices[i].used && in->devices[i].id == device) return in->devices[i].family;
    return TL_INPUT_FAMILY_NONE;
}

/* --- rebinding ---------------------------------------------------------------------------------- */

TL_API uint32_t tl_input_binding_count(const tl_input *in, uint32_t action) {
    const tl__input_action *a = tl__input_action_of(in, action);
    return a ? a->count : 0;
}

TL_API uint32_t tl_input_binding_control(const tl_input *in, uint32_t action, uint32_t index) {
    const tl__input_action *a = tl__input_action_of(in, action);
    return a && index < a->count ? in->bindings[a->first + index].control : 0;
}

/* The ordinal of binding `b` among its action's bindings of its device class and part. */
static uint32_t tl__input_ordinal(const tl_input *in, uint32_t b) {
    const tl__input_binding *x = &in->bindings[b];
    uint32_t i, n = 0, devices = tl_input_control_devices(x->default_control);
    for (i = in->actions[x->action].first; i < b; i++)
        if (in->bindings[i].part == x->part &&
            tl_input_control_devices(in->bindings[i].default_control) == devices)
            n++;
    return n;
}

/* The binding of an action by device class, part and ordinal, or TL__INPUT_NONE. */
static uint32_t tl__input_binding_by(const tl_input *in, uint32_t a, uint32_t devices,
                                     uint32_t part, uint32_t ordinal) {
    uint32_t i;
    const tl__input_action *act = &in->actions[a];
    for (i = act->first; i < act->first + act->count; i++)
        if (tl_input_control_devices(in->bindings[i].default_control) == devices &&
            (part == TL__INPUT_NONE || in->bindings[i].part == part) &&
            tl__input_ordinal(in, i) == ordinal)
            return i;
    return TL__INPUT_NONE;
}

TL_API uint32_t tl_input_binding_find(const tl_input *in, uint32_t action, uint32_t devices,
                                      uint32_t ordinal) {
    uint32_t a = in ? tl__input_find(in, action) : TL__INPUT_NONE, i, n = 0;
    if (a == TL__INPUT_NONE) return UINT32_MAX;
    for (i = 0; i < in->actions[a].count; i++)
        if (tl_input_control_devices(in->bindings[in->actions[a].first + i].default_control) ==
            devices) {
            if (n == ordinal) return i;
            n++;
        }
    return UINT32_MAX;
}

/* Whether `control` may replace binding b's: its family, its kind, no other binding of the mode
   on it (in->conflict names that binding's action). */
/* Whether `control` suits binding b at all: a control of its devices, fit for its action's kind. */
static tl_input_result tl__input_fit(const tl_input *in, uint32_t b, uint32_t control) {
    const tl__input_binding *x = &in->bindings[b];
    if (!tl_input_control_valid(control)) return TL_INPUT_UNKNOWN_CONTROL;
    if (tl_input_control_devices(control) != tl_input_control_devices(x->default_control))
        return TL_INPUT_WRONG_FAMILY;
    if (tl_input_binding_misfit(in->actions[x->action].kind, x->part, control))
        return TL_INPUT_KIND_MISMATCH;
    return TL_INPUT_OK;
}

/* CONFLICT when another binding of b's mode overlaps `control` (in->conflict: its action). */
static tl_input_result tl__input_overlap(tl_input *in, uint32_t b, uint32_t control) {
    const tl__input_action *a = &in->actions[in->bindings[b].action];
    uint32_t i;
    for (i = 0; i < in->binding_count; i++) {
        const tl__input_binding *o = &in->bindings[i];
        if (i == b || in->actions[o->action].mode != a->mode) continue;
        if (tl_input_controls_overlap(o->control, control)) {
            in->conflict = in->actions[o->action].id;
            return TL_INPUT_CONFLICT;
        }
    }
    return TL_INPUT_OK;
}

static tl_input_result tl__input_check(tl_input *in, uint32_t b, uint32_t control) {
    tl_input_result r = tl__input_fit(in, b, control);
    in->conflict = 0;
    return r != TL_INPUT_OK ? r : tl__input_overlap(in, b, control);
}

static void tl__input_apply(tl_input *in, uint32_t b, uint32_t control) {
    tl__input_binding *x = &in->bindings[b];
    x->control = control;
    x->threshold = control == x->default_control ? in->map->bindings[b].threshold : 0.0f;
    tl__input_compile(in, x);
}

static void tl__input_log_refusal(tl_input *in, uint32_t b, uint32_t control, tl_input_result r) {
    char name[40];
    const char *label = tl_input_control_name(control, name, sizeof name);
    tl__input_log(&in->logger, TL_INPUT_LOG_REBIND_REFUSED,
                  in->actions[in->bindings[b].action].name,
                  (unsigned)(b - in->actions[in->bindings[b].action].first),
                  label ? label : "control", tl_input_result_message(r));
}

TL_API tl_input_result tl_input_rebind(tl_input *in, uint32_t action, uint32_t index,
                                       uint32_t control) {
    uint32_t a = in ? tl__input_find(in, action) : TL__INPUT_NONE, b;
    tl_input_result r;
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    if (a == TL__INPUT_NONE) {
        tl__input_log(&in->logger, TL_INPUT_LOG_UNKNOWN_ACTION, "rebind", (unsigned)action);
        return tl__input_set(in, TL_INPUT_UNKNOWN_ACTION);
    }
    if (index >= in->actions[a].count) return tl__input_set(in, TL_INPUT_NO_SUCH_BINDING);
    b = in->actions[a].first + index;
    r = tl__input_check(in, b, control);
    if (r != TL_INPUT_OK) {
        tl__input_log_refusal(in, b, control, r);
        return tl__input_set(in, r);
    }
    tl__input_apply(in, b, control);
    tl__input_recompute(in);
    tl__input_prompts_refresh(in);
    return tl__input_set(in, TL_INPUT_OK);
}

TL_API uint32_t tl_input_conflict(const tl_input *in) { return in ? in->conflict : 0; }

TL_API void tl_input_reset_bindings(tl_input *in) {
    uint32_t b;
    if (!in) return;
    for (b = 0; b < in->binding_count; b++) tl__input_apply(in, b, in->bindings[b].default_control);
    tl__input_recompute(in);
    tl__input_prompts_refresh(in);
}

/* --- capture ------------------------------------------------------------------------------------ */

/* Every action at rest, without edges: a capture freezes them. */
static void tl__input_rest_all(tl_input *in) {
    memset(in->states, 0, (in->view.mask + 1u) * sizeof *in->states);
    tl__input_mark_none(in);
    in->edged_count = 0;
}

/* Bindings active now are latched (the capture's press must not act), then all re-evaluated. */
static void tl__input_capture_end(tl_input *in, tl_input_capture how) {
    uint32_t b;
    in->capture = (uint32_t)how;
    for (b = 0; b < in->binding_count; b++)
        if ((in->bindings[b].flags & TL__INPUT_LIVE) && tl__input_active(in, &in->bindings[b]))
            in->bindings[b].flags |= TL__INPUT_LATCHED;
    for (b = 0; b < in->action_count; b++) tl__input_mark(in, b);
}

TL_API tl_input_result tl_input_capture_begin(tl_input *in, uint32_t action, uint32_t index,
                                              uint32_t cancel_control) {
    uint32_t a = in ? tl__input_find(in, action) : TL__INPUT_NONE;
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    if (in->capture == TL_INPUT_CAPTURE_WAITING) return tl__input_set(in, TL_INPUT_BUSY);
    if (a == TL__INPUT_NONE) {
        tl__input_log(&in->logger, TL_INPUT_LOG_UNKNOWN_ACTION, "capture", (unsigned)action);
        return tl__input_set(in, TL_INPUT_UNKNOWN_ACTION);
    }
    if (index >= in->actions[a].count) return tl__input_set(in, TL_INPUT_NO_SUCH_BINDING);
    in->capture = TL_INPUT_CAPTURE_WAITING;
    in->capture_action = a;
    in->capture_binding = in->actions[a].first + index;
    in->capture_cancel = cancel_control;
    in->conflict = 0;
    tl__input_rest_all(in);
    return tl__input_set(in, TL_INPUT_OK);
}

TL_API void tl_input_capture_cancel(tl_input *in) {
    if (in && in->capture == TL_INPUT_CAPTURE_WAITING)
        tl__input_capture_end(in, TL_INPUT_CAPTURE_CANCELLED);
}

TL_API tl_input_capture tl_input_capture_status(const tl_input *in) {
    return in ? (tl_input_capture)in->capture : TL_INPUT_CAPTURE_NONE;
}

/* The control a slot that just became active offers the captured binding, or 0: a key or button
   as itself; an axis past the press point as its half (or whole, for a whole-axis binding), or
   as its stick for a vector binding. */
static uint32_t tl__input_offer(const tl_input *in, uint32_t slot, const tl__input_binding *b) {
    float v;
    uint32_t axis, control;
    if (slot < TL__INPUT_MOUSE_BASE) return in->slots[slot].downs ? slot | 0x10000u : 0;
    if (slot < TL__INPUT_BUTTON_BASE)
        return in->slots[slot].downs ? TL_INPUT_CONTROL(TL_INPUT_CLASS_MOUSE, slot - 256u) : 0;
    if (slot < TL__INPUT_AXIS_BASE)
        return in->slots[slot].downs ? TL_INPUT_CONTROL(TL_INPUT_CLASS_BUTTON, slot - 264u) : 0;
    axis = slot - TL__INPUT_AXIS_BASE;
    v = tl__input_axial(in, in->slots[slot].value);
    if (tl__input_abs(v) < in->press_point) return 0;
    control = TL_INPUT_CONTROL(TL_INPUT_CLASS_AXIS, axis);
    if (TL_INPUT_CONTROL_CLASS(b->default_control) == TL_INPUT_CLASS_STICK)
        return axis < 4u ? TL_INPUT_CONTROL(TL_INPUT_CLASS_STICK, axis / 2u) : 0;
    if (TL_INPUT_CONTROL_CLASS(b->default_control) == TL_INPUT_CLASS_AXIS &&
        !(TL_INPUT_CONTROL_CODE(b->default_control) & 0x300u) && b->part == TL_INPUT_PART_NONE)
        return control;
    return control | (v < 0.0f ? TL_INPUT_HALF_NEGATIVE : TL_INPUT_HALF_POSITIVE);
}

/* At an update while waiting: the first slot touched since that offers a fitting control. */
static void tl__input_capture_step(tl_input *in) {
    uint32_t i, b = in->capture_binding;
    tl_input_result r;
    tl__input_mark_none(in); /* frozen: every action is marked when the capture ends */
    for (i = 0; i < in->touched_count; i++) {
        uint32_t control = tl__input_offer(in, in->touched[i], &in->bindings[b]);
        if (!control) continue;
        if (in->capture_cancel && tl_input_controls_overlap(control, in->capture_cancel)) {
            tl__input_capture_end(in, TL_INPUT_CAPTURE_CANCELLED);
            return;
        }
        r = tl__input_check(in, b, control);
        if (r == TL_INPUT_WRONG_FAMILY || r == TL_INPUT_KIND_MISMATCH) continue;
        if (r == TL_INPUT_OK) tl__input_apply(in, b, control);
        tl__input_recompute(in);
        tl__input_capture_end(in,
                              r == TL_INPUT_OK ? TL_INPUT_CAPTURE_DONE : TL_INPUT_CAPTURE_CONFLICT);
        tl__input_prompts_refresh(in);
        return;
    }
}

/* --- saving and loading ------------------------------------------------------------------------- */

static void tl__input_put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v & 0xffu);
    p[1] = (unsigned char)(v >> 8 & 0xffu);
    p[2] = (unsigned char)(v >> 16 & 0xffu);
    p[3] = (unsigned char)(v >> 24 & 0xffu);
}

static uint32_t tl__input_get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Format 1: "TLIB", u16 format, u16 0, u32 count, then per binding that differs from its default:
   u32 action, u32 control, u8 device class, u8 part, u8 ordinal, u8 0 (all little-endian). */
TL_API size_t tl_input_save_bindings(const tl_input *in, void *out, size_t capacity) {
    unsigned char *p = (unsigned char *)out;
    uint32_t b, n = 0;
    size_t need;
    if (!in) return 0;
    for (b = 0; b < in->binding_count; b++)
        n += in->bindings[b].control != in->bindings[b].default_control;
    need = TL__INPUT_SAVE_HEADER + (size_t)n * TL__INPUT_SAVE_ENTRY;
    if (!p || capacity < need) return need;
    memcpy(p, TL__INPUT_SAVE_MAGIC, 4);
    p[4] = (unsigned char)TL__INPUT_SAVE_FORMAT;
    p[5] = p[6] = p[7] = 0;
    tl__input_put32(p + 8, n);
    p += TL__INPUT_SAVE_HEADER;
    for (b = 0; b < in->binding_count; b++) {
        const tl__input_binding *x = &in->bindings[b];
        if (x->control == x->default_control) continue;
        tl__input_put32(p, in->actions[x->action].id);
        tl__input_put32(p + 4, x->control);
        p[8] = (unsigned char)tl_input_control_devices(x->default_control);
        p[9] = (unsigned char)x->part;
        p[10] = (unsigned char)tl__input_ordinal(in, b);
        p[11] = 0;
        p += TL__INPUT_SAVE_ENTRY;
    }
    return need;
}

/* Why the bytes are not saved bindings (or NULL), and how many entries they hold. */
static const char *tl__input_save_problem(const unsigned char *p, size_t size, uint32_t *count,
                                          tl_input_result *r) {
    *r = TL_INPUT_BAD_DATA;
    if (!p || size < TL__INPUT_SAVE_HEADER || memcmp(p, TL__INPUT_SAVE_MAGIC, 4) != 0)
        return "not saved input bindings";
    if (p[4] + 256u * p[5] > TL__INPUT_SAVE_FORMAT) {
        *r = TL_INPUT_NEWER_FORMAT;
        return "a newer format than this build reads";
    }
    if (p[4] + 256u * p[5] == 0) return "format 0";
    *count = tl__input_get32(p + 8);
    if ((size - TL__INPUT_SAVE_HEADER) / TL__INPUT_SAVE_ENTRY != *count ||
        (size - TL__INPUT_SAVE_HEADER) % TL__INPUT_SAVE_ENTRY != 0)
        return "the length does not match the count";
    *r = TL_INPUT_OK;
    return NULL;
}

static void tl__input_log_dropped(tl_input *in, uint32_t b, uint32_t control, tl_input_result r) {
    char why[96], name[40];
    snprintf(why, sizeof why, "%s: %s", in->actions[in->bindings[b].action].name,
             tl_input_control_name(control, name, sizeof name) ? name : "?");
    tl__input_log(&in->logger, TL_INPUT_LOG_DROPPED, why, tl_input_result_message(r));
}

/* One entry onto the defaults, if its control suits its binding (a warning names what it drops);
   overlaps are settled once every entry is on (tl__input_settle). */
static void tl__input_load_entry(tl_input *in, const unsigned char *e) {
    uint32_t action = tl__input_get32(e), control = tl__input_get32(e + 4);
    uint32_t a = tl__input_find(in, action), b;
    char why[96];
    tl_input_result r;
    if (a == TL__INPUT_NONE) {
        snprintf(why, sizeof why, "action 0x%08x", (unsigned)action);
        tl__input_log(&in->logger, TL_INPUT_LOG_DROPPED, why, "the map no longer has it");
        return;
    }
    b = tl__input_binding_by(in, a, e[8], e[9], e[10]);
    if (b == TL__INPUT_NONE) {
        snprintf(why, sizeof why, "%s, binding %u of its class", in->actions[a].name,
                 (unsigned)e[10]);
        tl__input_log(&in->logger, TL_INPUT_LOG_DROPPED, why, "the map no longer has it");
        return;
    }
    r = tl__input_fit(in, b, control);
    if (r != TL_INPUT_OK) {
        tl__input_log_dropped(in, b, control, r);
        return;
    }
    tl__input_apply(in, b, control);
}

/* A loaded binding that overlaps another of its mode goes back to its default (the first in map
   order, until none overlaps): checked against the whole loaded set, so bindings that traded
   controls load as saved, whatever the order of the entries. A binding back at its default is
   not looked at again, so this ends. */
static void tl__input_settle(tl_input *in) {
    bool dropped = true;
    while (dropped) {
        uint32_t b;
        dropped = false;
        for (b = 0; b < in->binding_count; b++) {
            tl__input_binding *x = &in->bindings[b];
            if (x->control == x->default_control ||
                tl__input_overlap(in, b, x->control) == TL_INPUT_OK)
                continue;
            tl__input_log_dropped(in, b, x->control, TL_INPUT_CONFLICT);
            tl__input_apply(in, b, x->default_control);
            dropped = true;
        }
    }
    in->conflict = 0;
}

TL_API tl_input_result tl_input_load_bindings(tl_input *in, const void *data, size_t size) {
    const unsigned char *p = (const unsigned char *)data;
    uint32_t count = 0, i;
    tl_input_result r;
    const char *problem;
    if (!in) return TL_INPUT_INVALID_ARGUMENT;
    problem = tl__input_save_problem(p, size, &count, &r);
    if (problem) {
        tl__input_log(&in->logger, TL_INPUT_LOG_BAD_DATA, problem);
        return tl__input_set(in, r);
    }
    for (i = 0; i < in->binding_count; i++) tl__input_apply(in, i, in->bindings[i].default_control);
    for (i = 0; i < count; i++)
        tl__input_load_entry(in, p + TL__INPUT_SAVE_HEADER + (size_t)i * TL__INPUT_SAVE_ENTRY);
    tl__input_settle(in);
    tl__input_recompute(in);
    tl__input_prompts_refresh(in);
    return tl__input_set(in, TL_INPUT_OK);
}

/* --- prompts ------------------------------------------------------------------------------------ */

TL_API uint32_t tl_input_glyph(const tl_input *in, uint32_t control, uint32_t family) {
    uint32_t i, fallback = 0;
    if (!in) return 0;
    for (i = 0; i < in->map->glyph_count; i++) {
        const tl_input_glyph_info *g = &in->map->glyphs[i];
        if (g->control != control) continue;
        if (g->family == family) return g->asset;
        if (g->family == TL_INPUT_FAMILY_GAMEPAD && family != TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD)
            fallback = g->asset;
    }
    return fallback;
}

TL_API uint32_t tl_input_prompt_glyph(const tl_input *in, uint32_t action) {
    const tl__input_action *a = tl__input_action_of(in, action);
    uint32_t i, devices;
    if (!a) return 0;
    devices = in->published == TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD ? TL_INPUT_DEVICES_KEYBOARD_MOUSE
                                                                  : TL_INPUT_DEVICES_GAMEPAD;
    for (i = a->first; i < a->first + a->count; i++)
        if (tl_input_control_devices(in->bindings[i].control) == devices)
            return tl_input_glyph(in, in->bindings[i].control, in->published);
    return 0;
}

/* Tells each watcher whose glyph (or family) changed. */
static void tl__input_prompts_refresh(tl_input *in) {
    uint32_t i;
    for (i = 0; i < in->max_prompts; i++) {
        tl__input_prompt *p = &in->prompts[i];
        uint32_t asset;
        if (!p->used) continue;
        asset = tl_input_prompt_glyph(in, p->action);
        if (asset == p->asset && p->family == in->published) continue;
        p->asset = asset;
        p->family = in->published;
        p->fn(p->ctx, p->action, asset, p->family);
    }
}

TL_API uint32_t tl_input_prompt_watch(tl_input *in, uint32_t action, tl_input_prompt_fn fn,
                                      void *ctx) {
    uint32_t i;
    if (!in || !fn) return 0;
    if (tl__input_find(in, action) == TL__INPUT_NONE) {
        tl__input_log(&in->logger, TL_INPUT_LOG_UNKNOWN_ACTION, "prompt_watch", (unsigned)action);
        tl__input_set(in, TL_INPUT_UNKNOWN_ACTION);
        return 0;
    }
    for (i = 0; i < in->max_prompts && in->prompts[i].used; i++) {}
    if (i == in->max_prompts) {
        tl__input_log(&in->logger, TL_INPUT_LOG_TOO_MANY_PROMPTS,
                      in->actions[tl__input_find(in, action)].name, (unsigned)in->max_prompts);
        tl__input_set(in, TL_INPUT_TOO_MANY_PROMPTS);
        return 0;
    }
    in->prompts[i].used = true;
    in->prompts[i].action = action;
    in->prompts[i].fn = fn;
    in->prompts[i].ctx = ctx;
    in->prompts[i].asset = tl_input_prompt_glyph(in, action);
    in->prompts[i].family = in->published;
    fn(ctx, action, in->prompts[i].asset, in->published);
    tl__input_set(in, TL_INPUT_OK);
    return i + 1u;
}

TL_API void tl_input_prompt_unwatch(tl_input *in, uint32_t handle) {
    if (in && handle > 0 && handle <= in->max_prompts) in->prompts[handle - 1u].used = false;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_INPUT_IMPL */
