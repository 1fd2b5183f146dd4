/* The action map (schemas/actionmap.schema.json), parsed and checked before identity runs:
 *
 *   { "dead_zone": 0.2, "press_point": 0.5,
 *     "modes": [ { "mode": "Gameplay", "actions": [
 *         { "action": "Fire", "kind": "button",
 *           "bindings": [ "keyboard/Space", "gamepad/a",
 *                         { "control": "gamepad/righttrigger", "threshold": 0.5 } ] },
 *         { "action": "Move", "kind": "vector",
 *           "bindings": [ "gamepad/leftxy",
 *                         { "up": "keyboard/W", "down": "keyboard/S", "left": "keyboard/A", "right": "keyboard/D" } ] },
 *         { "action": "Steer", "kind": "axis",
 *           "bindings": [ "gamepad/leftx", { "negative": "keyboard/Left", "positive": "keyboard/Right" } ] } ] } ],
 *     "glyphs": { "catalog": "Content.Game",
 *                 "Xbox": { "gamepad/a": "Glyphs/Xbox/A" }, "MouseAndKeyboard": { ... } } }
 *
 * Refused, each at its file:line:col with a did-you-mean where a name was meant: an unknown
 * control, mode, kind or family; a duplicate action in a mode; a control bound twice in one mode
 * (one action or two: controls overlap as input.h's tl_input_controls_overlap says); a kind
 * mismatch (a stick on a button, a whole axis as a composite part, an axis on a button action
 * without a threshold); a threshold outside (0, 1]; a composite mixing device families. */
#include "input/input_model.h"

#include "base/index_map.h"
#include "base/json_check.h"
#include "base/json_positions.h"
#include "base/suggest.h"
#include "core/config.h"

#include <threadlink/input.h>

#include <jansson.h>
#include <stdio.h>
#include <strings.h>

typedef struct parser {
    input_map_model *m;
    json_checker j;
    VEC(const char *) control_names; /* every control's name, for suggestions */
    index_map action_names;          /* actions by mode and folded name: one lookup per action */
} parser;

static const char *save_str(input_map_model *m, const char *s) { return arena_strndup(&m->strings, s, strlen(s)); }

static bool is_identifier(const char *s)
{
    if (!((*s | 32) >= 'a' && (*s | 32) <= 'z')) return false;
    for (s++; *s; s++)
        if (!ascii_is_word((unsigned char)*s)) return false;
    return true;
}

/* ---- control names ---------------------------------------------------------------------------- */

static void add_name(parser *ps, const char *prefix, const char *name, const char *suffix)
{
    char *s = xasprintf("%s%s%s", prefix, name, suffix);
    *vec_push(&ps->control_names) = save_str(ps->m, s);
    free(s);
}

/* Every name tl_input_control_from_name knows, in input.h's table order. */
static void list_control_names(parser *ps)
{
#define KEY_NAME(name, usage) add_name(ps, "keyboard/", name, "");
    TL_INPUT_KEYS(KEY_NAME)
#undef KEY_NAME
#define MOUSE_NAME(name, code) add_name(ps, "mouse/", name, "");
    TL_INPUT_MOUSE_BUTTONS(MOUSE_NAME)
#undef MOUSE_NAME
    for (uint32_t b = 0; b < TL_INPUT_BUTTON_END_; b++) add_name(ps, "gamepad/", tl_input_button_name(b), "");
    for (uint32_t a = 0; a < TL_INPUT_AXIS_END_; a++) {
        add_name(ps, "gamepad/", tl_input_axis_name(a), "");
        add_name(ps, "gamepad/", tl_input_axis_name(a), "-");
        add_name(ps, "gamepad/", tl_input_axis_name(a), "+");
    }
    add_name(ps, "gamepad/", "leftxy", "");
    add_name(ps, "gamepad/", "rightxy", "");
}

/* The control a string at `path` names, or 0 after an error. */
static uint32_t read_control(parser *ps, const char *path, json_t *v)
{
    if (!json_is_string(v)) {
        jc_error(&ps->j, path, "expected a control name such as \"keyboard/Space\" or \"gamepad/a\", got %s", jc_type_name(v));
        return 0;
    }
    const char *s = json_string_value(v);
    uint32_t control = tl_input_control_from_name(s, json_string_length(v));
    if (control) return control;
    const char *near = suggest_nearest(s, json_string_length(v), ps->control_names.items, ps->control_names.count);
    if (near) jc_error(&ps->j, path, "unknown control \"%s\" (did you mean \"%s\"?)", s, near);
    else jc_error(&ps->j, path, "unknown control \"%s\" (keyboard/<key>, mouse/<button>, gamepad/<button or axis>)", s);
    return 0;
}

/* ---- bindings --------------------------------------------------------------------------------- */

static const char *const kind_names[] = {"button", "axis", "vector", NULL}; /* tl_input_kind's order */
static const char *const part_keys[] = {"", "negative", "positive", "up", "down", "left", "right"};

/* Why a control cannot be this binding (into `why`), or false when it can: it must fit the
 * action's kind and the part (input.h's rule), and an axis driving a button action must say at
 * what threshold. */
static bool binding_problem(const in_action *a, uint32_t control, uint32_t part, double threshold, char *why, size_t size)
{
    const char *misfit = tl_input_binding_misfit(a->kind, part, control);
    bool axis = TL_INPUT_CONTROL_CLASS(control) == TL_INPUT_CLASS_AXIS;
    char name[40];
    tl_input_control_name(control, name, sizeof name);
    if (misfit) snprintf(why, size, "%s cannot drive %s action %s: %s", name, kind_names[a->kind], a->name, misfit);
    else if (a->kind == TL_INPUT_KIND_BUTTON && axis && threshold == 0)
        snprintf(why, size,
                 "%s is an axis: a button action takes it with a threshold ({\"control\": \"%s\", \"threshold\": 0.5})", name,
                 name);
    else if (threshold != 0 && !(a->kind == TL_INPUT_KIND_BUTTON && axis))
        snprintf(why, size, "a threshold applies only to an axis driving a button action, not to %s", name);
    else return false;
    return true;
}

/* One binding row; a refused one is reported and left out (of the conflict checks too). */
static void add_binding(parser *ps, const in_action *a, const char *path, uint32_t control, uint32_t part, double threshold)
{
    char why[256];
    if (binding_problem(a, control, part, threshold, why, sizeof why)) {
        jc_error(&ps->j, path, "%s", why);
        return;
    }
    in_binding *b = vec_push(&ps->m->bindings);
    b->control = control;
    b->part = part;
    b->threshold = threshold;
    b->path = save_str(ps->m, path);
}

/* {"control": C, "threshold": T}. */
static void read_thresholded(parser *ps, const in_action *a, const char *path, json_t *v)
{
    char *cp = jc_key(path, "control"), *tp = jc_key(path, "threshold");
    uint32_t control = read_control(ps, cp, json_object_get(v, "control"));
    json_t *t = json_object_get(v, "threshold");
    double threshold = 0;
    bool refused = t && (!json_is_number(t) || json_number_value(t) <= 0 || json_number_value(t) > 1);
    if (refused) jc_error(&ps->j, tp, "expected a number above 0 and at most 1 (the press point after the dead zone)");
    else if (t) threshold = json_number_value(t);
    if (control && !refused) add_binding(ps, a, path, control, TL_INPUT_PART_NONE, threshold); /* (not "needs one") */
    free(cp);
    free(tp);
}

/* {"up": C, "down": C, ...} or {"negative": C, "positive": C}: the parts present, one device
 * family for all of them. */
static void read_composite(parser *ps, const in_action *a, const char *path, json_t *v)
{
    uint32_t devices = 0, found = 0;
    for (uint32_t part = TL_INPUT_PART_NEGATIVE; part <= TL_INPUT_PART_RIGHT; part++) {
        json_t *c = json_object_get(v, part_keys[part]);
        if (!c) continue;
        found++;
        char *sub = jc_key(path, part_keys[part]);
        uint32_t control = read_control(ps, sub, c);
        if (control && devices && tl_input_control_devices(control) != devices)
            jc_error(&ps->j, sub, "a composite's parts are of one device family (keyboard and mouse, or gamepad)");
        if (control) devices = tl_input_control_devices(control);
        if (control) add_binding(ps, a, sub, control, part, 0);
        free(sub);
    }
    if (!found)
        jc_error(&ps->j, path, "expected a control, {\"control\", \"threshold\"}, or a composite (%s)",
                 a->kind == TL_INPUT_KIND_AXIS ? "\"negative\", \"positive\"" : "\"up\", \"down\", \"left\", \"right\"");
}

static void read_binding(parser *ps, const in_action *a, const char *path, json_t *v)
{
    static const char *const allowed[] = {"control", "threshold", "up",       "down",        "left",
                                          "right",   "negative",  "positive", "description", NULL};
    if (json_is_string(v)) {
        uint32_t control = read_control(ps, path, v);
        if (control) add_binding(ps, a, path, control, TL_INPUT_PART_NONE, 0);
        return;
    }
    if (!json_is_object(v)) {
        jc_error(&ps->j, path, "expected a control name or an object, got %s", jc_type_name(v));
        return;
    }
    jc_check_keys(&ps->j, path, v, allowed);
    bool thresholded = json_object_get(v, "control") != NULL;
    for (uint32_t part = TL_INPUT_PART_NEGATIVE; thresholded && part <= TL_INPUT_PART_RIGHT; part++) {
        if (!json_object_get(v, part_keys[part])) continue;
        char *sub = jc_key(path, part_keys[part]);
        jc_error(&ps->j, sub, "a binding is a control (with a threshold) or a composite, not both");
        free(sub);
        return;
    }
    if (thresholded) read_thresholded(ps, a, path, v);
    else read_composite(ps, a, path, v);
}

/* ---- actions and modes ------------------------------------------------------------------------ */

/* The mode `name` names (a known mode's name, case-insensitively, or Scope.Name), or UINT32_MAX
 * after an error with the nearest name. */
static uint32_t find_mode(parser *ps, const char *path, const char *name)
{
    const input_map_model *m = ps->m;
    for (size_t i = 0; i < m->known_modes.count; i++) {
        const in_mode *k = &m->known_modes.items[i];
        size_t sl = strlen(k->scope);
        bool scoped = strncasecmp(name, k->scope, sl) == 0 && name[sl] == '.' && strcasecmp(name + sl + 1, k->name) == 0;
        if (strcasecmp(name, k->name) == 0 || scoped) return (uint32_t)i;
    }
    const char **names = xcalloc(m->known_modes.count + 1, sizeof *names);
    for (size_t i = 0; i < m->known_modes.count; i++) names[i] = m->known_modes.items[i].name;
    const char *near = suggest_nearest(name, strlen(name), names, m->known_modes.count);
    if (near) jc_error(&ps->j, path, "unknown input mode \"%s\" (did you mean \"%s\"?)", name, near);
    else jc_error(&ps->j, path, "unknown input mode \"%s\": declare it in Dextra.InputModes.User.txt", name);
    free(names);
    return UINT32_MAX;
}

/* An action name given before in its mode, or NULL. */
typedef struct action_query {
    const input_map_model *m;
    uint32_t mode;
    const char *name;
} action_query;

static uint32_t action_hash(uint32_t mode, const char *name) { return fnv1a_folded(name, strlen(name)) ^ mode * 0x9e3779b9u; }

static bool is_action(const void *ctx, uint32_t index)
{
    const action_query *q = ctx;
    const in_action *a = &q->m->actions.items[index];
    return a->mode == q->mode && strcasecmp(a->name, q->name) == 0;
}

static const in_action *earlier_action(const parser *ps, uint32_t mode, const char *name)
{
    action_query q = {ps->m, mode, name};
    uint32_t i = index_map_find(&ps->action_names, action_hash(mode, name), is_action, &q);
    return i == UINT32_MAX ? NULL : &ps->m->actions.items[i];
}

/* "action": a C identifier, once per mode. False when unusable. */
static bool read_action_name(parser *ps, const char *path, json_t *v, uint32_t mode, in_action *a)
{
    const char *name = NULL;
    char *np = jc_key(path, "action");
    bool ok = jc_require(&ps->j, v, path, "action", NULL) && jc_get_string(&ps->j, v, path, "action", "an action name", &name);
    if (ok && !is_identifier(name)) {
        jc_error(&ps->j, np, "\"%s\" is not an action name (a letter, then letters, digits or '_')", name);
        ok = false;
    }
    const in_action *first = ok ? earlier_action(ps, mode, name) : NULL;
    if (first) {
        jc_error(&ps->j, np, "duplicate action \"%s\" in mode %s (first at %u:%u)", name, ps->m->known_modes.items[mode].name,
                 (unsigned)first->line, (unsigned)first->col);
        ok = false;
    }
    if (ok) {
        src_loc at = json_positions_find(ps->j.positions, np);
        a->name = save_str(ps->m, name);
        a->line = at.line;
        a->col = at.col;
    }
    free(np);
    return ok;
}

static void read_action(parser *ps, const char *path, json_t *v, uint32_t mode)
{
    static const char *const allowed[] = {"action", "kind", "bindings", "description", NULL};
    if (!json_is_object(v)) {
        jc_error(&ps->j, path, "expected an object (an action), got %s", jc_type_name(v));
        return;
    }
    jc_check_keys(&ps->j, path, v, allowed);
    in_action a = {.mode = mode, .path = save_str(ps->m, path)};
    int kind = 0;
    bool named = read_action_name(ps, path, v, mode, &a);
    bool kinded = jc_require(&ps->j, v, path, "kind", "\"button\", \"axis\" or \"vector\"") &&
                  jc_get_enum(&ps->j, v, path, "kind", kind_names, &kind);
    json_t *bindings = jc_get_array(&ps->j, v, path, "bindings", "an array of bindings");
    if (!named || !kinded) return;
    a.kind = (uint32_t)kind;
    a.first = ps->m->bindings.count;
    size_t i;
    json_t *b;
    json_array_foreach(bindings, i, b) {
        char *bp = xasprintf("%s.bindings[%zu]", path, i);
        read_binding(ps, &a, bp, b);
        free(bp);
    }
    a.count = ps->m->bindings.count - a.first;
    *vec_push(&ps->m->actions) = a;
    index_map_insert(&ps->action_names, action_hash(mode, a.name), (uint32_t)(ps->m->actions.count - 1));
}

/* One physical input a binding reads (tl__input_reach): conflicts are found by sorting these. */
typedef struct reach_row {
    uint32_t slot, sides, binding;
} reach_row;

static int by_slot_then_binding(const void *pa, const void *pb)
{
    const reach_row *a = pa, *b = pb;
    if (a->slot != b->slot) return a->slot < b->slot ? -1 : 1;
    return a->binding < b->binding ? -1 : a->binding > b->binding;
}

/* For each binding in [from, to), the first earlier one in that range reading the same physical
 * input (tl_input_controls_overlap), or UINT32_MAX: one sort, not a comparison per pair. */
static uint32_t *first_overlaps(const input_map_model *m, size_t from, size_t to)
{
    VEC(reach_row) rows = {0};
    for (size_t i = from; i < to; i++) {
        tl__input_reach r = tl__input_reach_of(m->bindings.items[i].control);
        for (uint32_t k = 0; k < r.count; k++) *vec_push(&rows) = (reach_row){r.slot[k], r.sides[k], (uint32_t)i};
    }
    if (rows.count) qsort(rows.items, rows.count, sizeof *rows.items, by_slot_then_binding);
    uint32_t *first = xmalloc((to - from + 1) * sizeof *first);
    for (size_t i = from; i < to; i++) first[i - from] = UINT32_MAX;
    uint32_t side_first[2] = {UINT32_MAX, UINT32_MAX}; /* the slot's first binding reading each side */
    for (size_t r = 0; r < rows.count; r++) {
        const reach_row *row = &rows.items[r];
        if (r == 0 || row->slot != rows.items[r - 1].slot) side_first[0] = side_first[1] = UINT32_MAX;
        uint32_t *mine = &first[row->binding - from];
        for (uint32_t side = 0; side < 2; side++) {
            if (!(row->sides & (1u << side))) continue;
            if (side_first[side] < *mine) *mine = side_first[side];
            if (side_first[side] == UINT32_MAX) side_first[side] = row->binding;
        }
    }
    vec_free(&rows);
    return first;
}

/* Every binding of one mode that reads a physical input an earlier binding of the mode reads,
 * reported at the later one with the first that has it. */
static void check_conflicts(parser *ps, size_t first_action)
{
    input_map_model *m = ps->m;
    if (first_action == m->actions.count) return;
    size_t from = m->actions.items[first_action].first, to = m->bindings.count;
    uint32_t *first = first_overlaps(m, from, to);
    size_t *owner = xmalloc((to - from + 1) * sizeof *owner);
    for (size_t a = first_action; a < m->actions.count; a++)
        for (size_t i = 0; i < m->actions.items[a].count; i++) owner[m->actions.items[a].first + i - from] = a;
    for (size_t i = from; i < to; i++) {
        if (first[i - from] == UINT32_MAX) continue;
        const in_binding *b = &m->bindings.items[i], *earlier = &m->bindings.items[first[i - from]];
        char name[40], other_name[40];
        tl_input_control_name(b->control, name, sizeof name);
        tl_input_control_name(earlier->control, other_name, sizeof other_name);
        src_loc at = json_positions_find(ps->j.positions, earlier->path);
        jc_error(&ps->j, b->path, "%s is bound twice in mode %s: %s has %s already (%u:%u)", name,
                 m->known_modes.items[m->actions.items[owner[i - from]].mode].name,
                 m->actions.items[owner[first[i - from] - from]].name, other_name, (unsigned)at.line, (unsigned)at.col);
    }
    free(owner);
    free(first);
}

/* An entry of "modes": {"mode": NAME, "actions": [...]}, each mode once. */
static void read_mode(parser *ps, const char *path, json_t *v, bool *seen)
{
    static const char *const allowed[] = {"mode", "actions", "description", NULL};
    const char *name = NULL;
    if (!json_is_object(v)) {
        jc_error(&ps->j, path, "expected an object (a mode and its actions), got %s", jc_type_name(v));
        return;
    }
    jc_check_keys(&ps->j, path, v, allowed);
    json_t *actions = jc_get_array(&ps->j, v, path, "actions", "an array of actions");
    if (!jc_require(&ps->j, v, path, "mode", NULL) || !jc_get_string(&ps->j, v, path, "mode", "an input mode", &name)) return;
    char *mp = jc_key(path, "mode");
    uint32_t mode = find_mode(ps, mp, name);
    if (mode != UINT32_MAX && seen[mode]) jc_error(&ps->j, mp, "mode %s is listed twice: give its actions in one entry", name);
    free(mp);
    if (mode == UINT32_MAX || seen[mode]) return;
    seen[mode] = true;
    jc_require(&ps->j, v, path, "actions", NULL);
    size_t first = ps->m->actions.count, i;
    json_t *a;
    json_array_foreach(actions, i, a) {
        char *sub = xasprintf("%s.actions[%zu]", path, i);
        read_action(ps, sub, a, mode);
        free(sub);
    }
    check_conflicts(ps, first);
}

/* ---- glyphs and the top level ----------------------------------------------------------------- */

/* One family's {control: asset} object. */
static void read_family_glyphs(parser *ps, const char *family_key, uint32_t family, json_t *v)
{
    char *path = jc_key("glyphs", family_key);
    if (!json_is_object(v)) {
        jc_error(&ps->j, path, "expected an object of control names and asset names, got %s", jc_type_name(v));
        free(path);
        return;
    }
    const char *key;
    json_t *asset;
    json_object_foreach(v, key, asset) {
        char *sub = jc_key(path, key);
        json_t *name = json_string(key);
        uint32_t control = read_control(ps, sub, name);
        json_decref(name);
        if (control && !json_is_string(asset)) jc_error(&ps->j, sub, "expected an asset name, got %s", jc_type_name(asset));
        else if (control && family != TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD &&
                 tl_input_control_devices(control) != TL_INPUT_DEVICES_GAMEPAD)
            jc_error(&ps->j, sub, "%s is not a gamepad control: %s glyphs are a gamepad's", key, family_key);
        else if (control && family == TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD &&
                 tl_input_control_devices(control) != TL_INPUT_DEVICES_KEYBOARD_MOUSE)
            jc_error(&ps->j, sub, "%s is not a keyboard or mouse control: MouseAndKeyboard glyphs are theirs", key);
        else if (control)
            *vec_push(&ps->m->glyphs) =
                (in_glyph){control, family, save_str(ps->m, json_string_value(asset)), save_str(ps->m, sub), 0};
        free(sub);
    }
    free(path);
}

/* "glyphs": {"catalog": DOMAIN, "<family>": {...}, ...}; the assets are checked at resolve. */
static void read_glyphs(parser *ps, json_t *g)
{
    static const char *const allowed[] = {"catalog",     "description", "MouseAndKeyboard", "Xbox",
                                          "PlayStation", "Switch",      "Gamepad",          NULL};
    if (!g) return;
    if (!json_is_object(g)) {
        jc_error(&ps->j, "glyphs", "expected an object, got %s", jc_type_name(g));
        return;
    }
    jc_check_keys(&ps->j, "glyphs", g, allowed);
    const char *catalog = NULL;
    if (jc_require(&ps->j, g, "glyphs", "catalog", "the content domain of the glyphs' assets, such as \"Content.Game\"") &&
        jc_get_string(&ps->j, g, "glyphs", "catalog", "a content domain's name", &catalog)) {
        if (config_valid_domain_name(catalog)) ps->m->catalog = save_str(ps->m, catalog);
        else
            jc_error(&ps->j, "glyphs.catalog", "\"%s\" is not a domain name (a content profile's, such as \"Content.Game\")",
                     catalog);
    }
    const char *key;
    json_t *v;
    json_object_foreach(g, key, v) {
        uint32_t family = tl_input_family_from_name(key);
        if (family && strcmp(key, tl_input_family_name(family)) == 0) read_family_glyphs(ps, key, family, v);
    }
}

/* dead_zone in (0, 0.95], press_point in (0, 1]. */
static double read_fraction(parser *ps, json_t *root, const char *key, double fallback, double lo, bool lo_open, double hi)
{
    json_t *v = json_object_get(root, key);
    if (!v) return fallback;
    double d = json_is_number(v) ? json_number_value(v) : -1;
    if (!json_is_number(v) || d > hi || d < lo || (lo_open && d == lo)) {
        jc_error(&ps->j, key, "expected a number %s %g and at most %g", lo_open ? "above" : "from", lo, hi);
        return fallback;
    }
    return d;
}

bool input_parse(input_map_model *m)
{
    static const char *const allowed[] = {"$schema", "description", "dead_zone", "press_point", "modes", "glyphs", NULL};
    parser ps = {m, {m->file, m->text, m->len, true, "the action map", NULL}, {0}, {0}};
    json_t *root = jc_load(m->file, m->text, m->len);
    if (!root) return false;
    json_positions *positions = json_positions_build(m->file, m->text, m->len);
    ps.j.positions = positions;
    index_map_init(&ps.action_names, 64);
    list_control_names(&ps);
    if (!json_is_object(root)) {
        jc_error(&ps.j, "", "the action map must be a JSON object, got %s", jc_type_name(root));
    } else {
        jc_check_keys(&ps.j, "", root, allowed);
        m->dead_zone = read_fraction(&ps, root, "dead_zone", 0.2, 0, true, 0.95);
        m->press_point = read_fraction(&ps, root, "press_point", 0.5, 0, true, 1);
        json_t *modes = jc_get_array(&ps.j, root, "", "modes", "an array of modes and their actions");
        jc_require(&ps.j, root, "", "modes", NULL);
        bool *seen = xcalloc(m->known_modes.count + 1, sizeof *seen);
        size_t i;
        json_t *v;
        json_array_foreach(modes, i, v) {
            char *path = jc_index("modes", i);
            read_mode(&ps, path, v, seen);
            free(path);
        }
        free(seen);
        read_glyphs(&ps, json_object_get(root, "glyphs"));
    }
    json_decref(root);
    json_positions_free(positions);
    index_map_free(&ps.action_names);
    vec_free(&ps.control_names);
    return ps.j.ok;
}

void input_model_free(input_map_model *m)
{
    vec_free(&m->known_modes);
    vec_free(&m->actions);
    vec_free(&m->bindings);
    vec_free(&m->glyphs);
    arena_free(&m->strings);
}
