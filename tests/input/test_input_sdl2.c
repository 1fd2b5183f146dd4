/* backends/sdl2/tl_input_sdl2.h against the real SDL2 (dummy video driver): keyboard and mouse
   events pushed with SDL_PushEvent, gamepads as virtual joysticks (SDL_JoystickAttachVirtualEx)
   that SDL turns into SDL_GameController events; the action map is the one threadlink-gen
   writes for the golden case input-map (tests/gen/golden/input-map/expected/generated), so the
   generator's tables, the runtime and the adapter are tested together. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../backends/sdl2/tl_input_sdl2.h"
#include "content_game.h"
#include "input_map.h"

#define FIRE DEXTRA_ACTIONS_U32(Dextra_Actions_Fire)
#define MOVE DEXTRA_ACTIONS_U32(Dextra_Actions_Move)
#define BACK DEXTRA_ACTIONS_U32(Dextra_Actions_Back)
#define ASSET(name) ((uint32_t)(Content_Game_Glyphs_##name))

typedef struct harness {
    tl_input *in;
    tl_events registry;
    uint32_t changes, last_family;
} harness;

static void on_family(void *ctx, uint32_t family) {
    harness *h = (harness *)ctx;
    h->changes++;
    h->last_family = family;
}

/* Every queued SDL event through the adapter, then one update. */
static void frame(harness *h) {
    SDL_Event e;
    SDL_PumpEvents();
    while (SDL_PollEvent(&e)) (void)tl_input_sdl2_feed(h->in, &e);
    tl_input_update(h->in);
}

static void push_key(SDL_Scancode code, bool down, bool repeat) {
    SDL_Event e;
    SDL_memset(&e, 0, sizeof e);
    e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = down ? SDL_PRESSED : SDL_RELEASED;
    e.key.repeat = repeat ? 1 : 0;
    e.key.keysym.scancode = code;
    assert_int_equal(SDL_PushEvent(&e), 1);
}

/* A virtual controller (15 buttons, 6 axes) with a USB vendor and product; its device index. */
static int attach_pad(Uint16 vendor, Uint16 product, const char *name) {
    SDL_VirtualJoystickDesc d;
    SDL_memset(&d, 0, sizeof d);
    d.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
    d.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
    d.naxes = SDL_CONTROLLER_AXIS_MAX;
    d.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
    d.vendor_id = vendor;
    d.product_id = product;
    d.name = name;
    int index = SDL_JoystickAttachVirtualEx(&d);
    assert_true(index >= 0);
    return index;
}

/* The joystick SDL opened for the controller at `index` (the adapter opened the controller). */
static SDL_Joystick *pad_joystick(int index) {
    SDL_GameController *pad = SDL_GameControllerFromInstanceID(SDL_JoystickGetDeviceInstanceID(index));
    assert_non_null(pad);
    return SDL_GameControllerGetJoystick(pad);
}

static int setup(void **state) {
    static const tl_events_info table[21] = {
        [20] = { "OnInputDeviceChanged", TL_INPUT_SIG_FAMILY, 0 },
    };
    static harness h;
    tl_input_desc desc;
    SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER) != 0) return -1;
    SDL_memset(&h, 0, sizeof h);
    if (tl_events_init_table(&h.registry, 21, table, NULL) != TL_EVENTS_OK) return -1;
    if (tl_events_subscribe(&h.registry, 20, TL_INPUT_SIG_FAMILY, 0, TL_EVENTS_FN(on_family), &h) != TL_EVENTS_OK) return -1;
    SDL_memset(&desc, 0, sizeof desc);
    desc.map = input_map();
    desc.registry = &h.registry;
    h.in = tl_input_create(&desc);
    if (!h.in) return -1;
    tl_input_set_mode_active(h.in, TL_INPUT_MODE_GAMEPLAY, true);
    *state = &h;
    return 0;
}

static int teardown(void **state) {
    harness *h = (harness *)*state;
    tl_input_destroy(h->in);
    tl_events_discard(&h->registry);
    tl_input_sdl2_close_all();
    SDL_Quit();
    return 0;
}

static void test_input_sdl2_keys_drive_actions(void **state) {
    harness *h = (harness *)*state;
    assert_string_equal(SDL_GetCurrentVideoDriver(), "dummy");
    push_key(SDL_SCANCODE_SPACE, true, false);
    frame(h);
    assert_true(tl_input_pressed(h->in, FIRE));
    push_key(SDL_SCANCODE_SPACE, true, true); /* a repeat is no new press */
    frame(h);
    assert_false(tl_input_pressed(h->in, FIRE));
    assert_true(tl_input_held(h->in, FIRE));
    push_key(SDL_SCANCODE_SPACE, false, false);
    push_key(SDL_SCANCODE_D, true, false);
    push_key(SDL_SCANCODE_W, true, false);
    frame(h);
    assert_true(tl_input_released(h->in, FIRE));
    tl_input_vec2 v = tl_input_vector(h->in, MOVE);
    assert_float_equal(v.x, 0.7071f, 0.001f);
    assert_float_equal(v.y, -0.7071f, 0.001f);
    push_key(SDL_SCANCODE_D, false, false);
    push_key(SDL_SCANCODE_W, false, false);
    frame(h);
    assert_int_equal(tl_input_current_family(h->in), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD);
    assert_int_equal(tl_input_prompt_glyph(h->in, FIRE), ASSET(key_space));
}

static void test_input_sdl2_xbox_pad_switches_family_and_glyph(void **state) {
    harness *h = (harness *)*state;
    int index = attach_pad(0x045e, 0x02ea, "Virtual Xbox One pad");
    frame(h); /* SDL_CONTROLLERDEVICEADDED: opened and fed */
    assert_int_equal(tl_input_device_count(h->in), 1);
    SDL_Joystick *js = pad_joystick(index);
    assert_int_equal(tl_input_device_family(h->in, (uint32_t)SDL_JoystickInstanceID(js)), TL_INPUT_FAMILY_XBOX);
    assert_int_equal(tl_input_current_family(h->in), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD); /* not used yet */
    uint32_t changes = h->changes;
    SDL_JoystickSetVirtualButton(js, SDL_CONTROLLER_BUTTON_A, SDL_PRESSED);
    frame(h);
    assert_true(tl_input_pressed(h->in, FIRE));
    assert_int_equal(tl_input_current_family(h->in), TL_INPUT_FAMILY_XBOX);
    assert_int_equal(h->changes, changes + 1);
    assert_int_equal(h->last_family, TL_INPUT_FAMILY_XBOX);
    assert_int_equal(tl_input_prompt_glyph(h->in, FIRE), ASSET(xbox_a));
    SDL_JoystickSetVirtualButton(js, SDL_CONTROLLER_BUTTON_A, SDL_RELEASED);
    frame(h);
    assert_true(tl_input_released(h->in, FIRE));
    /* The left stick: inside the dead zone (0.25) nothing, full right a unit vector. */
    SDL_JoystickSetVirtualAxis(js, SDL_CONTROLLER_AXIS_LEFTX, 4000);
    frame(h);
    assert_float_equal(tl_input_vector(h->in, MOVE).x, 0.0f, 0.0001f);
    SDL_JoystickSetVirtualAxis(js, SDL_CONTROLLER_AXIS_LEFTX, 32767);
    frame(h);
    assert_float_equal(tl_input_vector(h->in, MOVE).x, 1.0f, 0.001f);
    SDL_JoystickSetVirtualAxis(js, SDL_CONTROLLER_AXIS_LEFTX, 0);
    /* The right trigger past its threshold (0.5) holds Fire. */
    SDL_JoystickSetVirtualAxis(js, SDL_CONTROLLER_AXIS_TRIGGERRIGHT, 32767);
    frame(h);
    assert_true(tl_input_held(h->in, FIRE));
    /* Unplugged while the trigger is held: Fire is released, the device gone. */
    assert_int_equal(SDL_JoystickDetachVirtual(index), 0);
    frame(h);
    assert_true(tl_input_released(h->in, FIRE));
    assert_int_equal(tl_input_device_count(h->in), 0);
}

static void test_input_sdl2_unknown_pad_is_generic_and_keyboard_takes_back(void **state) {
    harness *h = (harness *)*state;
    int index = attach_pad(0x1234, 0x5678, "Virtual pad");
    frame(h);
    SDL_Joystick *js = pad_joystick(index);
    assert_int_equal(tl_input_device_family(h->in, (uint32_t)SDL_JoystickInstanceID(js)), TL_INPUT_FAMILY_GAMEPAD);
    SDL_JoystickSetVirtualButton(js, SDL_CONTROLLER_BUTTON_START, SDL_PRESSED);
    frame(h);
    assert_int_equal(tl_input_current_family(h->in), TL_INPUT_FAMILY_GAMEPAD);
    assert_int_equal(tl_input_prompt_glyph(h->in, FIRE), ASSET(pad_a));
    SDL_JoystickSetVirtualButton(js, SDL_CONTROLLER_BUTTON_START, SDL_RELEASED);
    /* Back is a Menu action: with Menu active over Gameplay, gamepad/b reads it. */
    tl_input_set_mode_active(h->in, TL_INPUT_MODE_MENU, true);
    SDL_JoystickSetVirtualButton(js, SDL_CONTROLLER_BUTTON_B, SDL_PRESSED);
    frame(h);
    assert_true(tl_input_pressed(h->in, BACK));
    SDL_JoystickSetVirtualButton(js, SDL_CONTROLLER_BUTTON_B, SDL_RELEASED);
    tl_input_set_mode_active(h->in, TL_INPUT_MODE_MENU, false);
    /* A mouse click is keyboard-and-mouse input: the family goes back. */
    SDL_Event e;
    SDL_memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEBUTTONDOWN;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.state = SDL_PRESSED;
    assert_int_equal(SDL_PushEvent(&e), 1);
    frame(h);
    assert_int_equal(tl_input_current_family(h->in), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD);
    assert_int_equal(SDL_JoystickDetachVirtual(index), 0);
    frame(h);
    assert_int_equal(tl_input_device_count(h->in), 0);
}

/* The game opens a controller itself (rumble, the LED) before the adapter sees it added: the
   adapter takes a reference of its own (SDL counts them), and tl_input_sdl2_close_all closes only
   that one. The game's handle stays SDL's open controller, attached and usable. */
static void test_input_sdl2_close_all_keeps_the_games_own_pad(void **state) {
    harness *h = (harness *)*state;
    int index = attach_pad(0x045e, 0x02ea, "Virtual Xbox One pad");
    SDL_JoystickID id = SDL_JoystickGetDeviceInstanceID(index);
    SDL_GameController *mine = SDL_GameControllerOpen(index);
    assert_non_null(mine);
    frame(h); /* SDL_CONTROLLERDEVICEADDED: the adapter's own reference */
    assert_int_equal(tl_input_device_family(h->in, (uint32_t)id), TL_INPUT_FAMILY_XBOX);
    tl_input_sdl2_close_all();
    assert_ptr_equal(SDL_GameControllerFromInstanceID(id), mine); /* not freed under the game */
    assert_true(SDL_GameControllerGetAttached(mine));
    assert_non_null(SDL_GameControllerName(mine));
    tl_input_sdl2_close_all(); /* twice: nothing more to close */
    assert_ptr_equal(SDL_GameControllerFromInstanceID(id), mine);
    SDL_GameControllerClose(mine); /* the last reference: SDL frees it */
    assert_null(SDL_GameControllerFromInstanceID(id));
    assert_int_equal(SDL_JoystickDetachVirtual(index), 0);
    frame(h);
    assert_int_equal(tl_input_device_count(h->in), 0);
}

/* The same for a removal: the adapter closes its own reference, never the game's. */
static void test_input_sdl2_removal_keeps_the_games_own_pad(void **state) {
    harness *h = (harness *)*state;
    int index = attach_pad(0x1234, 0x5678, "Virtual pad");
    SDL_JoystickID id = SDL_JoystickGetDeviceInstanceID(index);
    SDL_GameController *mine = SDL_GameControllerOpen(index);
    assert_non_null(mine);
    frame(h);
    assert_int_equal(SDL_JoystickDetachVirtual(index), 0);
    frame(h); /* SDL_CONTROLLERDEVICEREMOVED */
    assert_int_equal(tl_input_device_count(h->in), 0);
    assert_ptr_equal(SDL_GameControllerFromInstanceID(id), mine); /* still the game's */
    assert_false(SDL_GameControllerGetAttached(mine));
    SDL_GameControllerClose(mine);
    assert_null(SDL_GameControllerFromInstanceID(id));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_input_sdl2_keys_drive_actions),
        cmocka_unit_test(test_input_sdl2_xbox_pad_switches_family_and_glyph),
        cmocka_unit_test(test_input_sdl2_unknown_pad_is_generic_and_keyboard_takes_back),
        cmocka_unit_test(test_input_sdl2_close_all_keeps_the_games_own_pad),
        cmocka_unit_test(test_input_sdl2_removal_keeps_the_games_own_pad),
    };
    SDL_setenv("SDL_VIDEODRIVER", "dummy", 1);
    return cmocka_run_group_tests(tests, setup, teardown);
}
