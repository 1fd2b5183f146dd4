/* interface.h: the stack (show, conceal, persistent, cancel and sub-panel cancel, payloads,
   clear, discard), the mode hook against a real input.h, selectables (grid navigation, wrap,
   disabled ones, confirm, OnUIElementSelected) driven by input.h's actions through the command
   hook, interactables (circles and boxes, OnInteractableDetected / OutOfRange, the single
   provider OnInteract, a second one refused), the natives file, no allocation after create. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static long allocations;
static int refuse_allocations; /* the allocator fails while set */
static void *counting_malloc(size_t n) {
    allocations++;
    return refuse_allocations ? NULL : malloc(n);
}
#define TL_MALLOC(size) counting_malloc(size)
#define TL_FREE(ptr) free(ptr)
#define TL_IMPLEMENTATION
#include <threadlink/hash.h>
#include <threadlink/interface.h>
#include <threadlink/input.h>

#ifndef NATIVES_FILE
#error "NATIVES_FILE must name runtime/threadlink/natives/Iris.Events.Native.txt"
#endif

#define TITLE 1u
#define OPTIONS 2u
#define PAUSE_MENU 3u
#define HUD 4u

/* The Menu mode's commands and one Gameplay action, as threadlink-gen bakes them. */
enum { A_UP = 0x501, A_DOWN, A_LEFT, A_RIGHT, A_CONFIRM, A_BACK, A_FIRE };
static tl_input_binding_info menu_bindings[7];
static const tl_input_action_info menu_actions[] = {
    { A_UP, TL_INPUT_MODE_MENU, TL_INPUT_KIND_BUTTON, 0, 1, "Menu.Up" },
    { A_DOWN, TL_INPUT_MODE_MENU, TL_INPUT_KIND_BUTTON, 1, 1, "Menu.Down" },
    { A_LEFT, TL_INPUT_MODE_MENU, TL_INPUT_KIND_BUTTON, 2, 1, "Menu.Left" },
    { A_RIGHT, TL_INPUT_MODE_MENU, TL_INPUT_KIND_BUTTON, 3, 1, "Menu.Right" },
    { A_CONFIRM, TL_INPUT_MODE_MENU, TL_INPUT_KIND_BUTTON, 4, 1, "Menu.Confirm" },
    { A_BACK, TL_INPUT_MODE_MENU, TL_INPUT_KIND_BUTTON, 5, 1, "Menu.Back" },
    { A_FIRE, TL_INPUT_MODE_GAMEPLAY, TL_INPUT_KIND_BUTTON, 6, 1, "Gameplay.Fire" },
};

typedef struct h {
    tl_events reg;
    tl_logger logger;
    char log[2048];
    int errors;
    tl_interface *ui;
    tl_input *in;
    tl_input_map map;
    char trace[1024];
    uint32_t cancelled[4], selected[8][2], detected[8], gone[8];
    int n_cancelled, n_selected, n_detected, n_gone;
    int clear_on_confirm;
    int shown[16]; /* by interface id: show sets it, conceal clears it */
} h;

static h *current;

static void sink(void *user, const tl_log_record *r) {
    h *x = (h *)user;
    size_t used = strlen(x->log);
    x->errors += r->level == TL_LOG_LEVEL_ERROR;
    snprintf(x->log + used, sizeof x->log - used, "%s\n", r->line);
}

static void trace(const char *what, uint32_t id) {
    size_t used = strlen(current->trace);
    snprintf(current->trace + used, sizeof current->trace - used, "%s%s%u", used ? " " : "", what, (unsigned)id);
}

/* Each interface's self is its id. */
static uint32_t id_of(void *self) { return (uint32_t)(uintptr_t)self; }
static void v_boot(void *self, tl_interface *ui, uint32_t id) {
    (void)ui;
    assert_int_equal(id_of(self), id);
    trace("boot", id);
}
static void v_show(void *self) {
    current->shown[id_of(self)] = 1;
    trace("show", id_of(self));
}
static void v_conceal(void *self) {
    current->shown[id_of(self)] = 0;
    trace("conceal", id_of(self));
}
static void v_cancelled(void *self) { trace("cancelled", id_of(self)); }
static void v_sub(void *self) { trace("sub", id_of(self)); }
static void v_confirm(void *self, uint32_t selectable) {
    trace("confirm", id_of(self) * 100 + selectable);
    if (current->clear_on_confirm) tl_interface_clear(current->ui);
}
static void v_discard(void *self) { trace("discard", id_of(self)); }
static bool v_preprocess(void *self, const void *payload) {
    trace("payload", id_of(self) * 100 + (uint32_t)*(const int *)payload);
    return *(const int *)payload >= 0;
}
static const tl_interface_vtable vt = { v_boot, v_show, v_conceal, v_cancelled, v_sub, v_confirm, v_discard, v_preprocess };

static void on_cancelled(void *ctx, uint32_t id) {
    h *x = (h *)ctx;
    x->cancelled[x->n_cancelled++ & 3] = id;
}
static void on_selected(void *ctx, uint32_t ui_id, uint32_t selectable) {
    h *x = (h *)ctx;
    x->selected[x->n_selected & 7][0] = ui_id;
    x->selected[x->n_selected++ & 7][1] = selectable;
}
static void on_detected(void *ctx, uint32_t id) {
    h *x = (h *)ctx;
    x->detected[x->n_detected++ & 7] = id;
}
static void on_gone(void *ctx, uint32_t id) {
    h *x = (h *)ctx;
    x->gone[x->n_gone++ & 7] = id;
}

/* The glue a game writes (interface.h's usage block). */
static uint32_t menu_commands(void *in) {
    static const uint32_t actions[TL_INTERFACE_COMMAND_COUNT] = { A_UP, A_DOWN, A_LEFT, A_RIGHT, A_CONFIRM, A_BACK };
    return tl_input_pressed_mask((tl_input *)in, actions, TL_INTERFACE_COMMAND_COUNT);
}
static void set_mode(void *in, uint32_t mode, bool active) {
    trace(active ? "on" : "off", mode == TL_INPUT_MODE_MENU ? 1u : 2u);
    (void)tl_input_set_mode_active((tl_input *)in, mode, active);
}

static int setup(void **state) {
    static const char *const controls[7] = { "keyboard/Up", "keyboard/Down", "keyboard/Left", "keyboard/Right",
                                             "keyboard/Return", "keyboard/Escape", "keyboard/Return" };
    static const tl_events_info table[26] = {
        [21] = { "OnUICancelled", TL_INTERFACE_SIG_ID, 0 },
        [22] = { "OnUIElementSelected", TL_INTERFACE_SIG_SELECTED, 0 },
        [23] = { "OnInteract", TL_INTERFACE_SIG_INTERACT, TL_EVENTS_SINGLE_PROVIDER },
        [24] = { "OnInteractableDetected", TL_INTERFACE_SIG_ID, 0 },
        [25] = { "OnInteractableOutOfRange", TL_INTERFACE_SIG_ID, 0 },
        [20] = { "OnInputDeviceChanged", TL_INPUT_SIG_FAMILY, 0 },
    };
    h *x = (h *)calloc(1, sizeof *x);
    tl_input_desc idesc;
    tl_interface_desc desc;
    int i;
    current = x;
    x->logger.sink = sink;
    x->logger.user = x;
    assert_int_equal(tl_events_init_table(&x->reg, 26, table, &x->logger), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&x->reg, 21, TL_INTERFACE_SIG_ID, 0, TL_EVENTS_FN(on_cancelled), x), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&x->reg, 22, TL_INTERFACE_SIG_SELECTED, 0, TL_EVENTS_FN(on_selected), x), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&x->reg, 24, TL_INTERFACE_SIG_ID, 0, TL_EVENTS_FN(on_detected), x), TL_EVENTS_OK);
    assert_int_equal(tl_events_subscribe(&x->reg, 25, TL_INTERFACE_SIG_ID, 0, TL_EVENTS_FN(on_gone), x), TL_EVENTS_OK);
    for (i = 0; i < 7; i++) menu_bindings[i].control = tl_input_control_from_name(controls[i], strlen(controls[i]));
    x->map.actions = menu_actions;
    x->map.action_count = 7;
    x->map.bindings = menu_bindings;
    x->map.binding_count = 7;
    memset(&idesc, 0, sizeof idesc);
    idesc.map = &x->map;
    idesc.logger = &x->logger;
    x->in = tl_input_create(&idesc);
    assert_non_null(x->in);
    assert_int_equal(tl_input_set_mode_active(x->in, TL_INPUT_MODE_GAMEPLAY, true), TL_INPUT_OK);
    memset(&desc, 0, sizeof desc);
    desc.registry = &x->reg;
    desc.logger = &x->logger;
    desc.commands = menu_commands;
    desc.set_mode = set_mode;
    desc.hooks_ctx = x->in;
    x->ui = tl_interface_create(&desc);
    assert_non_null(x->ui);
    assert_int_equal(tl_interface_register(x->ui, TITLE, &vt, (void *)(uintptr_t)TITLE, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_register(x->ui, OPTIONS, &vt, (void *)(uintptr_t)OPTIONS, TL_INTERFACE_CANCELLABLE),
                     TL_INTERFACE_OK);
    assert_int_equal(tl_interface_register(x->ui, PAUSE_MENU, &vt, (void *)(uintptr_t)PAUSE_MENU,
                                           TL_INTERFACE_CANCELLABLE | TL_INTERFACE_PERSISTENT),
                     TL_INTERFACE_OK);
    assert_string_equal(x->trace, "boot1 boot2 boot3");
    x->trace[0] = '\0';
    *state = x;
    return 0;
}

static int teardown(void **state) {
    h *x = (h *)*state;
    tl_interface_destroy(x->ui);
    tl_input_destroy(x->in);
    tl_events_discard(&x->reg);
    free(x);
    return 0;
}

static void key(h *x, uint32_t usage, int down) {
    tl_input_event e;
    memset(&e, 0, sizeof e);
    e.type = TL_INPUT_EVENT_KEY;
    e.code = usage;
    e.value = down ? 1.0f : 0.0f;
    assert_int_equal(tl_input_feed(x->in, &e), TL_INPUT_OK);
}

/* A key pressed and released, one frame each: input then the interface stack. */
static void tap(h *x, uint32_t usage) {
    key(x, usage, 1);
    tl_input_update(x->in);
    tl_interface_update(x->ui);
    key(x, usage, 0);
    tl_input_update(x->in);
    tl_interface_update(x->ui);
}

/* --- the stack --------------------------------------------------------------------------------- */

static void test_interface_stack_conceals_and_shows(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_interface_stack(x->ui, TITLE), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    assert_true(tl_interface_is_top(x->ui, OPTIONS));
    assert_true(tl_interface_is_stacked(x->ui, TITLE));
    assert_int_equal(tl_interface_depth(x->ui), 2);
    assert_int_equal(tl_interface_pop_top(x->ui), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_top(x->ui), TITLE);
    assert_int_equal(tl_interface_pop_top(x->ui), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_pop_top(x->ui), TL_INTERFACE_EMPTY);
    assert_string_equal(x->trace, "off2 on1 show1 conceal1 show2 conceal2 show1 conceal1 off1 on2");
}

/* A persistent interface stays shown under another. */
static void test_interface_persistent_is_not_concealed(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_interface_stack(x->ui, PAUSE_MENU), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_pop_top(x->ui), TL_INTERFACE_OK);
    assert_string_equal(x->trace, "off2 on1 show3 show2 conceal2");
    x->trace[0] = '\0';
    tl_interface_clear(x->ui);
    assert_string_equal(x->trace, "conceal3 off1 on2");
    assert_int_equal(tl_interface_depth(x->ui), 0);
}

static void test_interface_cancel_and_sub_panel_cancel(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_interface_stack(x->ui, TITLE), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_cancel(x->ui), TL_INTERFACE_NOT_CANCELLABLE);
    assert_int_equal(tl_interface_top(x->ui), TITLE);
    assert_int_equal(tl_interface_stack(x->ui, PAUSE_MENU), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    x->trace[0] = '\0';
    assert_int_equal(tl_interface_cancel(x->ui), TL_INTERFACE_OK); /* Options, over the pause menu */
    assert_string_equal(x->trace, "conceal2 cancelled2 sub3");     /* the pause menu stayed shown */
    assert_int_equal(x->n_cancelled, 1);
    assert_int_equal(x->cancelled[0], OPTIONS);
    x->trace[0] = '\0';
    assert_int_equal(tl_interface_cancel(x->ui), TL_INTERFACE_OK); /* the pause menu, over the title */
    assert_string_equal(x->trace, "conceal3 cancelled3 show1");    /* the title is not cancellable */
    assert_int_equal(x->cancelled[1], PAUSE_MENU);
    assert_int_equal(tl_interface_cancel(x->ui), TL_INTERFACE_NOT_CANCELLABLE);
    assert_int_equal(x->n_cancelled, 2);
}

static void test_interface_payload_and_refusals(void **state) {
    h *x = (h *)*state;
    int yes = 7, no = -1;
    assert_int_equal(tl_interface_stack_with(x->ui, OPTIONS, &no), TL_INTERFACE_REFUSED);
    assert_int_equal(tl_interface_depth(x->ui), 0);
    assert_int_equal(tl_interface_stack_with(x->ui, OPTIONS, &yes), TL_INTERFACE_OK);
    assert_string_equal(x->trace, "payload199 payload207 off2 on1 show2");
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_ALREADY_STACKED);
    assert_int_equal(tl_interface_stack(x->ui, 99), TL_INTERFACE_UNKNOWN_INTERFACE);
    assert_int_equal(tl_interface_last_result(x->ui), TL_INTERFACE_UNKNOWN_INTERFACE);
    assert_int_equal(tl_interface_register(x->ui, TITLE, &vt, NULL, 0), TL_INTERFACE_ALREADY_REGISTERED);
    assert_int_equal(tl_interface_register(x->ui, 0, &vt, NULL, 0), TL_INTERFACE_INVALID_ARGUMENT);
    assert_non_null(strstr(x->log, "stack: interface 2 refused its payload"));
    assert_non_null(strstr(x->log, "stack: no interface 99"));
}

/* The stack's destruction conceals what is stacked and discards every interface. */
static void test_interface_destroy_discards_every_interface(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    x->trace[0] = '\0';
    tl_interface_destroy(x->ui);
    x->ui = NULL;
    assert_string_equal(x->trace, "conceal2 discard1 discard2 discard3");
}

/* The modes: Menu over Gameplay while stacked, so Return confirms and does not fire. */
static void test_interface_switches_the_input_modes(void **state) {
    h *x = (h *)*state;
    assert_int_equal(tl_interface_add_selectable(x->ui, TITLE, 1, 0, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, TITLE), TL_INTERFACE_OK);
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_MENU));
    assert_false(tl_input_is_mode_active(x->in, TL_INPUT_MODE_GAMEPLAY));
    key(x, 40, 1);
    tl_input_update(x->in);
    assert_true(tl_input_pressed(x->in, A_CONFIRM));
    assert_false(tl_input_pressed(x->in, A_FIRE));
    tl_interface_update(x->ui);
    assert_non_null(strstr(x->trace, "confirm101"));
    tl_interface_clear(x->ui);
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_GAMEPLAY));
    tl_input_update(x->in);
    assert_false(tl_input_held(x->in, A_FIRE)); /* Return is still down since the menu */
}

/* A toast that pops itself when concealed (vtable functions may pop): stacking a menu over it
   conceals it, it pops, the stack empties (Gameplay back), and the menu is pushed onto an empty
   stack: the modes switch to Menu again (the menu was stacked while the modes said Gameplay). */
#define TOAST 9u
static void toast_conceal(void *self) { (void)tl_interface_pop_top((tl_interface *)self); }

static void test_interface_modes_when_a_conceal_empties_the_stack(void **state) {
    h *x = (h *)*state;
    static const tl_interface_vtable toast = { NULL, NULL, toast_conceal, NULL, NULL, NULL, NULL, NULL };
    assert_int_equal(tl_interface_register(x->ui, TOAST, &toast, x->ui, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, TOAST), TL_INTERFACE_OK);
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_MENU));
    assert_int_equal(tl_interface_stack(x->ui, TITLE), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_depth(x->ui), 1);
    assert_true(tl_interface_is_top(x->ui, TITLE));
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_MENU));
    assert_false(tl_input_is_mode_active(x->in, TL_INPUT_MODE_GAMEPLAY));
    tl_interface_clear(x->ui);
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_GAMEPLAY));
}

/* --- calls from inside the stack's own calls ---------------------------------------------------- */

#define SELF_CLOSING 10u /* pops itself when covered, as the red team's toast */
#define NAGGING 11u      /* stacks HUD when covered */
#define VANISHING 12u    /* pops itself as it is shown */
#define HANDING_ON 13u   /* stacks Options as it is shown */
#define STACKS_AT_DISCARD 14u

static int shown_count(const h *x) {
    int i, n = 0;
    for (i = 0; i < 16; i++) n += x->shown[i];
    return n;
}

static void self_closing_conceal(void *self) {
    v_conceal(self);
    if (tl_interface_is_top(current->ui, id_of(self))) (void)tl_interface_pop_top(current->ui);
}
static void nagging_conceal(void *self) {
    v_conceal(self);
    if (!tl_interface_is_stacked(current->ui, HUD)) (void)tl_interface_stack(current->ui, HUD);
}
static void vanishing_show(void *self) {
    v_show(self);
    (void)tl_interface_pop_top(current->ui);
}
static void handing_on_show(void *self) {
    v_show(self);
    (void)tl_interface_stack(current->ui, OPTIONS);
}
static tl_interface_result stacked_at_discard;
static void stacking_discard(void *self) {
    v_discard(self);
    stacked_at_discard = tl_interface_stack(current->ui, TITLE);
}

static void reg(h *x, uint32_t id, void (*show)(void *), void (*conceal)(void *), void (*discard)(void *)) {
    static tl_interface_vtable vts[16];
    vts[id] = vt;
    if (show) vts[id].show = show;
    if (conceal) vts[id].conceal = conceal;
    if (discard) vts[id].discard = discard;
    assert_int_equal(tl_interface_register(x->ui, id, &vts[id], (void *)(uintptr_t)id, 0), TL_INTERFACE_OK);
}

/* Stacking over an interface that pops itself in its conceal: the one it uncovers is concealed
   in turn, so the new top is the only interface shown (two were, both non-persistent). */
static void test_interface_conceal_that_pops_leaves_one_shown(void **state) {
    h *x = (h *)*state;
    reg(x, SELF_CLOSING, NULL, self_closing_conceal, NULL);
    assert_int_equal(tl_interface_stack(x->ui, TITLE), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, SELF_CLOSING), TL_INTERFACE_OK);
    x->trace[0] = '\0';
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_depth(x->ui), 2);
    assert_true(tl_interface_is_top(x->ui, OPTIONS));
    assert_string_equal(x->trace, "conceal10 show1 conceal1 show2");
    assert_int_equal(shown_count(x), 1);
    assert_true(x->shown[OPTIONS]);
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_MENU));
    assert_int_equal(tl_interface_pop_top(x->ui), TL_INTERFACE_OK);
    assert_int_equal(shown_count(x), 1);
    assert_true(x->shown[TITLE]);
}

/* A conceal that stacks another interface: that one is covered too (it stayed shown under the
   new top). */
static void test_interface_conceal_that_stacks_is_covered_too(void **state) {
    h *x = (h *)*state;
    reg(x, NAGGING, NULL, nagging_conceal, NULL);
    reg(x, HUD, NULL, NULL, NULL);
    assert_int_equal(tl_interface_stack(x->ui, NAGGING), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_depth(x->ui), 3);
    assert_true(tl_interface_is_top(x->ui, OPTIONS));
    assert_int_equal(shown_count(x), 1);
    assert_true(x->shown[OPTIONS]);
}

/* OnUIElementSelected for a newly stacked interface is published only if it is still the top
   once its show returned: not for one that popped itself, nor for one that stacked another. */
static void test_interface_selection_told_only_for_the_top(void **state) {
    h *x = (h *)*state;
    reg(x, VANISHING, vanishing_show, NULL, NULL);
    reg(x, HANDING_ON, handing_on_show, NULL, NULL);
    assert_int_equal(tl_interface_add_selectable(x->ui, VANISHING, 1, 0, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_add_selectable(x->ui, HANDING_ON, 1, 0, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_add_selectable(x->ui, OPTIONS, 11, 0, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, VANISHING), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_depth(x->ui), 0);
    assert_int_equal(x->n_selected, 0);
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_GAMEPLAY));
    assert_int_equal(tl_interface_stack(x->ui, HANDING_ON), TL_INTERFACE_OK);
    assert_true(tl_interface_is_top(x->ui, OPTIONS));
    assert_int_equal(x->n_selected, 1);
    assert_int_equal(x->selected[0][0], OPTIONS);
    assert_int_equal(x->selected[0][1], 11);
    assert_int_equal(shown_count(x), 1);
}

/* During tl_interface_destroy the stack no longer changes: a discard that stacks is refused and
   logged (no mode switch, no show of a discarded interface). The toast that closes itself when
   concealed is no longer the top when destroy conceals it, so it asks nothing. */
static void test_interface_destroy_refuses_to_stack(void **state) {
    h *x = (h *)*state;
    reg(x, SELF_CLOSING, NULL, self_closing_conceal, NULL);
    reg(x, STACKS_AT_DISCARD, NULL, NULL, stacking_discard);
    assert_int_equal(tl_interface_stack(x->ui, SELF_CLOSING), TL_INTERFACE_OK);
    x->trace[0] = '\0';
    x->errors = 0;
    tl_interface_destroy(x->ui);
    x->ui = NULL;
    assert_string_equal(x->trace, "conceal10 discard1 discard2 discard3 discard10 discard14");
    assert_int_equal(stacked_at_discard, TL_INTERFACE_DESTROYING);
    assert_int_equal(x->errors, 1);
    assert_non_null(strstr(x->log, "stack: refused inside tl_interface_destroy"));
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_MENU)); /* not switched back */
}

/* --- selectables ------------------------------------------------------------------------------- */

/* A 2 x 3 grid:   11 12
                   21 22
                   31 (32 disabled)  */
static void grid(h *x) {
    assert_int_equal(tl_interface_add_selectable(x->ui, OPTIONS, 11, 0, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_add_selectable(x->ui, OPTIONS, 12, 1, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_add_selectable(x->ui, OPTIONS, 21, 0, 1), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_add_selectable(x->ui, OPTIONS, 22, 1, 1), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_add_selectable(x->ui, OPTIONS, 31, 0, 2), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_add_selectable(x->ui, OPTIONS, 32, 1, 2), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_set_enabled(x->ui, OPTIONS, 32, false), TL_INTERFACE_OK);
}

static void test_interface_grid_navigation(void **state) {
    h *x = (h *)*state;
    grid(x);
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 11);
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    assert_int_equal(x->n_selected, 1); /* a newly stacked interface's selection */
    assert_int_equal(x->selected[0][0], OPTIONS);
    assert_int_equal(x->selected[0][1], 11);
    tap(x, 79); /* Right */
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 12);
    tap(x, 81); /* Down */
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 22);
    tap(x, 81); /* Down: 32 is disabled, so 31 (one down, one across) */
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 31);
    tap(x, 81); /* Down again: wraps to the top */
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 11);
    tap(x, 80); /* Left: wraps to the row's far end */
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 12);
    assert_int_equal(x->n_selected, 6);
    assert_int_equal(x->selected[5][1], 12);
    tap(x, 40); /* Return */
    assert_non_null(strstr(x->trace, "confirm212"));
    tap(x, 41); /* Escape: Options is cancellable */
    assert_int_equal(tl_interface_depth(x->ui), 0);
    assert_int_equal(x->cancelled[0], OPTIONS);
}

static void test_interface_navigation_without_wrap(void **state) {
    h *x = (h *)*state;
    tl_interface_desc desc;
    tl_interface_destroy(x->ui);
    memset(&desc, 0, sizeof desc);
    desc.no_wrap = true;
    x->ui = tl_interface_create(&desc);
    assert_int_equal(tl_interface_register(x->ui, OPTIONS, NULL, NULL, 0), TL_INTERFACE_OK);
    grid(x);
    assert_int_equal(tl_interface_navigate(x->ui, TL_INTERFACE_UP), TL_INTERFACE_EMPTY);
    assert_int_equal(tl_interface_stack(x->ui, OPTIONS), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_navigate(x->ui, TL_INTERFACE_UP), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 11);
    assert_int_equal(tl_interface_select(x->ui, OPTIONS, 22), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_navigate(x->ui, TL_INTERFACE_RIGHT), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 22);
    assert_int_equal(tl_interface_select(x->ui, OPTIONS, 32), TL_INTERFACE_INVALID_ARGUMENT); /* disabled */
    assert_int_equal(tl_interface_select(x->ui, OPTIONS, 99), TL_INTERFACE_UNKNOWN_SELECTABLE);
    assert_int_equal(tl_interface_set_enabled(x->ui, OPTIONS, 22, false), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_selected(x->ui, OPTIONS), 11); /* the first enabled one */
}

/* A confirm that clears the stack (New game) leaves it consistent. */
static void test_interface_confirm_may_change_the_stack(void **state) {
    h *x = (h *)*state;
    x->clear_on_confirm = 1;
    assert_int_equal(tl_interface_add_selectable(x->ui, TITLE, 5, 0, 0), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_stack(x->ui, TITLE), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_confirm(x->ui), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_depth(x->ui), 0);
    assert_int_equal(tl_interface_confirm(x->ui), TL_INTERFACE_EMPTY);
    assert_true(tl_input_is_mode_active(x->in, TL_INPUT_MODE_GAMEPLAY));
}

/* --- interactables ----------------------------------------------------------------------------- */

typedef struct chest {
    int opened;
} chest;

static bool open_chest(void *ctx, uint32_t id) {
    (void)id;
    ((chest *)ctx)->opened++;
    return true;
}

static tl_fpv2 at(int x, int y) { return tl_fpv2_make(tl_fp_from_int(x), tl_fp_from_int(y)); }

static void add(h *x, uint32_t id, uint32_t shape, int cx, int cy, int size, chest *c) {
    tl_interface_interactable_desc d;
    memset(&d, 0, sizeof d);
    d.id = id;
    d.interact = open_chest;
    d.ctx = c;
    d.shape = shape;
    d.centre = at(cx, cy);
    d.radius = tl_fp_from_int(size);
    d.half_extents = at(size, size);
    assert_int_equal(tl_interface_interactable_add(x->ui, &d), TL_INTERFACE_OK);
}

static void test_interface_interactable_in_and_out_of_range(void **state) {
    h *x = (h *)*state;
    chest sign = { 0 }, box = { 0 };
    bool answer = false;
    add(x, 7, TL_INTERFACE_CIRCLE, 10, 10, 2, &sign);
    add(x, 8, TL_INTERFACE_BOX, 20, 10, 1, &box);
    assert_int_equal(tl_interface_interact(x->ui, &answer), TL_INTERFACE_NOTHING_IN_RANGE);
    assert_int_equal(tl_interface_detect(x->ui, at(12, 10)), TL_INTERFACE_OK); /* on the edge */
    assert_int_equal(x->n_detected, 1);
    assert_int_equal(x->detected[0], 7);
    assert_int_equal(tl_interface_in_range(x->ui), 7);
    assert_int_equal(tl_interface_detect(x->ui, at(11, 11)), TL_INTERFACE_OK); /* still in */
    assert_int_equal(x->n_detected, 1);
    assert_int_equal(tl_interface_interact(x->ui, &answer), TL_INTERFACE_OK);
    assert_true(answer);
    assert_int_equal(sign.opened, 1);
    assert_int_equal(tl_interface_detect(x->ui, at(12, 12)), TL_INTERFACE_OK); /* 2.83 away */
    assert_int_equal(x->n_gone, 1);
    assert_int_equal(x->gone[0], 7);
    assert_int_equal(tl_events_listener_count(&x->reg, 23), 0);
    assert_int_equal(tl_interface_detect(x->ui, at(21, 9)), TL_INTERFACE_OK); /* the box's corner */
    assert_int_equal(tl_interface_in_range(x->ui), 8);
    assert_int_equal(tl_interface_interact(x->ui, NULL), TL_INTERFACE_OK);
    assert_int_equal(box.opened, 1);
    /* Its discard while in range: out of range, no provider left. */
    assert_int_equal(tl_interface_interactable_remove(x->ui, 8), TL_INTERFACE_OK);
    assert_int_equal(x->gone[1], 8);
    assert_int_equal(tl_interface_interact(x->ui, NULL), TL_INTERFACE_NOTHING_IN_RANGE);
    assert_int_equal(tl_interface_interactable_remove(x->ui, 8), TL_INTERFACE_UNKNOWN_INTERACTABLE);
}

/* A circle of radius 50,000: its squared distances pass TL_FP_MAX (past 46,340), which made every
   point within the bounding box inside. */
static void test_interface_big_circle(void **state) {
    h *x = (h *)*state;
    chest big = { 0 };
    add(x, 9, TL_INTERFACE_CIRCLE, 0, 0, 50000, &big);
    assert_int_equal(tl_interface_detect(x->ui, at(49000, 49000)), TL_INTERFACE_OK); /* 69,296 away */
    assert_int_equal(x->n_detected, 0);
    assert_int_equal(tl_interface_detect(x->ui, at(30000, 40000)), TL_INTERFACE_OK); /* on the edge */
    assert_int_equal(tl_interface_in_range(x->ui), 9);
    assert_int_equal(tl_interface_detect(x->ui, at(30001, 40000)), TL_INTERFACE_OK); /* just out */
    assert_int_equal(tl_interface_in_range(x->ui), 0);
}

/* Overlapping areas: the second in range at once is refused, as the seed throws. */
static void test_interface_second_interactable_refused(void **state) {
    h *x = (h *)*state;
    chest a = { 0 }, b = { 0 };
    add(x, 1, TL_INTERFACE_CIRCLE, 0, 0, 3, &a);
    add(x, 2, TL_INTERFACE_CIRCLE, 4, 0, 3, &b);
    assert_int_equal(tl_interface_detect(x->ui, at(2, 0)), TL_INTERFACE_SECOND_INTERACTABLE);
    assert_int_equal(x->errors, 1);
    assert_non_null(strstr(x->log, "interactable 2 in range while 1 is: OnInteract has one provider"));
    assert_int_equal(tl_interface_in_range(x->ui), 1);
    assert_int_equal(x->n_detected, 1);
    assert_int_equal(tl_interface_interact(x->ui, NULL), TL_INTERFACE_OK);
    assert_int_equal(a.opened, 1);
    assert_int_equal(b.opened, 0);
    /* Leaving one and entering the other in one step is fine: leaving comes first. */
    assert_int_equal(tl_interface_detect(x->ui, at(6, 0)), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_in_range(x->ui), 2);
    assert_int_equal(x->gone[0], 1);
    /* Another provider of OnInteract, not an interactable: events.h refuses. */
    assert_int_equal(tl_interface_detect(x->ui, at(100, 0)), TL_INTERFACE_OK);
    assert_int_equal(tl_events_subscribe(&x->reg, 23, TL_INTERFACE_SIG_INTERACT, TL_EVENTS_SINGLE_PROVIDER,
                                    TL_EVENTS_FN(open_chest), &a), TL_EVENTS_OK);
    assert_int_equal(tl_interface_detect(x->ui, at(0, 0)), TL_INTERFACE_SECOND_INTERACTABLE);
    assert_int_equal(tl_interface_in_range(x->ui), 0);
}

/* Standing in the overlap detects the refusal each frame but logs it once for the pair; once the
   player has left the second area, entering it again logs it again. */
static void test_interface_overlap_logged_once_per_pair(void **state) {
    h *x = (h *)*state;
    chest a = { 0 }, b = { 0 }, c = { 0 };
    int frame;
    add(x, 1, TL_INTERFACE_CIRCLE, 0, 0, 3, &a);
    add(x, 2, TL_INTERFACE_CIRCLE, 4, 0, 3, &b);
    for (frame = 0; frame < 60; frame++)
        assert_int_equal(tl_interface_detect(x->ui, at(2, 0)), TL_INTERFACE_SECOND_INTERACTABLE);
    assert_int_equal(x->errors, 1);
    assert_int_equal(tl_interface_detect(x->ui, at(-2, 0)), TL_INTERFACE_OK); /* out of 2's area */
    assert_int_equal(tl_interface_detect(x->ui, at(2, 0)), TL_INTERFACE_SECOND_INTERACTABLE);
    assert_int_equal(x->errors, 2);
    /* Another pair: 3 overlaps 2 while 2 is in range. */
    add(x, 3, TL_INTERFACE_BOX, 6, 0, 1, &c);
    assert_int_equal(tl_interface_detect(x->ui, at(6, 0)), TL_INTERFACE_SECOND_INTERACTABLE);
    assert_int_equal(tl_interface_in_range(x->ui), 2);
    assert_int_equal(tl_interface_detect(x->ui, at(6, 0)), TL_INTERFACE_SECOND_INTERACTABLE);
    assert_int_equal(x->errors, 3);
    assert_non_null(strstr(x->log, "interactable 3 in range while 2 is"));
}

/* A subscription the registry refuses for another reason than a second provider is said as it
   is: out of memory, or an OnInteract that is not the native event; the interactable stays out of
   range and enters once it can. */
static void test_interface_refused_subscription_says_why(void **state) {
    h *x = (h *)*state;
    static const tl_events_info other_table[24] = { [23] = { "OnInteract", TL_INTERFACE_SIG_ID, 0 } };
    tl_events other;
    chest c = { 0 };
    add(x, 1, TL_INTERFACE_CIRCLE, 0, 0, 3, &c);
    refuse_allocations = 1; /* the registry allocates OnInteract's listeners at its first subscription */
    assert_int_equal(tl_interface_detect(x->ui, at(0, 0)), TL_INTERFACE_OUT_OF_MEMORY);
    refuse_allocations = 0;
    assert_int_equal(tl_interface_in_range(x->ui), 0);
    assert_int_equal(x->n_detected, 0);
    assert_int_equal(tl_interface_detect(x->ui, at(0, 0)), TL_INTERFACE_OK);
    assert_int_equal(tl_interface_in_range(x->ui), 1);
    assert_int_equal(tl_interface_detect(x->ui, at(100, 0)), TL_INTERFACE_OK);
    /* The same interface over a registry whose event 23 takes another signature. */
    assert_int_equal(tl_events_init_table(&other, 24, other_table, &x->logger), TL_EVENTS_OK);
    x->ui->registry = &other;
    assert_int_equal(tl_interface_detect(x->ui, at(0, 0)), TL_INTERFACE_INVALID_ARGUMENT);
    assert_int_equal(tl_interface_in_range(x->ui), 0);
    x->ui->registry = &x->reg;
    tl_events_discard(&other);
}

static void test_interface_interactables_need_a_registry(void **state) {
    h *x = (h *)*state;
    tl_interface_desc desc;
    tl_interface *bare;
    tl_interface_interactable_desc d;
    memset(&desc, 0, sizeof desc);
    desc.logger = &x->logger;
    bare = tl_interface_create(&desc);
    memset(&d, 0, sizeof d);
    d.id = 3;
    assert_int_equal(tl_interface_interactable_add(bare, &d), TL_INTERFACE_NO_REGISTRY);
    d.id = 0;
    assert_int_equal(tl_interface_interactable_add(x->ui, &d), TL_INTERFACE_INVALID_ARGUMENT);
    tl_interface_destroy(bare);
}

static void test_interface_allocates_nothing_after_create(void **state) {
    h *x = (h *)*state;
    chest c = { 0 };
    long before;
    int i;
    grid(x);
    add(x, 1, TL_INTERFACE_BOX, 0, 0, 1, &c);
    /* The registry allocates OnInteract's listener list at its first subscription (events.h). */
    (void)tl_interface_detect(x->ui, at(0, 0));
    before = allocations;
    for (i = 0; i < 50; i++) {
        (void)tl_interface_stack(x->ui, OPTIONS);
        (void)tl_interface_navigate(x->ui, TL_INTERFACE_DOWN);
        (void)tl_interface_confirm(x->ui);
        (void)tl_interface_cancel(x->ui);
        (void)tl_interface_detect(x->ui, at(i % 3, 0));
        (void)tl_interface_interact(x->ui, NULL);
        tl_interface_update(x->ui);
    }
    assert_int_equal(allocations, before);
}

/* --- natives ----------------------------------------------------------------------------------- */

static void test_interface_native_events_match_the_file(void **state) {
    static const char *const lines[5] = { "OnUICancelled(uint32_t)", "OnUIElementSelected(uint32_t, uint32_t)",
                                          "OnInteract()->bool", "OnInteractableDetected(uint32_t)",
                                          "OnInteractableOutOfRange(uint32_t)" };
    static const uint32_t sigs[5] = { TL_INTERFACE_SIG_ID, TL_INTERFACE_SIG_SELECTED, TL_INTERFACE_SIG_INTERACT,
                                      TL_INTERFACE_SIG_ID, TL_INTERFACE_SIG_ID };
    const tl_interface_events native = TL_INTERFACE_EVENTS_NATIVE;
    const uint32_t ordinals[5] = { native.cancelled, native.selected, native.interact, native.detected,
                                   native.out_of_range };
    char line[256];
    uint32_t n = 0;
    int found = 0, k;
    FILE *file = fopen(NATIVES_FILE, "r");
    (void)state;
    assert_non_null(file);
    while (fgets(line, sizeof line, file)) {
        size_t len = strcspn(line, "\r\n");
        line[len] = '\0';
        if (len == 0 || strncmp(line, "//", 2) == 0) continue;
        for (k = 0; k < 5; k++)
            if (strcmp(line, lines[k]) == 0) {
                const char *sig = strchr(line, '(');
                assert_int_equal(ordinals[k], n);
                assert_int_equal(tl_hash32(sig, strlen(sig), 0), sigs[k]);
                found++;
            }
        n++;
    }
    fclose(file);
    assert_int_equal(found, 5);
    assert_int_equal(TL_INTERFACE_MODE_MENU, TL_INPUT_MODE_MENU);
    assert_int_equal(TL_INTERFACE_MODE_GAMEPLAY, TL_INPUT_MODE_GAMEPLAY);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_interface_stack_conceals_and_shows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_persistent_is_not_concealed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_cancel_and_sub_panel_cancel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_payload_and_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_destroy_discards_every_interface, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_switches_the_input_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_modes_when_a_conceal_empties_the_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_conceal_that_pops_leaves_one_shown, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_conceal_that_stacks_is_covered_too, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_selection_told_only_for_the_top, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_destroy_refuses_to_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_grid_navigation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_navigation_without_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_confirm_may_change_the_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_interactable_in_and_out_of_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_big_circle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_second_interactable_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_overlap_logged_once_per_pair, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_refused_subscription_says_why, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_interactables_need_a_registry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interface_allocates_nothing_after_create, setup, teardown),
        cmocka_unit_test(test_interface_native_events_match_the_file),
    };
    return cmocka_run_group_tests_name("interface", tests, NULL, NULL);
}
