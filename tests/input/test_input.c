/* input.h: actions (pressed, released, held, values, dead zones), modes and their priority,
   devices and the current family's event, rebinding (by code, captured, refused), saved bindings
   across a changed map, prompt glyphs, control names, and no allocation after create. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

#include <cmocka.h>

/* A counting allocator: nothing may allocate after tl_input_create. */
static long allocations;
static void *counting_malloc(size_t n) {
    allocations++;
    return malloc(n);
}
#define TL_MALLOC(size) counting_malloc(size)
#define TL_FREE(ptr) free(ptr)
#define TL_IMPLEMENTATION
#include <threadlink/hash.h>
#include "input_fixture.h"

#ifndef NATIVES_FILE
#error "NATIVES_FILE must name runtime/threadlink/natives/Iris.Events.Native.txt"
#endif
#ifndef MODES_FILE
#error "MODES_FILE must name runtime/threadlink/natives/Dextra.InputModes.Native.txt"
#endif

typedef struct h {
    tl_events reg;
    tl_logger logger;
    fx_log log;
    tl_input *in;
    uint32_t families[8];
    int family_events;
} h;

static void on_family(void *ctx, uint32_t family) {
    h *x = (h *)ctx;
    if (x->family_events < 8) x->families[x->family_events] = family;
    x->family_events++;
}

static int setup(void **state) {
    static const tl_events_info table[26] = {
        [20] = { "OnInputDeviceChanged", TL_INPUT_SIG_FAMILY, 0 },
    };
    h *x = (h *)calloc(1, sizeof *x);
    tl_input_desc desc;
    x->logger.sink = fx_sink;
    x->logger.user = &x->log;
    assert_int_equal(tl_events_init_table(&x->reg, 26, table, &x->logger), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&x->reg, 20, TL_INPUT_SIG_FAMILY, 0, TL_EVENTS_FN(on_family), x), TL_EVENTS_OK);
    memset(&desc, 0, sizeof desc);
    desc.map = fx_input_map();
    desc.registry = &x->reg;
    desc.logger = &x->logger;
    x->in = tl_input_create(&desc);
    if (!x->in) fprintf(stderr, "%s", x->log.all);
    assert_non_null(x->in);
    assert_int_equal(tl_input_set_mode_active(x->in, G, true), TL_INPUT_OK);
    tl_input_update(x->in);
    *state = x;
    return 0;
}

static int teardown(void **state) {
    h *x = (h *)*state;
    tl_input_destroy(x->in);
    tl_events_discard(&x->reg);
    free(x);
    return 0;
}

static bool near(float a, float b) { return a - b < 1e-4f && b - a < 1e-4f; }

/* --- actions ----------------------------------------------------------------------------------- */

static void test_input_button_pressed_held_released(void **state) {
    h *x = (h *)*state;
    fx_key(x->in, K_SPACE, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
    assert_true(tl_input_held(x->in, FIRE));
    assert_false(tl_input_released(x->in, FIRE));
    assert_true(near(tl_input_value(x->in, FIRE), 1.0f));
    fx_key(x->in, K_SPACE, 1); /* a key repeat */
    tl_input_update(x->in);
    assert_false(tl_input_pressed(x->in, FIRE));
    assert_true(tl_input_held(x->in, FIRE));
    fx_key(x->in, K_SPACE, 0);
    tl_input_update(x->in);
    assert_true(tl_input_released(x->in, FIRE));
    assert_false(tl_input_held(x->in, FIRE));
    tl_input_update(x->in);
    assert_false(tl_input_released(x->in, FIRE));
}

/* Two bindings of one action: the action holds while either does. */
static void test_input_two_bindings_one_action(void **state) {
    h *x = (h *)*state;
    fx_key(x->in, K_SPACE, 1);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 7, TL_INPUT_BUTTON_A, 1.0f);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
    fx_key(x->in, K_SPACE, 0);
    tl_input_update(x->in);
    assert_true(tl_input_held(x->in, FIRE));
    assert_false(tl_input_released(x->in, FIRE));
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 7, TL_INPUT_BUTTON_A, 0.0f);
    tl_input_update(x->in);
    assert_true(tl_input_released(x->in, FIRE));
}

static void test_input_tap_between_updates_is_pressed_and_released(void **state) {
    h *x = (h *)*state;
    fx_key(x->in, K_SPACE, 1);
    fx_key(x->in, K_SPACE, 0);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
    assert_true(tl_input_released(x->in, FIRE));
    assert_false(tl_input_held(x->in, FIRE));
    tl_input_update(x->in);
    assert_false(tl_input_pressed(x->in, FIRE));
}

/* A trigger drives the button action past the binding's threshold (0.5 after the dead zone). */
static void test_input_trigger_threshold(void **state) {
    h *x = (h *)*state;
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 7, TL_INPUT_AXIS_RIGHTTRIGGER, 0.5f);
    tl_input_update(x->in); /* (0.5 - 0.2) / 0.8 = 0.375 */
    assert_false(tl_input_held(x->in, FIRE));
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 7, TL_INPUT_AXIS_RIGHTTRIGGER, 0.7f);
    tl_input_update(x->in); /* 0.625 */
    assert_true(tl_input_pressed(x->in, FIRE));
}

static void test_input_composite_vector_is_normalised(void **state) {
    h *x = (h *)*state;
    tl_input_vec2 v;
    fx_key(x->in, K_D, 1);
    tl_input_update(x->in);
    v = tl_input_vector(x->in, MOVE);
    assert_true(near(v.x, 1.0f) && near(v.y, 0.0f));
    assert_true(tl_input_pressed(x->in, MOVE));
    fx_key(x->in, K_W, 1);
    tl_input_update(x->in);
    v = tl_input_vector(x->in, MOVE);
    assert_true(near(v.x, 0.70710678f) && near(v.y, -0.70710678f)); /* up is -y */
    assert_true(near(tl_input_value(x->in, MOVE), 1.0f));
    fx_key(x->in, K_A, 1); /* left and right cancel */
    tl_input_update(x->in);
    v = tl_input_vector(x->in, MOVE);
    assert_true(near(v.x, 0.0f) && near(v.y, -1.0f));
}

/* A stick inside its radial dead zone moves nothing and changes no family; outside, the range
   restarts at the dead zone's edge. */
static void test_input_stick_dead_zone(void **state) {
    h *x = (h *)*state;
    tl_input_vec2 v;
    fx_device(x->in, 3, TL_INPUT_FAMILY_XBOX, true);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 3, TL_INPUT_AXIS_LEFTX, 0.1f);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 3, TL_INPUT_AXIS_LEFTY, 0.1f);
    tl_input_update(x->in);
    v = tl_input_vector(x->in, MOVE);
    assert_true(near(v.x, 0.0f) && near(v.y, 0.0f));
    assert_int_equal(tl_input_current_family(x->in), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD);
    assert_int_equal(x->family_events, 0);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 3, TL_INPUT_AXIS_LEFTX, 0.6f);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 3, TL_INPUT_AXIS_LEFTY, 0.0f);
    tl_input_update(x->in);
    v = tl_input_vector(x->in, MOVE); /* (0.6 - 0.2) / 0.8 */
    assert_true(near(v.x, 0.5f) && near(v.y, 0.0f));
    assert_true(tl_input_held(x->in, MOVE)); /* at the press point */
    assert_int_equal(tl_input_current_family(x->in), TL_INPUT_FAMILY_XBOX);
}

/* An axis: the strongest side minus the other; a stick's axis after the axial dead zone. */
static void test_input_axis_action(void **state) {
    h *x = (h *)*state;
    fx_key(x->in, K_LEFT, 1);
    tl_input_update(x->in);
    assert_true(near(tl_input_value(x->in, STEER), -1.0f));
    fx_key(x->in, K_LEFT, 0);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 1, TL_INPUT_AXIS_RIGHTX, 0.84f);
    tl_input_update(x->in);
    assert_true(near(tl_input_value(x->in, STEER), 0.8f));
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 1, TL_INPUT_AXIS_RIGHTX, -0.2f);
    tl_input_update(x->in);
    assert_true(near(tl_input_value(x->in, STEER), 0.0f));
    assert_true(tl_input_released(x->in, STEER));
}

static void test_input_unknown_action_answers_nothing(void **state) {
    h *x = (h *)*state;
    tl_input_vec2 v = tl_input_vector(x->in, 0xbadu);
    assert_false(tl_input_held(x->in, 0xbadu));
    assert_false(tl_input_pressed(x->in, 0));
    assert_true(near(tl_input_value(x->in, 0xbadu), 0.0f) && near(v.x, 0.0f));
    assert_int_equal(tl_input_binding_count(x->in, 0xbadu), 0);
}

/* --- modes ------------------------------------------------------------------------------------- */

/* Escape is Pause in Gameplay and Back in Menu: the mode activated last owns it. */
static void test_input_latest_mode_owns_a_shared_control(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_input_set_mode_active(x->in, M, true), TL_INPUT_OK);
    fx_key(x->in, K_ESCAPE, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, BACK));
    assert_false(tl_input_held(x->in, PAUSE));
    fx_key(x->in, K_ESCAPE, 0);
    tl_input_update(x->in);
    /* Space is Gameplay's alone: it still fires under the menu. */
    fx_key(x->in, K_SPACE, 1);
    tl_input_update(x->in);
    assert_true(tl_input_held(x->in, FIRE));
    fx_key(x->in, K_SPACE, 0);
    /* Gameplay activated again after Menu: now Gameplay owns Escape. */
    assert_int_equal(tl_input_set_mode_active(x->in, G, false), TL_INPUT_OK);
    assert_int_equal(tl_input_set_mode_active(x->in, G, true), TL_INPUT_OK);
    tl_input_update(x->in);
    fx_key(x->in, K_ESCAPE, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, PAUSE));
    assert_false(tl_input_held(x->in, BACK));
}

/* A control held when its mode goes live acts only after it is released. */
static void test_input_control_held_at_activation_is_latched(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_input_set_mode_active(x->in, G, false), TL_INPUT_OK);
    assert_int_equal(tl_input_set_mode_active(x->in, M, true), TL_INPUT_OK);
    fx_key(x->in, K_SPACE, 1); /* nothing of Menu's */
    fx_key(x->in, K_RETURN, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, CONFIRM));
    assert_false(tl_input_held(x->in, FIRE));
    assert_int_equal(tl_input_set_mode_active(x->in, M, false), TL_INPUT_OK);
    assert_int_equal(tl_input_set_mode_active(x->in, G, true), TL_INPUT_OK);
    tl_input_update(x->in);
    assert_false(tl_input_held(x->in, FIRE)); /* Space is still down since the menu */
    assert_false(tl_input_held(x->in, CONFIRM));
    fx_key(x->in, K_SPACE, 0);
    tl_input_update(x->in);
    assert_false(tl_input_released(x->in, FIRE));
    fx_key(x->in, K_SPACE, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
}

static void test_input_inactive_mode_reads_at_rest(void **state) {
    h *x = (h *)*state;
    fx_key(x->in, K_SPACE, 1);
    tl_input_update(x->in);
    assert_true(tl_input_held(x->in, FIRE));
    assert_int_equal(tl_input_set_mode_active(x->in, G, false), TL_INPUT_OK);
    assert_false(tl_input_is_mode_active(x->in, G));
    tl_input_update(x->in);
    assert_true(tl_input_released(x->in, FIRE));
    assert_false(tl_input_held(x->in, FIRE));
    assert_int_equal(tl_input_set_mode_active(x->in, 0x12345u, true), TL_INPUT_UNKNOWN_MODE);
    assert_int_equal(tl_input_last_result(x->in), TL_INPUT_UNKNOWN_MODE);
    assert_non_null(strstr(x->log.last, "no action of the map is in mode 0x00012345"));
}

/* --- devices ----------------------------------------------------------------------------------- */

static void test_input_family_follows_meaningful_input_once_per_change(void **state) {
    h *x = (h *)*state;
    fx_device(x->in, 5, TL_INPUT_FAMILY_PLAYSTATION, true);
    assert_int_equal(tl_input_device_count(x->in), 1);
    assert_int_equal(tl_input_device_family(x->in, 5), TL_INPUT_FAMILY_PLAYSTATION);
    tl_input_update(x->in);
    assert_int_equal(x->family_events, 0); /* connecting is not input */
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 5, TL_INPUT_BUTTON_A, 1.0f);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 5, TL_INPUT_BUTTON_B, 1.0f);
    tl_input_update(x->in);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 5, TL_INPUT_BUTTON_A, 0.0f);
    tl_input_update(x->in);
    assert_int_equal(x->family_events, 1);
    assert_int_equal(x->families[0], TL_INPUT_FAMILY_PLAYSTATION);
    assert_int_equal(tl_input_current_family(x->in), TL_INPUT_FAMILY_PLAYSTATION);
    /* Keyboard, then a gamepad, within one update: the last one wins, published once. */
    fx_key(x->in, K_E, 1);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 5, TL_INPUT_BUTTON_X, 1.0f);
    tl_input_update(x->in);
    assert_int_equal(x->family_events, 1);
    fx_key(x->in, K_E, 0); /* a release is not meaningful */
    tl_input_update(x->in);
    assert_int_equal(x->family_events, 1);
    fx_key(x->in, K_E, 1);
    tl_input_update(x->in);
    assert_int_equal(x->family_events, 2);
    assert_int_equal(x->families[1], TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD);
    assert_non_null(strstr(x->log.last, "device family PlayStation -> MouseAndKeyboard"));
}

static void test_input_removed_device_releases_its_controls(void **state) {
    h *x = (h *)*state;
    fx_device(x->in, 9, TL_INPUT_FAMILY_SWITCH, true);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 9, TL_INPUT_BUTTON_A, 1.0f);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 9, TL_INPUT_AXIS_LEFTX, -1.0f);
    tl_input_update(x->in);
    assert_true(tl_input_held(x->in, FIRE));
    assert_true(tl_input_held(x->in, MOVE));
    fx_device(x->in, 9, 0, false);
    tl_input_update(x->in);
    assert_true(tl_input_released(x->in, FIRE));
    assert_true(tl_input_released(x->in, MOVE));
    assert_int_equal(tl_input_device_count(x->in), 0);
}

/* Two gamepads hold one button: it stays held until both let go. */
static void test_input_two_gamepads_share_controls(void **state) {
    h *x = (h *)*state;
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 1, TL_INPUT_BUTTON_A, 1.0f);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 2, TL_INPUT_BUTTON_A, 1.0f);
    tl_input_update(x->in);
    assert_int_equal(tl_input_device_count(x->in), 2); /* unannounced: generic gamepads */
    assert_int_equal(tl_input_device_family(x->in, 2), TL_INPUT_FAMILY_GAMEPAD);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 1, TL_INPUT_BUTTON_A, 0.0f);
    tl_input_update(x->in);
    assert_true(tl_input_held(x->in, FIRE));
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 2, TL_INPUT_BUTTON_A, 0.0f);
    tl_input_update(x->in);
    assert_true(tl_input_released(x->in, FIRE));
}

/* Two gamepads on one axis: the largest magnitude drives it; the other's once that one leaves. */
static void test_input_two_gamepads_axis_largest_wins(void **state) {
    h *x = (h *)*state;
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 1, TL_INPUT_AXIS_LEFTX, -0.9f);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 2, TL_INPUT_AXIS_LEFTX, 0.6f);
    tl_input_update(x->in);
    assert_true(near(tl_input_vector(x->in, MOVE).x, -0.875f)); /* (0.9 - 0.2) / 0.8 */
    fx_device(x->in, 1, 0, false);
    tl_input_update(x->in);
    assert_true(near(tl_input_vector(x->in, MOVE).x, 0.5f));
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 2, TL_INPUT_AXIS_LEFTX, 0.0f);
    tl_input_update(x->in);
    assert_true(near(tl_input_vector(x->in, MOVE).x, 0.0f));
    assert_true(tl_input_released(x->in, MOVE));
}

/* The per-kind calls do what tl_input_feed does with the matching event. */
static void test_input_feed_by_kind(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_input_feed_key(x->in, K_SPACE, true), TL_INPUT_OK);
    assert_int_equal(tl_input_feed_gamepad_axis(x->in, 5, TL_INPUT_AXIS_RIGHTX, -1.0f), TL_INPUT_OK);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
    assert_true(near(tl_input_value(x->in, STEER), -1.0f));
    assert_int_equal(tl_input_device_family(x->in, 5), TL_INPUT_FAMILY_GAMEPAD); /* unannounced */
    assert_int_equal(tl_input_current_family(x->in), TL_INPUT_FAMILY_GAMEPAD);
    assert_int_equal(tl_input_feed_key(x->in, K_SPACE, false), TL_INPUT_OK);
    assert_int_equal(tl_input_feed_gamepad_button(x->in, 5, TL_INPUT_BUTTON_A, true), TL_INPUT_OK);
    tl_input_update(x->in);
    assert_true(tl_input_held(x->in, FIRE)); /* the pad's A now */
    assert_int_equal(tl_input_feed_gamepad_button(x->in, 5, TL_INPUT_BUTTON_A, false), TL_INPUT_OK);
    tl_input_update(x->in);
    assert_true(tl_input_released(x->in, FIRE));
    assert_int_equal(tl_input_feed_mouse_button(x->in, 1, true), TL_INPUT_OK);
    assert_int_equal(tl_input_feed_key(x->in, 256, true), TL_INPUT_UNKNOWN_CONTROL);
    assert_int_equal(tl_input_feed_mouse_button(x->in, 8, true), TL_INPUT_UNKNOWN_CONTROL);
    assert_int_equal(tl_input_feed_gamepad_button(x->in, 5, TL_INPUT_BUTTON_END_, true),
                     TL_INPUT_UNKNOWN_CONTROL);
    assert_int_equal(tl_input_feed_gamepad_axis(x->in, 5, TL_INPUT_AXIS_END_, 1.0f),
                     TL_INPUT_UNKNOWN_CONTROL);
    assert_int_equal(tl_input_feed_key(NULL, K_SPACE, true), TL_INPUT_INVALID_ARGUMENT);
    assert_int_equal(tl_input_feed_gamepad_axis(NULL, 5, 0, 1.0f), TL_INPUT_INVALID_ARGUMENT);
    tl_input_update(x->in);
    assert_int_equal(tl_input_current_family(x->in), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD);
}

static void test_input_too_many_devices(void **state) {
    h *x = (h *)*state;
    tl_input_event e;
    uint32_t i;
    memset(&e, 0, sizeof e);
    e.type = TL_INPUT_EVENT_DEVICE_ADDED;
    for (i = 0; i < 8; i++) {
        e.device = 100 + i;
        assert_int_equal(tl_input_feed(x->in, &e), TL_INPUT_OK);
    }
    e.device = 200;
    assert_int_equal(tl_input_feed(x->in, &e), TL_INPUT_TOO_MANY_DEVICES);
    assert_non_null(strstr(x->log.last, "gamepad 200 ignored: 8 gamepads already"));
    /* Its every event is refused the same way, but said once (a ninth pad's stick, each frame). */
    e.type = TL_INPUT_EVENT_GAMEPAD_AXIS;
    e.value = 0.5f;
    for (i = 0; i < 30; i++) assert_int_equal(tl_input_feed(x->in, &e), TL_INPUT_TOO_MANY_DEVICES);
    assert_int_equal(x->log.errors, 1);
}

/* --- rebinding --------------------------------------------------------------------------------- */

static void test_input_rebind_and_its_refusals(void **state) {
    h *x = (h *)*state;
    uint32_t kb = tl_input_binding_find(x->in, FIRE, TL_INPUT_DEVICES_KEYBOARD_MOUSE, 0);
    uint32_t pad = tl_input_binding_find(x->in, FIRE, TL_INPUT_DEVICES_GAMEPAD, 0);
    assert_int_equal(kb, 0);
    assert_int_equal(pad, 1);
    assert_int_equal(tl_input_binding_find(x->in, FIRE, TL_INPUT_DEVICES_GAMEPAD, 2), UINT32_MAX);
    assert_int_equal(tl_input_rebind(x->in, FIRE, kb, PAD("x")), TL_INPUT_WRONG_FAMILY);
    assert_int_equal(tl_input_rebind(x->in, FIRE, pad, PAD("leftxy")), TL_INPUT_KIND_MISMATCH);
    assert_int_equal(tl_input_rebind(x->in, FIRE, kb, KEY("Escape")), TL_INPUT_CONFLICT);
    assert_int_equal(tl_input_conflict(x->in), PAUSE);
    assert_non_null(strstr(x->log.last, "Gameplay.Fire binding 0: keyboard/Escape refused"));
    assert_int_equal(tl_input_rebind(x->in, FIRE, kb, KEY("D")), TL_INPUT_CONFLICT); /* Move's */
    assert_int_equal(tl_input_conflict(x->in), MOVE);
    assert_int_equal(tl_input_rebind(x->in, FIRE, kb, KEY("Return")), TL_INPUT_OK); /* Menu's */
    assert_int_equal(tl_input_binding_control(x->in, FIRE, kb), KEY("Return"));
    fx_key(x->in, K_SPACE, 1);
    fx_key(x->in, K_RETURN, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
    fx_key(x->in, K_RETURN, 0);
    tl_input_update(x->in);
    assert_true(tl_input_released(x->in, FIRE)); /* Space no longer holds it */
    /* A half axis on a button binding: with the press point as its threshold. */
    assert_int_equal(tl_input_rebind(x->in, FIRE, pad, PAD("lefttrigger+")), TL_INPUT_OK);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 1, TL_INPUT_AXIS_LEFTTRIGGER, 1.0f);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
    tl_input_reset_bindings(x->in);
    assert_int_equal(tl_input_binding_control(x->in, FIRE, kb), KEY("Space"));
    assert_int_equal(tl_input_rebind(x->in, 0x77u, 0, KEY("Q")), TL_INPUT_UNKNOWN_ACTION);
    assert_int_equal(tl_input_rebind(x->in, FIRE, 9, KEY("Q")), TL_INPUT_NO_SUCH_BINDING);
    assert_int_equal(tl_input_rebind(x->in, FIRE, kb, 0x99999u), TL_INPUT_UNKNOWN_CONTROL);
}

static void test_input_capture_rebinds_the_next_control(void **state) {
    h *x = (h *)*state;
    fx_key(x->in, K_W, 1); /* held before the capture: not offered */
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_begin(x->in, FIRE, 0, KEY("Escape")), TL_INPUT_OK);
    assert_int_equal(tl_input_capture_begin(x->in, FIRE, 0, 0), TL_INPUT_BUSY);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_WAITING);
    assert_false(tl_input_held(x->in, MOVE)); /* frozen at rest */
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 1, TL_INPUT_BUTTON_Y, 1.0f); /* other family */
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_WAITING);
    fx_key(x->in, K_E, 1);
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_DONE);
    assert_int_equal(tl_input_binding_control(x->in, FIRE, 0), KEY("E"));
    assert_false(tl_input_pressed(x->in, FIRE)); /* the captured press does not fire */
    tl_input_update(x->in);
    assert_false(tl_input_held(x->in, FIRE));
    fx_key(x->in, K_E, 0);
    fx_key(x->in, K_E, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, FIRE));
    /* A conflict ends the capture, changing nothing; the cancel control cancels. */
    assert_int_equal(tl_input_capture_begin(x->in, FIRE, 0, KEY("Escape")), TL_INPUT_OK);
    fx_key(x->in, K_D, 1);
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_CONFLICT);
    assert_int_equal(tl_input_conflict(x->in), MOVE);
    assert_int_equal(tl_input_binding_control(x->in, FIRE, 0), KEY("E"));
    assert_int_equal(tl_input_capture_begin(x->in, FIRE, 0, KEY("Escape")), TL_INPUT_OK);
    fx_key(x->in, K_ESCAPE, 1);
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_CANCELLED);
    assert_false(tl_input_pressed(x->in, PAUSE));
}

/* The actions a capture froze move again once it ends, those whose controls moved in the update
   that ended it too (the conflicting key's action, the cancel key's). */
static void test_input_actions_move_after_a_capture(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_input_capture_begin(x->in, FIRE, 0, KEY("Escape")), TL_INPUT_OK);
    fx_key(x->in, K_D, 1); /* Move's right: a conflict */
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_CONFLICT);
    fx_key(x->in, K_D, 0);
    tl_input_update(x->in);
    fx_key(x->in, K_D, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, MOVE));
    assert_true(near(tl_input_vector(x->in, MOVE).x, 1.0f));
    assert_int_equal(tl_input_capture_begin(x->in, FIRE, 0, KEY("Escape")), TL_INPUT_OK);
    fx_key(x->in, K_ESCAPE, 1); /* the cancel control, and Pause's */
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_CANCELLED);
    fx_key(x->in, K_ESCAPE, 0);
    tl_input_update(x->in);
    fx_key(x->in, K_ESCAPE, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, PAUSE));
}

/* A stick binding captures a stick from either of its axes. */
static void test_input_capture_a_stick(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_input_capture_begin(x->in, MOVE, 4, 0), TL_INPUT_OK);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 1, TL_INPUT_BUTTON_A, 1.0f); /* not a stick */
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_WAITING);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 1, TL_INPUT_AXIS_RIGHTY, -0.9f);
    tl_input_update(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_CONFLICT); /* Steer's rightx */
    assert_int_equal(tl_input_conflict(x->in), STEER);
    tl_input_capture_cancel(x->in);
    assert_int_equal(tl_input_capture_status(x->in), TL_INPUT_CAPTURE_CONFLICT);
}

/* --- saving ------------------------------------------------------------------------------------ */

static void test_input_bindings_round_trip(void **state) {
    h *x = (h *)*state;
    unsigned char bytes[256];
    size_t n;
    assert_int_equal(tl_input_save_bindings(x->in, NULL, 0), 12); /* nothing rebound */
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("F")), TL_INPUT_OK);
    assert_int_equal(tl_input_rebind(x->in, MOVE, 0, KEY("I")), TL_INPUT_OK); /* up */
    n = tl_input_save_bindings(x->in, bytes, sizeof bytes);
    assert_int_equal(n, 12 + 2 * 12);
    assert_memory_equal(bytes, "TLIB\x01\0\0\0\x02\0\0\0", 12);
    assert_int_equal(tl_input_save_bindings(x->in, bytes, 5), n); /* too small: the size alone */
    tl_input_reset_bindings(x->in);
    assert_int_equal(tl_input_binding_control(x->in, FIRE, 0), KEY("Space"));
    assert_int_equal(tl_input_load_bindings(x->in, bytes, n), TL_INPUT_OK);
    assert_int_equal(tl_input_binding_control(x->in, FIRE, 0), KEY("F"));
    assert_int_equal(tl_input_binding_control(x->in, MOVE, 0), KEY("I"));
    assert_int_equal(tl_input_binding_control(x->in, MOVE, 1), KEY("S"));
    assert_int_equal(x->log.warnings, 0);
}

/* Bindings that traded controls (Fire to Escape, Pause to Space, each OK as rebound) load as they
   were saved: a saved binding is checked against the whole loaded set, not against the defaults
   the entries before it left (which dropped both, with two warnings, and restored the defaults). */
static void test_input_traded_controls_round_trip(void **state) {
    h *x = (h *)*state;
    unsigned char bytes[256];
    size_t n;
    unsigned i;
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("Q")), TL_INPUT_OK);
    assert_int_equal(tl_input_rebind(x->in, PAUSE, 0, KEY("Space")), TL_INPUT_OK);
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("Escape")), TL_INPUT_OK);
    assert_int_equal(tl_input_rebind(x->in, MOVE, 0, KEY("E")), TL_INPUT_OK); /* up: a free key */
    n = tl_input_save_bindings(x->in, bytes, sizeof bytes);
    tl_input_reset_bindings(x->in);
    assert_int_equal(tl_input_load_bindings(x->in, bytes, n), TL_INPUT_OK);
    assert_int_equal(tl_input_binding_control(x->in, FIRE, 0), KEY("Escape"));
    assert_int_equal(tl_input_binding_control(x->in, PAUSE, 0), KEY("Space"));
    assert_int_equal(tl_input_binding_control(x->in, MOVE, 0), KEY("E"));
    assert_int_equal(x->log.warnings, 0);
    /* Two saved bindings on one control (bytes no save writes; entries in map order: Fire, Move,
       Pause): the first in map order goes back to its default, the other keeps it. */
    for (i = 0; i < 4; i++) bytes[12 + 4 + i] = bytes[12 + 24 + 4 + i] = (unsigned char)(KEY("Q") >> (8 * i));
    assert_int_equal(tl_input_load_bindings(x->in, bytes, n), TL_INPUT_OK);
    assert_int_equal(tl_input_binding_control(x->in, FIRE, 0), KEY("Space"));
    assert_int_equal(tl_input_binding_control(x->in, PAUSE, 0), KEY("Q"));
    assert_int_equal(tl_input_binding_control(x->in, MOVE, 0), KEY("E"));
    assert_int_equal(x->log.warnings, 1);
    assert_non_null(strstr(x->log.all, "saved binding dropped (Gameplay.Fire: keyboard/Q): another binding"));
}

static void test_input_load_refuses_what_is_not_bindings(void **state) {
    h *x = (h *)*state;
    unsigned char bytes[64];
    size_t n;
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("F")), TL_INPUT_OK);
    n = tl_input_save_bindings(x->in, bytes, sizeof bytes);
    assert_int_equal(tl_input_load_bindings(x->in, bytes, n - 1), TL_INPUT_BAD_DATA);
    assert_non_null(strstr(x->log.last, "the length does not match the count"));
    assert_int_equal(tl_input_binding_control(x->in, FIRE, 0), KEY("F")); /* untouched */
    assert_int_equal(tl_input_load_bindings(x->in, "TLIX", 4), TL_INPUT_BAD_DATA);
    bytes[4] = 2;
    assert_int_equal(tl_input_load_bindings(x->in, bytes, n), TL_INPUT_NEWER_FORMAT);
    assert_int_equal(tl_input_last_result(x->in), TL_INPUT_NEWER_FORMAT);
    assert_int_equal(tl_input_load_bindings(x->in, NULL, 0), TL_INPUT_BAD_DATA);
}

/* A later build's map: Fire's bindings reordered, Steer gone, a new action. Saved bindings by
   action value, family, part and ordinal still land; Steer's is dropped with a warning; the new
   action has its default. */
static void test_input_load_into_a_changed_map(void **state) {
    h *x = (h *)*state;
    static const tl_input_action_info actions[] = {
        { 0x3003u, G, TL_INPUT_KIND_BUTTON, 0, 1, "Gameplay.Jump" },
        { FIRE, G, TL_INPUT_KIND_BUTTON, 1, 2, "Gameplay.Fire" },
    };
    tl_input_binding_info bindings[3];
    tl_input_map map;
    tl_input_desc desc;
    tl_input *later;
    unsigned char bytes[128];
    size_t n;
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("Q")), TL_INPUT_OK); /* Jump's, later */
    assert_int_equal(tl_input_rebind(x->in, FIRE, 1, PAD("y")), TL_INPUT_OK);
    assert_int_equal(tl_input_rebind(x->in, STEER, 0, KEY("J")), TL_INPUT_OK);
    n = tl_input_save_bindings(x->in, bytes, sizeof bytes);
    memset(bindings, 0, sizeof bindings);
    bindings[0].control = KEY("Q");     /* Jump */
    bindings[1].control = PAD("a");     /* Fire's gamepad binding first now */
    bindings[2].control = KEY("Space"); /* then its keyboard one */
    memset(&map, 0, sizeof map);
    map.actions = actions;
    map.action_count = 2;
    map.bindings = bindings;
    map.binding_count = 3;
    memset(&desc, 0, sizeof desc);
    desc.map = &map;
    desc.logger = &x->logger;
    later = tl_input_create(&desc);
    assert_non_null(later);
    assert_int_equal(tl_input_load_bindings(later, bytes, n), TL_INPUT_OK);
    assert_int_equal(tl_input_binding_control(later, FIRE, 0), PAD("y"));
    assert_int_equal(tl_input_binding_control(later, FIRE, 1), KEY("Space")); /* Q conflicts now */
    assert_int_equal(tl_input_binding_control(later, 0x3003u, 0), KEY("Q"));
    assert_int_equal(x->log.warnings, 2);
    assert_non_null(strstr(x->log.all, "saved binding dropped (action 0x00001004): the map no longer has it"));
    assert_non_null(strstr(x->log.all, "saved binding dropped (Gameplay.Fire: keyboard/Q): another binding"));
    tl_input_destroy(later);
}

/* --- prompts ----------------------------------------------------------------------------------- */

typedef struct seen {
    int calls;
    uint32_t asset, family;
} seen;

static void on_prompt(void *ctx, uint32_t action, uint32_t asset, uint32_t family) {
    seen *s = (seen *)ctx;
    (void)action;
    s->calls++;
    s->asset = asset;
    s->family = family;
}

static void test_input_prompt_follows_family_and_rebinding(void **state) {
    h *x = (h *)*state;
    seen s = { 0, 0, 0 };
    uint32_t handle = tl_input_prompt_watch(x->in, FIRE, on_prompt, &s);
    assert_int_not_equal(handle, 0);
    assert_int_equal(s.calls, 1);
    assert_int_equal(s.asset, 100); /* keyboard/Space */
    fx_device(x->in, 4, TL_INPUT_FAMILY_XBOX, true);
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 4, TL_INPUT_BUTTON_B, 1.0f);
    tl_input_update(x->in);
    assert_int_equal(s.calls, 2);
    assert_int_equal(s.asset, 200);
    assert_int_equal(s.family, TL_INPUT_FAMILY_XBOX);
    assert_int_equal(tl_input_prompt_glyph(x->in, FIRE), 200);
    tl_input_update(x->in);
    assert_int_equal(s.calls, 2); /* nothing changed */
    fx_device(x->in, 6, TL_INPUT_FAMILY_SWITCH, true); /* no Switch row: the Gamepad one */
    fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_BUTTON, 6, TL_INPUT_BUTTON_B, 1.0f);
    tl_input_update(x->in);
    assert_int_equal(s.asset, 202);
    fx_key(x->in, K_E, 1);
    tl_input_update(x->in);
    assert_int_equal(s.asset, 100);
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("P")), TL_INPUT_OK);
    assert_int_equal(s.asset, 102); /* told by the rebinding itself */
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("Q")), TL_INPUT_OK);
    assert_int_equal(s.asset, 0); /* no glyph for Q */
    tl_input_prompt_unwatch(x->in, handle);
    tl_input_reset_bindings(x->in);
    assert_int_equal(s.calls, 6);
    assert_int_equal(tl_input_prompt_watch(x->in, 0x55u, on_prompt, &s), 0);
    assert_int_equal(tl_input_last_result(x->in), TL_INPUT_UNKNOWN_ACTION);
}

static void test_input_prompt_watchers_are_bounded(void **state) {
    h *x = (h *)*state;
    seen s = { 0, 0, 0 };
    int i;
    for (i = 0; i < 32; i++) assert_int_not_equal(tl_input_prompt_watch(x->in, FIRE, on_prompt, &s), 0);
    assert_int_equal(tl_input_prompt_watch(x->in, FIRE, on_prompt, &s), 0);
    assert_int_equal(tl_input_last_result(x->in), TL_INPUT_TOO_MANY_PROMPTS);
}

/* --- names, families, the map ------------------------------------------------------------------ */

static void test_input_control_names_round_trip(void **state) {
    static const char *const names[] = { "keyboard/A", "keyboard/0", "keyboard/Space", "keyboard/LeftShift",
                                         "keyboard/KeypadEnter", "mouse/left", "mouse/x2", "gamepad/a",
                                         "gamepad/touchpad", "gamepad/leftx", "gamepad/lefty-",
                                         "gamepad/righttrigger+", "gamepad/leftxy", "gamepad/rightxy" };
#define KEY_ROW(name, usage) { "keyboard/" name, usage },
    static const struct { const char *name; uint32_t usage; } keys[] = { TL_INPUT_KEYS(KEY_ROW) };
#undef KEY_ROW
    char out[40];
    size_t i;
    (void)state;
    assert_int_equal(sizeof keys / sizeof keys[0], 103);
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        uint32_t c = tl_input_control_from_name(keys[i].name, strlen(keys[i].name));
        assert_int_equal(c, TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, keys[i].usage));
        assert_string_equal(tl_input_control_name(c, out, sizeof out), keys[i].name);
    }
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        uint32_t c = tl_input_control_from_name(names[i], strlen(names[i]));
        assert_int_not_equal(c, 0);
        assert_string_equal(tl_input_control_name(c, out, sizeof out), names[i]);
    }
    assert_int_equal(tl_input_control_from_name("KEYBOARD/space", 14), KEY("Space"));
    assert_int_equal(KEY("Space"), TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, 44));
    assert_int_equal(tl_input_control_from_name("keyboard/Spcae", 14), 0);
    assert_int_equal(tl_input_control_from_name("gamepad/leftstick+", 18), 0);
    assert_int_equal(tl_input_control_from_name("gamepad/", 8), 0);
    assert_null(tl_input_control_name(TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, 250), out, sizeof out));
    assert_null(tl_input_control_name(TL_INPUT_CONTROL(TL_INPUT_CLASS_AXIS, 0x300), out, sizeof out));
    assert_string_equal(tl_input_control_name(PAD("leftxy"), out, 11), "gamepad/le"); /* cut */
    assert_true(tl_input_controls_overlap(PAD("leftx"), PAD("leftx-")));
    assert_true(tl_input_controls_overlap(PAD("leftxy"), PAD("lefty+")));
    assert_false(tl_input_controls_overlap(PAD("leftx-"), PAD("leftx+")));
    assert_false(tl_input_controls_overlap(PAD("leftxy"), PAD("rightx")));
    assert_int_equal(tl_input_control_devices(KEY("A")), TL_INPUT_DEVICES_KEYBOARD_MOUSE);
    assert_int_equal(tl_input_control_devices(PAD("leftxy")), TL_INPUT_DEVICES_GAMEPAD);
    assert_int_equal(tl_input_control_devices(0), 0);
}

/* The plain C square root gives IEEE's correctly rounded result (sqrtss's, where the build uses
   it): the nearest float, its two midpoints' squares (exact in a double) on either side of v. */
static void test_input_sqrt_is_correctly_rounded(void **state) {
    uint32_t bits, wrong = 0;
    (void)state;
    for (bits = 1; bits <= 0x40800000u; bits += 997u) { /* denormals up to 4 */
        float v, r, below, above;
        double lo, hi;
        memcpy(&v, &bits, sizeof v);
        r = tl__input_sqrt_exact(v);
        below = tl__input_float_step(r, -1);
        above = tl__input_float_step(r, 1);
        lo = ((double)below + r) * 0.5;
        hi = ((double)r + above) * 0.5;
        wrong += !(lo * lo < (double)v && (double)v < hi * hi);
#if TL__INPUT_SSE
        wrong += r != tl__input_sqrt(v);
#endif
    }
    assert_int_equal(wrong, 0);
    assert_true(tl__input_sqrt_exact(4.0f) == 2.0f && tl__input_sqrt_exact(2.0f) == 1.41421353816986083984375f);
    assert_true(tl__input_sqrt(0.0f) == 0.0f && tl__input_sqrt(-1.0f) == 0.0f);
}

static void test_input_family_guess_and_names(void **state) {
    (void)state;
    assert_int_equal(tl_input_family_guess(0x045e, 0x028e, "whatever"), TL_INPUT_FAMILY_XBOX);
    assert_int_equal(tl_input_family_guess(0x054c, 0x09cc, NULL), TL_INPUT_FAMILY_PLAYSTATION);
    assert_int_equal(tl_input_family_guess(0x057e, 0x2009, ""), TL_INPUT_FAMILY_SWITCH);
    assert_int_equal(tl_input_family_guess(0x0e6f, 1, "PDP Xbox One Controller"), TL_INPUT_FAMILY_XBOX);
    assert_int_equal(tl_input_family_guess(0x1234, 1, "Wireless DualSense"), TL_INPUT_FAMILY_PLAYSTATION);
    assert_int_equal(tl_input_family_guess(0x0f0d, 1, "HORI Pro Controller"), TL_INPUT_FAMILY_SWITCH);
    assert_int_equal(tl_input_family_guess(0x1234, 1, "Generic USB Joystick"), TL_INPUT_FAMILY_GAMEPAD);
    assert_string_equal(tl_input_family_name(TL_INPUT_FAMILY_PLAYSTATION), "PlayStation");
    assert_int_equal(tl_input_family_from_name("mouseandkeyboard"), TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD);
    assert_int_equal(tl_input_family_from_name("Atari"), 0);
}

static void test_input_create_refuses_a_bad_map(void **state) {
    h *x = (h *)*state;
    static const tl_input_action_info twice[] = { { 7, G, TL_INPUT_KIND_BUTTON, 0, 1, "A" },
                                                  { 7, G, TL_INPUT_KIND_BUTTON, 0, 1, "B" } };
    static tl_input_binding_info stick[1];
    tl_input_map map;
    tl_input_desc desc;
    stick[0].control = PAD("leftxy");
    memset(&map, 0, sizeof map);
    map.actions = twice;
    map.action_count = 2;
    map.bindings = stick;
    map.binding_count = 1;
    memset(&desc, 0, sizeof desc);
    desc.map = &map;
    desc.logger = &x->logger;
    assert_null(tl_input_create(&desc)); /* a stick on a button */
    assert_non_null(strstr(x->log.last, "a stick drives only a vector action"));
    stick[0].control = KEY("A");
    assert_null(tl_input_create(&desc));
    assert_non_null(strstr(x->log.last, "an action listed twice"));
    desc.map = NULL; /* no map is not a malformed one: said so */
    assert_null(tl_input_create(&desc));
    assert_non_null(strstr(x->log.last, "tl_input_create (desc.map is required: the generated input_map()): invalid argument"));
    assert_null(tl_input_create(NULL));
}

/* Feeding, updating, querying, rebinding, saving and prompts allocate nothing after create. */
static void test_input_allocates_nothing_after_create(void **state) {
    h *x = (h *)*state;
    unsigned char bytes[128];
    seen s = { 0, 0, 0 };
    long before = allocations;
    int frame;
    (void)tl_input_prompt_watch(x->in, FIRE, on_prompt, &s);
    for (frame = 0; frame < 100; frame++) {
        fx_key(x->in, K_SPACE, frame & 1);
        fx_pad(x->in, TL_INPUT_EVENT_GAMEPAD_AXIS, 3, TL_INPUT_AXIS_LEFTX, (float)(frame % 7) / 7.0f);
        (void)tl_input_set_mode_active(x->in, M, (frame & 4) != 0);
        tl_input_update(x->in);
        (void)tl_input_held(x->in, FIRE);
        (void)tl_input_vector(x->in, MOVE);
    }
    assert_int_equal(tl_input_rebind(x->in, FIRE, 0, KEY("F")), TL_INPUT_OK);
    assert_int_equal(tl_input_load_bindings(x->in, bytes, tl_input_save_bindings(x->in, bytes, sizeof bytes)),
                     TL_INPUT_OK);
    assert_int_equal(allocations, before);
}

/* --- the natives ------------------------------------------------------------------------------- */

/* The natives file: OnInputDeviceChanged at ordinal 20 (TL_INPUT_EVENTS_NATIVE), its signature. */
static void test_input_native_event_matches_the_file(void **state) {
    const tl_input_events native = TL_INPUT_EVENTS_NATIVE;
    char line[256];
    uint32_t n = 0, at = UINT32_MAX;
    FILE *file = fopen(NATIVES_FILE, "r");
    (void)state;
    assert_non_null(file);
    while (fgets(line, sizeof line, file)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || strncmp(line, "//", 2) == 0) continue;
        if (strncmp(line, "OnInputDeviceChanged(", 21) == 0) {
            at = n;
            assert_string_equal(line + 20, "(uint32_t)");
            assert_int_equal(tl_hash32(line + 20, strlen(line + 20), 0), TL_INPUT_SIG_FAMILY);
        }
        n++;
    }
    fclose(file);
    assert_int_equal(native.device_changed, at);
}

/* The modes' native file and their identity values: XXH32 of "native.<name>" (seed 0). */
static void test_input_mode_values_match_the_natives(void **state) {
    static const uint32_t values[] = { TL_INPUT_MODE_GAMEPLAY, TL_INPUT_MODE_MENU, TL_INPUT_MODE_CUTSCENE };
    static const char *const keys[] = { "native.gameplay", "native.menu", "native.cutscene" };
    char line[256];
    int n = 0;
    FILE *file = fopen(MODES_FILE, "r");
    (void)state;
    assert_non_null(file);
    while (fgets(line, sizeof line, file)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || strncmp(line, "//", 2) == 0) continue;
        assert_true(n < 3);
        assert_true(strlen(keys[n]) == len + 7 && strncasecmp(keys[n] + 7, line, len) == 0);
        assert_int_equal(tl_hash32(keys[n], strlen(keys[n]), 0), values[n]);
        n++;
    }
    fclose(file);
    assert_int_equal(n, 3);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_input_button_pressed_held_released, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_two_bindings_one_action, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_tap_between_updates_is_pressed_and_released, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_trigger_threshold, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_composite_vector_is_normalised, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_stick_dead_zone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_axis_action, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_unknown_action_answers_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_latest_mode_owns_a_shared_control, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_control_held_at_activation_is_latched, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_inactive_mode_reads_at_rest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_family_follows_meaningful_input_once_per_change, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_removed_device_releases_its_controls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_two_gamepads_share_controls, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_two_gamepads_axis_largest_wins, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_feed_by_kind, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_too_many_devices, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_rebind_and_its_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_capture_rebinds_the_next_control, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_actions_move_after_a_capture, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_capture_a_stick, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_bindings_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_traded_controls_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_load_refuses_what_is_not_bindings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_load_into_a_changed_map, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_prompt_follows_family_and_rebinding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_prompt_watchers_are_bounded, setup, teardown),
        cmocka_unit_test(test_input_control_names_round_trip),
        cmocka_unit_test(test_input_family_guess_and_names),
        cmocka_unit_test(test_input_sqrt_is_correctly_rounded),
        cmocka_unit_test_setup_teardown(test_input_create_refuses_a_bad_map, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_allocates_nothing_after_create, setup, teardown),
        cmocka_unit_test(test_input_native_event_matches_the_file),
        cmocka_unit_test(test_input_mode_values_match_the_natives),
    };
    return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}
