/* Fuzz target: saved input bindings as tl_input_load_bindings receives them from a save (save.h
 * checks its files' hashes, but a save is the player's to edit), over the action map of
 * tests/input (input_fixture.h). The input is loaded as it is, then as entries behind a header
 * made right (format 1, the count its length gives), each entry's action made one of the map's
 * (by its first byte) unless it is one already or its last byte is 0xFF, so that the fuzzer
 * reaches the entries. Checked after each
 * load: every binding holds its default or a control that suits it, no binding away from its
 * default overlaps another of its mode (what the load promises), and the bindings saved again
 * load into a fresh input as the same bindings. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TL_INPUT_IMPL
#include "../input/input_fixture.h"

static void require(int ok) {
    if (!ok) abort();
}

static void quiet(void *user, const tl_log_record *rec) {
    (void)user, (void)rec;
}

static tl_input *make_input(void) {
    static tl_logger logger = {quiet, NULL, TL_LOG_LEVEL_INFO};
    tl_input_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.map = fx_input_map();
    desc.logger = &logger;
    return tl_input_create(&desc);
}

/* Binding b of the map, as the action and the index the API takes. */
static uint32_t control_of(const tl_input *in, uint32_t b, const tl_input_action_info **action) {
    const tl_input_action_info *a = &fx_actions[0];
    while (b >= a->first_binding + a->binding_count) a++;
    *action = a;
    return tl_input_binding_control(in, a->action, b - a->first_binding);
}

static void check_bindings(const tl_input *in) {
    uint32_t b, o;
    for (b = 0; b < fx_map.binding_count; b++) {
        const tl_input_action_info *a, *other;
        uint32_t control = control_of(in, b, &a);
        if (control == fx_bindings[b].control) continue;
        require(tl_input_control_devices(control) == tl_input_control_devices(fx_bindings[b].control));
        require(tl_input_binding_misfit(a->kind, fx_bindings[b].part, control) == NULL);
        for (o = 0; o < fx_map.binding_count; o++) {
            uint32_t theirs = control_of(in, o, &other);
            require(o == b || other->mode != a->mode || !tl_input_controls_overlap(theirs, control));
        }
    }
}

/* The bindings saved and loaded into a fresh input: the same. */
static void check_round_trip(const tl_input *in) {
    static unsigned char bytes[12 + 19 * 12];
    size_t n = tl_input_save_bindings(in, bytes, sizeof bytes);
    tl_input *again = make_input();
    const tl_input_action_info *a;
    uint32_t b;
    require(n <= sizeof bytes && again != NULL);
    require(tl_input_load_bindings(again, bytes, n) == TL_INPUT_OK);
    for (b = 0; b < fx_map.binding_count; b++) require(control_of(again, b, &a) == control_of(in, b, &a));
    tl_input_destroy(again);
}

static int is_action(uint32_t id) {
    size_t i;
    for (i = 0; i < sizeof fx_actions / sizeof fx_actions[0]; i++)
        if (fx_actions[i].action == id) return 1;
    return 0;
}

static void load_and_check(tl_input *in, const unsigned char *data, size_t size) {
    tl_input_result r = tl_input_load_bindings(in, data, size);
    require(r == TL_INPUT_OK || r == TL_INPUT_BAD_DATA || r == TL_INPUT_NEWER_FORMAT);
    check_bindings(in);
    check_round_trip(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static unsigned char made[12 + 64 * 12];
    size_t count = size / 12 < 64 ? size / 12 : 64, i;
    tl_input *in = make_input();
    (void)fx_sink, (void)fx_key, (void)fx_pad, (void)fx_device; /* (the fixture's, for the tests) */
    require(in != NULL);
    load_and_check(in, data, size);
    memcpy(made, "TLIB\x01\0\0\0", 8);
    made[8] = (unsigned char)count;
    made[9] = made[10] = made[11] = 0;
    memcpy(made + 12, data, count * 12);
    for (i = 0; i < count; i++) {
        unsigned char *e = made + 12 + i * 12;
        uint32_t raw = (uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16 | (uint32_t)e[3] << 24;
        uint32_t id = fx_actions[e[0] % (sizeof fx_actions / sizeof fx_actions[0])].action;
        if (e[3] == 0xFF || is_action(raw)) continue;
        e[0] = (unsigned char)id;
        e[1] = (unsigned char)(id >> 8);
        e[2] = e[3] = 0;
    }
    load_and_check(in, made, 12 + count * 12);
    tl_input_destroy(in);
    return 0;
}
