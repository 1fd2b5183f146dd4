/* A small action map, written as threadlink-gen bakes one (tl_input_map), and a harness: an input
   module over it with a registry and a logger that records what it is told. Shared by the tests
   of input.h and interface.h. */
#ifndef TL_TEST_INPUT_FIXTURE_H
#define TL_TEST_INPUT_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include <threadlink/input.h>

#define G TL_INPUT_MODE_GAMEPLAY
#define M TL_INPUT_MODE_MENU
#define FIRE 0x1001u
#define MOVE 0x1002u
#define PAUSE 0x1003u
#define STEER 0x1004u
#define CONFIRM 0x2001u
#define BACK 0x2002u
#define NAV 0x2003u

#define KEY(name) tl_input_control_from_name("keyboard/" name, strlen("keyboard/" name))
#define PAD(name) tl_input_control_from_name("gamepad/" name, strlen("gamepad/" name))

/* HID usages. */
#define K_SPACE 44u
#define K_RETURN 40u
#define K_ESCAPE 41u
#define K_W 26u
#define K_A 4u
#define K_S 22u
#define K_D 7u
#define K_LEFT 80u
#define K_RIGHT 79u
#define K_UP 82u
#define K_DOWN 81u
#define K_E 8u

static tl_input_binding_info fx_bindings[19];
static const tl_input_action_info fx_actions[] = {
    { FIRE, G, TL_INPUT_KIND_BUTTON, 0, 3, "Gameplay.Fire" },
    { MOVE, G, TL_INPUT_KIND_VECTOR, 3, 5, "Gameplay.Move" },
    { PAUSE, G, TL_INPUT_KIND_BUTTON, 8, 2, "Gameplay.Pause" },
    { STEER, G, TL_INPUT_KIND_AXIS, 10, 3, "Gameplay.Steer" },
    { CONFIRM, M, TL_INPUT_KIND_BUTTON, 13, 2, "Menu.Confirm" },
    { BACK, M, TL_INPUT_KIND_BUTTON, 15, 2, "Menu.Back" },
    { NAV, M, TL_INPUT_KIND_VECTOR, 17, 2, "Menu.Nav" },
};
static const tl_input_glyph_info fx_glyphs[] = {
    { TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, K_SPACE), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD, 100 },
    { TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, K_RETURN), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD, 101 },
    { TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, 19u), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD, 102 }, /* P */
    { TL_INPUT_CONTROL(TL_INPUT_CLASS_BUTTON, TL_INPUT_BUTTON_A), TL_INPUT_FAMILY_XBOX, 200 },
    { TL_INPUT_CONTROL(TL_INPUT_CLASS_BUTTON, TL_INPUT_BUTTON_A), TL_INPUT_FAMILY_PLAYSTATION, 201 },
    { TL_INPUT_CONTROL(TL_INPUT_CLASS_BUTTON, TL_INPUT_BUTTON_A), TL_INPUT_FAMILY_GAMEPAD, 202 },
};
static tl_input_map fx_map;

/* The bindings, by name: what the generator resolves from an action map file. */
static const tl_input_map *fx_input_map(void) {
    static const struct {
        const char *control;
        uint32_t part;
        float threshold;
    } rows[19] = {
        { "keyboard/Space", 0, 0 }, { "gamepad/a", 0, 0 }, { "gamepad/righttrigger", 0, 0.5f },
        { "keyboard/W", TL_INPUT_PART_UP, 0 }, { "keyboard/S", TL_INPUT_PART_DOWN, 0 },
        { "keyboard/A", TL_INPUT_PART_LEFT, 0 }, { "keyboard/D", TL_INPUT_PART_RIGHT, 0 },
        { "gamepad/leftxy", 0, 0 },
        { "keyboard/Escape", 0, 0 }, { "gamepad/start", 0, 0 },
        { "keyboard/Left", TL_INPUT_PART_NEGATIVE, 0 }, { "keyboard/Right", TL_INPUT_PART_POSITIVE, 0 },
        { "gamepad/rightx", 0, 0 },
        { "keyboard/Return", 0, 0 }, { "gamepad/a", 0, 0 },
        { "keyboard/Escape", 0, 0 }, { "gamepad/b", 0, 0 },
        { "keyboard/Up", TL_INPUT_PART_UP, 0 }, { "gamepad/dpup", TL_INPUT_PART_UP, 0 },
    };
    int i;
    for (i = 0; i < 19; i++) {
        fx_bindings[i].control = tl_input_control_from_name(rows[i].control, strlen(rows[i].control));
        fx_bindings[i].part = rows[i].part;
        fx_bindings[i].threshold = rows[i].threshold;
    }
    memset(&fx_map, 0, sizeof fx_map);
    fx_map.actions = fx_actions;
    fx_map.action_count = sizeof fx_actions / sizeof fx_actions[0];
    fx_map.bindings = fx_bindings;
    fx_map.binding_count = 19;
    fx_map.glyphs = fx_glyphs;
    fx_map.glyph_count = sizeof fx_glyphs / sizeof fx_glyphs[0];
    return &fx_map;
}

typedef struct fx_log {
    int records, warnings, errors;
    char last[TL_LOG_LINE_MAX];
    char all[4096];
} fx_log;

static void fx_sink(void *user, const tl_log_record *r) {
    fx_log *l = (fx_log *)user;
    size_t used = strlen(l->all);
    l->records++;
    l->warnings += r->level == TL_LOG_LEVEL_WARNING;
    l->errors += r->level == TL_LOG_LEVEL_ERROR;
    snprintf(l->last, sizeof l->last, "%s", r->line);
    snprintf(l->all + used, sizeof l->all - used, "%s\n", r->line);
}

static void fx_key(tl_input *in, uint32_t usage, int down) {
    tl_input_event e;
    memset(&e, 0, sizeof e);
    e.type = TL_INPUT_EVENT_KEY;
    e.code = usage;
    e.value = down ? 1.0f : 0.0f;
    (void)tl_input_feed(in, &e);
}

static void fx_pad(tl_input *in, uint32_t type, uint32_t device, uint32_t code, float value) {
    tl_input_event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.device = device;
    e.code = code;
    e.value = value;
    (void)tl_input_feed(in, &e);
}

static void fx_device(tl_input *in, uint32_t device, uint32_t family, bool added) {
    tl_input_event e;
    memset(&e, 0, sizeof e);
    e.type = added ? TL_INPUT_EVENT_DEVICE_ADDED : TL_INPUT_EVENT_DEVICE_REMOVED;
    e.device = device;
    e.family = family;
    (void)tl_input_feed(in, &e);
}

#endif
