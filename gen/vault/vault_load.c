/* The vault stage's inputs: the "vaults" key of threadlink.json, the schemas (*.vault.json) and
 * the data (*.vaultdata.json). Everything that does not need identifier values is checked here,
 * before identity runs: JSON syntax, keys, types, ranges, fixed-point literals, capacities,
 * duplicate names. Every error names the file, line:col and the JSON path of the value.
 *
 *   "vaults": { "schemas": "vaults", "data": "vaultdata", "output": "vaults" }
 *
 * schemas and data are directories relative to the config (defaults as shown; a directory that is
 * absent is an error only when it was named explicitly); output is the directory below the
 * generated directory that receives the headers. Only the top level of each directory is read,
 * in byte order of the file names. */
#include "base/index_map.h"
#include "base/json_check.h"
#include "base/suggest.h"
#include "vault/vault_model.h"

#include "core/config.h"

#include <stdio.h>
#include "base/fsio.h"
#include "base/stamp.h"

#include <errno.h>
#include <float.h>
#include <jansson.h>
#include <xxhash.h>

/* ---- diagnostics ---------------------------------------------------------------------------- */

static bool is_identifier(const char *s)
{
    if (!((*s | 32) >= 'a' && (*s | 32) <= 'z')) return false;
    for (s++; *s; s++)
        if (!ascii_is_word((unsigned char)*s)) return false;
    return true;
}

/* ---- values --------------------------------------------------------------------------------- */

static const char *type_expectation(vtype t)
{
    switch (t) {
    case VT_INTEGER:
    case VT_LONG: return "an integer";
    case VT_FLOAT:
    case VT_DOUBLE: return "a number";
    case VT_BOOLEAN: return "true or false";
    case VT_INTEGER2D: return "an array of 2 integers";
    case VT_FLOAT2D:
    case VT_VECTOR2D: return "an array of 2 numbers";
    case VT_VECTOR3D: return "an array of 3 numbers";
    case VT_ROTATION: return "an array of 4 numbers (x, y, z, w)";
    case VT_FP: return "a decimal string such as \"1.5\"";
    case VT_FPVECTOR2: return "an array of 2 decimal strings";
    case VT_FPVECTOR3: return "an array of 3 decimal strings";
    case VT_FPQUATERNION: return "an array of 4 decimal strings (x, y, z, w)";
    case VT_STRING: return "a string";
    case VT_ASSETREF: return "an asset name";
    case VT_LOCALIZEDTEXT: return "a text key";
    default: return "?";
    }
}

/* One component of a scalar: k-th of `t` from `v` into out. */
static bool parse_component(json_checker *j, const char *path, vtype t, json_t *v, vscalar *out, int k)
{
    switch (t) {
    case VT_INTEGER:
    case VT_INTEGER2D:
    case VT_LONG:
        if (!json_is_integer(v)) return false;
        out->i[k] = json_integer_value(v);
        if (t != VT_LONG && (out->i[k] < INT32_MIN || out->i[k] > INT32_MAX)) {
            jc_error(j, path, "%lld is out of range for %s (-2147483648 to 2147483647)", (long long)out->i[k], vtype_name(t));
            return true;
        }
        return true;
    case VT_FLOAT:
    case VT_FLOAT2D:
    case VT_VECTOR2D:
    case VT_VECTOR3D:
    case VT_ROTATION:
    case VT_DOUBLE:
        if (!json_is_number(v)) return false;
        out->d[k] = json_number_value(v);
        /* Out of range when it would round to infinity: from FLT_MAX plus half its ulp (2^103),
         * 0x1.ffffffp127, on; so 3.4028235e38, which C reads as FLT_MAX, is fine. */
        if (t != VT_DOUBLE && (out->d[k] >= 0x1.ffffffp127 || out->d[k] <= -0x1.ffffffp127))
            jc_error(j, path, "%.9g is out of range for %s (a float: at most %.9g)", out->d[k], vtype_name(t), (double)FLT_MAX);
        else if (t != VT_DOUBLE && out->d[k] != 0 && (float)out->d[k] == 0) /* silently 0 otherwise */
            jc_error(j, path, "%.9g is too small for %s: a float would hold 0 (the smallest is %.9g)", out->d[k], vtype_name(t),
                     0x1p-149);
        return true;
    case VT_FP:
    case VT_FPVECTOR2:
    case VT_FPVECTOR3:
    case VT_FPQUATERNION: {
        if (!json_is_string(v)) return false;
        const char *why = vault_fp_parse(json_string_value(v), &out->i[k]);
        if (why) jc_error(j, path, "\"%s\" is not a fixed-point literal: %s", json_string_value(v), why);
        return true;
    }
    default: return false;
    }
}

/* A scalar value of type t. arena strings live as long as the stage. */
/* A value of n > 1 components (a vector, a quaternion): an array of exactly n. False when it is
 * not such an array; a bad component is reported here (and *reported set). */
static bool parse_components(json_checker *j, const char *path, vtype t, uint32_t n, json_t *v, vscalar *out, bool *reported)
{
    if (!json_is_array(v) || json_array_size(v) != n) return false;
    for (uint32_t k = 0; k < n; k++) {
        char *sub = jc_index(path, k);
        bool component_ok = parse_component(j, sub, t, json_array_get(v, k), out, (int)k);
        if (!component_ok)
            jc_error(j, sub, "expected %s, got %s",
                     t >= VT_FP && t <= VT_FPQUATERNION ? "a decimal string"
                     : t == VT_INTEGER2D                ? "an integer"
                                                        : "a number",
                     jc_type_name(json_array_get(v, k)));
        free(sub);
        if (!component_ok) {
            *reported = true;
            return false;
        }
    }
    return true;
}

/* A string value: a String within its capacity, or an AssetRef's or LocalizedText's name (resolved later). */
static bool parse_text(vault_state *st, json_checker *j, const char *path, vtype t, const vfield *f, json_t *v, vscalar *out)
{
    if (!json_is_string(v)) return false;
    size_t len = json_string_length(v);
    if (t == VT_STRING && len > f->capacity)
        jc_error(j, path, "string of %zu bytes exceeds the capacity of %u", len, f->capacity);
    out->s = arena_strndup(&st->strings, json_string_value(v), len);
    out->line = 0; /* an AssetRef is located again only if the name does not resolve */
    return true;
}

static void parse_scalar(vault_state *st, json_checker *j, const char *path, vtype t, const vfield *f, json_t *v, vscalar *out)
{
    memset(out, 0, sizeof *out);
    uint32_t n = vtype_components(t);
    bool ok, reported = false;
    if (t == VT_BOOLEAN) {
        ok = json_is_boolean(v);
        out->i[0] = json_is_true(v);
    } else if (t == VT_STRING || vtype_names_entry(t)) {
        ok = parse_text(st, j, path, t, f, v, out);
    } else if (n == 1) {
        ok = parse_component(j, path, t, v, out, 0);
    } else {
        ok = parse_components(j, path, t, n, v, out, &reported);
    }
    if (ok || reported) return;
    if (json_is_array(v) && n > 1)
        jc_error(j, path, "expected %s (%s), got an array of %zu", type_expectation(t), vtype_name(t), json_array_size(v));
    else jc_error(j, path, "expected %s (%s), got %s", type_expectation(t), vtype_name(t), jc_type_name(v));
}

static bool same_key(vtype t, const vscalar *a, const vscalar *b)
{
    if (vtype_names_entry(t)) return strcmp(a->s, b->s) == 0;
    unsigned char x[32], y[32];
    vault_scalar_bytes(t, a, x);
    vault_scalar_bytes(t, b, y);
    return memcmp(x, y, vtype_size(t)) == 0;
}

/* What same_key compares, hashed: repeated keys are found through an index_map, not by comparing
 * each element with every earlier one (a set of 40,000 elements took 16 s). */
static uint32_t key_hash(vtype t, const vscalar *k)
{
    if (vtype_names_entry(t)) return k->s ? XXH32(k->s, strlen(k->s), 0) : 0;
    unsigned char x[32];
    vault_scalar_bytes(t, k, x);
    return XXH32(x, vtype_size(t), 0);
}

typedef struct key_probe {
    vtype type;
    const vscalar *keys, *key;
} key_probe;

static bool key_probe_eq(const void *ctx, uint32_t index)
{
    const key_probe *p = ctx;
    return same_key(p->type, &p->keys[index], p->key);
}

/* A field's value: a default or an instance's. */
static void parse_value(vault_state *st, json_checker *j, const char *path, const vfield *f, json_t *v, vvalue *out)
{
    out->present = true;
    if (f->type != VT_COLLECTION) {
        parse_scalar(st, j, path, f->type, f, v, &out->one);
        return;
    }
    const char *kind = layout_kind_name(f->kind);
    if (!json_is_array(v)) {
        jc_error(j, path, "expected an array (%s), got %s", kind, jc_type_name(v));
        return;
    }
    size_t n = json_array_size(v);
    if (n > f->capacity) {
        jc_error(j, path, "%zu elements exceed the capacity of %u", n, f->capacity);
        return;
    }
    bool keyed = f->kind == LAYOUT_HASHSET || f->kind == LAYOUT_DICT;
    index_map seen = {0};
    if (keyed) index_map_init(&seen, n);
    for (size_t i = 0; i < n; i++) {
        char *sub = jc_index(path, i);
        json_t *e = json_array_get(v, i);
        vscalar *key = vec_push(&out->keys);
        if (f->kind == LAYOUT_DICT) {
            vscalar *value = vec_push(&out->values);
            if (!json_is_array(e) || json_array_size(e) != 2) {
                jc_error(j, sub, "expected a [key, value] pair, got %s", jc_type_name(e));
                memset(key, 0, sizeof *key);
                memset(value, 0, sizeof *value);
                free(sub);
                continue;
            }
            char *kp = jc_index(sub, 0), *vp = jc_index(sub, 1);
            parse_scalar(st, j, kp, f->element, f, json_array_get(e, 0), key);
            parse_scalar(st, j, vp, f->value, f, json_array_get(e, 1), value);
            free(kp);
            free(vp);
        } else {
            parse_scalar(st, j, sub, f->element, f, e, key);
        }
        if (keyed) {
            uint32_t h = key_hash(f->element, key);
            key_probe probe = {f->element, out->keys.items, key};
            uint32_t k = index_map_find(&seen, h, key_probe_eq, &probe);
            if (k != UINT32_MAX) jc_error(j, sub, "repeats the key of element %u", (unsigned)k);
            else index_map_insert(&seen, h, (uint32_t)i);
        }
        free(sub);
    }
    index_map_free(&seen);
}

static void vvalue_free(vvalue *v)
{
    vec_free(&v->keys);
    vec_free(&v->values);
}

/* ---- files ---------------------------------------------------------------------------------- */

/* `what` names the file in a message: "vault schema", "vault data file". */
static json_t *read_json(vault_state *st, const char *path, const char *what, buf *text)
{
    project *p = st->p;
    *vec_push(&p->inputs) = xstrdup(path);
    if (!fs_read_input(path, FS_INPUT_VAULT, text)) {
        diag_error(loc_file(path), "cannot read the %s: %s", what, fs_read_failure());
        return NULL;
    }
    hasher_add_file(p->input_hash, path, text->data, text->len);
    return jc_load(path, text->data, text->len);
}

static const char *project_relative(const project *p, const char *path)
{
    size_t n = strlen(p->cfg.root);
    if (strcmp(p->cfg.root, ".") != 0 && strncmp(path, p->cfg.root, n) == 0 && path[n] == '/') return path + n + 1;
    return path;
}

/* "unknown type", naming the type meant when `name` looks like a typo of one; a field's type
 * (with_collections) otherwise lists every type. */
static void unknown_type(json_checker *j, const char *path, const char *name, bool with_collections)
{
    const char *names[VT_SCALAR_END + LAYOUT_KIND_COUNT];
    size_t count = 0;
    for (int t = 1; t < VT_SCALAR_END; t++) names[count++] = vtype_name((vtype)t);
    if (with_collections)
        for (int k = 0; k < LAYOUT_KIND_COUNT; k++) names[count++] = layout_kind_name((layout_kind)k);
    const char *near = suggest_nearest(name, strlen(name), names, count);
    if (near) {
        jc_error(j, path, "unknown type \"%s\" (did you mean \"%s\"?)", name, near);
    } else if (with_collections) {
        buf list = {0};
        for (size_t i = 0; i < count; i++) buf_printf(&list, "%s%s", i ? ", " : "", names[i]);
        jc_error(j, path, "unknown type \"%s\" (%s)", name, list.data);
        buf_free(&list);
    } else {
        jc_error(j, path, "unknown type \"%s\"", name);
    }
}

static vtype parse_type_name(json_checker *j, const char *path, json_t *v, bool allow_string)
{
    if (!json_is_string(v)) {
        jc_error(j, path, "expected a type name, got %s", jc_type_name(v));
        return VT_NONE;
    }
    vtype t = vtype_from_name(json_string_value(v));
    if (t == VT_NONE) {
        unknown_type(j, path, json_string_value(v), false);
    } else if (t == VT_STRING && !allow_string) {
        jc_error(j, path, "String cannot be a collection element (elements have a fixed size)");
        t = VT_NONE;
    }
    return t;
}

/* A collection's capacity: 1 to LAYOUT_MAX_CAPACITY slots, and a layout mem.h can hold. */
static bool read_collection_capacity(json_checker *j, const char *path, json_t *fj, vfield *f)
{
    long long cap = 0;
    if (jc_require(j, fj, path, "capacity", NULL)) jc_get_int(j, fj, path, "capacity", NULL, 1, LAYOUT_MAX_CAPACITY, &cap);
    f->capacity = (uint32_t)cap;
    if (!f->element || !f->capacity || (f->kind == LAYOUT_DICT && !f->value)) return false;
    const char *why =
        layout_check(f->kind, f->capacity, vtype_size(f->element), f->kind == LAYOUT_DICT ? vtype_size(f->value) : 0);
    if (why) {
        char *sub = jc_key(path, "capacity");
        jc_error(j, sub, "%s", why);
        free(sub);
    }
    return !why;
}

/* An inline collection: its element (and a dictionary's value) type and capacity. */
static bool read_collection_type(json_checker *j, const char *path, json_t *fj, const char *kind, vfield *f)
{
    char *hint = xasprintf("the element type of the %s", kind);
    char *el_path = jc_key(path, "element"), *val_path = jc_key(path, "value");
    f->type = VT_COLLECTION;
    if (jc_require(j, fj, path, "element", hint)) f->element = parse_type_name(j, el_path, json_object_get(fj, "element"), false);
    if (f->kind == LAYOUT_DICT) {
        if (jc_require(j, fj, path, "value", "the value type of the InlineDictionary"))
            f->value = parse_type_name(j, val_path, json_object_get(fj, "value"), false);
    } else if (json_object_get(fj, "value")) {
        jc_error(j, val_path, "only an InlineDictionary has a value type");
    }
    free(hint);
    free(el_path);
    free(val_path);
    return read_collection_capacity(j, path, fj, f);
}

/* A scalar: only a String takes a capacity (default 63 bytes), and nothing takes element/value. */
static bool read_scalar_type(json_checker *j, const char *path, json_t *fj, const char *name, vfield *f)
{
    f->type = vtype_from_name(name);
    /* A misspelt type: the keys that go with a type cannot be judged until it is known. */
    if (f->type == VT_NONE) {
        char *sub = jc_key(path, "type");
        unknown_type(j, sub, name, true);
        free(sub);
        return false;
    }
    static const char *const collection_keys[][2] = {{"element", "only an inline collection has an element type"},
                                                     {"value", "only an InlineDictionary has a value type"}};
    for (size_t k = 0; k < 2; k++)
        if (json_object_get(fj, collection_keys[k][0])) {
            char *sub = jc_key(path, collection_keys[k][0]);
            jc_error(j, sub, "%s", collection_keys[k][1]);
            free(sub);
        }
    long long cap = 63;
    if (f->type == VT_STRING) {
        jc_get_int(j, fj, path, "capacity", "a String's capacity in bytes", 1, 65535, &cap);
        f->capacity = (uint32_t)cap;
    } else if (json_object_get(fj, "capacity")) {
        char *sub = jc_key(path, "capacity");
        jc_error(j, sub, "only a String or an inline collection has a capacity");
        free(sub);
    }
    return true;
}

/* "type" and the keys that go with it; true when the field's type is complete. */
static bool read_field_type(json_checker *j, const char *path, json_t *fj, vfield *f)
{
    const char *name = NULL;
    if (!jc_require(j, fj, path, "type", NULL) || !jc_get_string(j, fj, path, "type", "a type name", &name)) return false;
    if (layout_kind_from_name(name, &f->kind)) return read_collection_type(j, path, fj, name, f);
    return read_scalar_type(j, path, fj, name, f);
}

/* The type of the values of f written as entries' names (AssetRef, LocalizedText), or VT_NONE. */
static vtype named_entries_type(const vfield *f)
{
    if (f->type != VT_COLLECTION) return vtype_names_entry(f->type) ? f->type : VT_NONE;
    if (vtype_names_entry(f->element)) return f->element;
    return f->kind == LAYOUT_DICT && vtype_names_entry(f->value) ? f->value : VT_NONE;
}

/* "catalog": the domain an AssetRef (or a collection of them) names, and only there; a
 * LocalizedText's is its text domain, Text.Keys unless it says another. */
static void read_field_catalog(vault_state *st, json_checker *j, const char *path, json_t *fj, vfield *f, bool type_ok)
{
    vtype named = named_entries_type(f);
    const char *cat = NULL;
    if (json_object_get(fj, "catalog") && named == VT_NONE && f->type != VT_NONE) {
        char *sub = jc_key(path, "catalog");
        jc_error(j, sub, "only an AssetRef or a LocalizedText names a catalog");
        free(sub);
    } else if (f->type == VT_COLLECTION && f->kind == LAYOUT_DICT && vtype_names_entry(f->element) &&
               vtype_names_entry(f->value) && f->element != f->value) {
        jc_error(j, path, "a dictionary of %s keys and %s values would need two catalogs: use one of the types",
                 vtype_name(f->element), vtype_name(f->value));
    } else if (named == VT_LOCALIZEDTEXT && type_ok && !json_object_get(fj, "catalog")) {
        f->catalog = TEXT_KEYS_DOMAIN;
    } else if (named != VT_NONE && type_ok && jc_require(j, fj, path, "catalog", "the domain of the assets an AssetRef names") &&
               jc_get_string(j, fj, path, "catalog", "a domain name", &cat)) {
        f->catalog = arena_strndup(&st->strings, cat, strlen(cat));
    }
}

/* "backing": serialised (the default) or transient. */
static void read_field_backing(json_checker *j, const char *path, json_t *fj, vfield *f)
{
    static const char *const backings[] = {"serialised", "transient", NULL};
    int backing = 0;
    jc_get_enum(j, fj, path, "backing", backings, &backing);
    f->transient = backing == 1;
}

/* field -> { "field": NAME, "type": TYPE, "element"?, "value"?, "capacity"?, "catalog"?,
 *            "default"?, "backing"?, "description"? } */
static void read_field(vault_state *st, json_checker *j, json_t *fj, vfield *f)
{
    static const char *const allowed[] = {"field",   "type",    "element", "value",       "capacity",
                                          "catalog", "default", "backing", "description", NULL};
    const char *path = f->path;
    if (!json_is_object(fj)) {
        jc_error(j, path, "expected an object, got %s", jc_type_name(fj));
        return;
    }
    jc_check_keys(j, path, fj, allowed);
    const char *ref = NULL;
    if (jc_require(j, fj, path, "field", NULL) && jc_get_string(j, fj, path, "field", "a Vault.Fields name", &ref)) {
        char *sub = jc_key(path, "field");
        if (!ref[0]) jc_error(j, sub, "expected a Vault.Fields name, got an empty string");
        else f->ref = arena_strndup(&st->strings, ref, strlen(ref));
        free(sub);
    }
    bool type_ok = read_field_type(j, path, fj, f);
    read_field_catalog(st, j, path, fj, f, type_ok);
    read_field_backing(j, path, fj, f);
    json_t *def = json_object_get(fj, "default");
    if (def && type_ok) {
        char *sub = jc_key(path, "default");
        parse_value(st, j, sub, f, def, &f->def);
        free(sub);
    }
}

static vschema *read_schema(vault_state *st, const char *path)
{
    buf text = {0};
    json_t *root = read_json(st, path, "vault schema", &text);
    if (!root) {
        buf_free(&text);
        return NULL;
    }
    vschema *s = xcalloc(1, sizeof *s);
    s->file = xstrdup(path);
    s->rel = xstrdup(project_relative(st->p, path));
    s->text = text.data ? text.data : xstrdup("");
    s->text_len = text.len;
    json_checker j = {s->file, s->text, s->text_len, true, NULL, NULL};
    static const char *const allowed[] = {"$schema", "name", "description", "fields", NULL};
    if (!json_is_object(root)) {
        jc_error(&j, "", "a vault schema must be a JSON object, got %s", jc_type_name(root));
    } else {
        jc_check_keys(&j, "", root, allowed);
        const char *name = NULL;
        if (jc_require(&j, root, "", "name", NULL) && jc_get_string(&j, root, "", "name", NULL, &name)) {
            if (!is_identifier(name))
                jc_error(&j, "name", "\"%s\" is not a vault name (a letter, then letters, digits or '_')", name);
            else if (ascii_ieq(name, strlen(name), "tl", 2) || (strlen(name) > 3 && ascii_ieq(name, 3, "tl_", 3)))
                jc_error(
                    &j, "name",
                    "\"%s\": its header's C names would start with tl_, the runtime's own (tl_vault_desc, ...): choose another name",
                    name);
            else s->name = arena_strndup(&st->strings, name, strlen(name));
        }
        json_t *fields = jc_require(&j, root, "", "fields", NULL) ? jc_get_array(&j, root, "", "fields", NULL) : NULL;
        if (fields) {
            size_t i;
            json_t *fj;
            json_array_foreach(fields, i, fj) {
                vfield *f = vec_push(&s->fields);
                memset(f, 0, sizeof *f);
                f->index = (uint32_t)i;
                snprintf(f->path, sizeof f->path, "fields[%zu]", i);
                read_field(st, &j, fj, f);
                for (size_t k = 0; k < i && f->ref; k++)
                    if (s->fields.items[k].ref &&
                        ascii_ieq(s->fields.items[k].ref, strlen(s->fields.items[k].ref), f->ref, strlen(f->ref))) {
                        char *sub = jc_key(f->path, "field");
                        jc_error(&j, sub, "\"%s\" is already fields[%zu]", f->ref, k);
                        free(sub);
                        break;
                    }
            }
        }
    }
    json_decref(root);
    if (s->name) {
        s->lower = xstrdup(s->name);
        for (char *c = s->lower; *c; c++) *c = ascii_lower(*c);
        s->vault_id = XXH32(s->lower, strlen(s->lower), 0);
        char *file = xasprintf("%s_vault.h", s->lower);
        s->output = path_join(st->out_dir, file); /* "output": "." puts it in the generated directory itself */
        free(file);
    }
    if (!j.ok) { s->name = NULL; /* a broken schema: its data are not checked against it */ }
    return s;
}

/* Lookups by name go through hash sets: a project may hold thousands of schemas and data files. */
typedef struct name_probe {
    const vault_state *st;
    const char *name;
    int which; /* 0 schema name, 1 schema lowercase name, 2 data prefix */
} name_probe;

static const char *probe_key(const vault_state *st, int which, uint32_t i)
{
    return which == 0 ? st->schemas.items[i]->name : which == 1 ? st->schemas.items[i]->lower : st->data.items[i]->prefix;
}

static bool same_name(const void *ctx, uint32_t i)
{
    const name_probe *p = ctx;
    const char *k = probe_key(p->st, p->which, i);
    return k && strcmp(k, p->name) == 0;
}

static uint32_t find_index(const vault_state *st, const index_map *m, int which, const char *name)
{
    name_probe p = {st, name, which};
    return index_map_find(m, model_hash(name, strlen(name)), same_name, &p);
}

static vschema *find_schema(vault_state *st, const char *name)
{
    uint32_t i = find_index(st, &st->schemas_by_name, 0, name);
    return i == UINT32_MAX ? NULL : st->schemas.items[i];
}

/* "closest: A, B, C" among candidate names; writes nothing when there are none. */
static void closest(buf *out, const char *const *names, size_t count, const char *want)
{
    suggest_top top = {0};
    for (size_t i = 0; i < count; i++) suggest_top_offer(&top, want, strlen(want), names[i], strlen(names[i]), i);
    for (size_t k = 0; k < top.count; k++) buf_printf(out, "%s%s", k ? ", " : "", names[top.index[k]]);
}

/* The fields a data key can name, found by hash: each field's `field` string, and the name part
 * of a qualified one ("Stage" for "User.Stage"), case folded; built once per data file (a scan
 * of the fields per value was quadratic in a wide schema). */
typedef struct field_lookup {
    const vschema *s;
    index_map refs, tails;
    uint32_t *tail_count; /* per field: the fields whose name part is its name part */
} field_lookup;

static const char *field_tail(const char *ref)
{
    const char *dot = strrchr(ref, '.');
    return dot ? dot + 1 : NULL;
}

static const char *field_ref(const void *s, uint32_t fi) { return ((const vschema *)s)->fields.items[fi].ref; }
static const char *field_ref_tail(const void *s, uint32_t fi) { return field_tail(field_ref(s, fi)); }

static void field_lookup_build(field_lookup *l, const vschema *s)
{
    l->s = s;
    index_map_init(&l->refs, s->fields.count);
    index_map_init(&l->tails, s->fields.count);
    l->tail_count = xcalloc(s->fields.count ? s->fields.count : 1, sizeof *l->tail_count);
    for (uint32_t fi = 0; fi < s->fields.count; fi++) {
        const char *ref = s->fields.items[fi].ref;
        if (!ref) continue;
        index_map_add_name(&l->refs, fi, field_ref, s);
        if (field_tail(ref)) l->tail_count[index_map_add_name(&l->tails, fi, field_ref_tail, s)]++;
    }
}

static void field_lookup_free(field_lookup *l)
{
    index_map_free(&l->refs);
    index_map_free(&l->tails);
    free(l->tail_count);
}

/* The field a data key names: the schema's `field` string, or the name part of a qualified one
 * ("Stage" for "User.Stage") when no other field has that name part; fields.count if none. */
static size_t data_field(const field_lookup *l, const char *key)
{
    size_t n = strlen(key);
    uint32_t fi = index_map_find_name(&l->refs, key, n, field_ref, l->s);
    if (fi != UINT32_MAX) return fi;
    fi = index_map_find_name(&l->tails, key, n, field_ref_tail, l->s);
    return fi != UINT32_MAX && l->tail_count[fi] == 1 ? fi : l->s->fields.count;
}

/* The first field whose name part is the key, when other fields share it; else UINT32_MAX. */
static uint32_t shared_name_part(const field_lookup *l, const char *key)
{
    uint32_t fi = index_map_find_name(&l->tails, key, strlen(key), field_ref_tail, l->s);
    return fi != UINT32_MAX && l->tail_count[fi] > 1 ? fi : UINT32_MAX;
}

/* The C names a data file gives: <prefix>_data.h and its symbols, from the file's stem. */
static void name_data_file(vault_state *st, json_checker *j, vdata *d, const char *stem)
{
    d->prefix = xstrndup(stem, strlen(stem));
    d->upper = xstrdup(stem);
    for (size_t i = 0; d->prefix[i]; i++) {
        char c = ascii_is_word((unsigned char)d->prefix[i]) ? d->prefix[i] : '_';
        d->prefix[i] = ascii_lower(c);
        d->upper[i] = (c >= 'a' && c <= 'z') ? (char)(c - 32) : c;
    }
    if (!is_identifier(d->prefix))
        jc_error(j, "", "the file name must start with a letter: it names the C symbols (%s_by_name, ...)", d->prefix);
    char *file = xasprintf("%s_data.h", d->prefix);
    d->output = path_join(st->out_dir, file);
    free(file);
    file = xasprintf("%s.vaultimage", d->prefix);
    d->image = path_join(st->out_dir, file);
    free(file);
}

/* Whether a schema of that name (any case) was found but failed to load: reported already. */
static bool schema_failed(const vault_state *st, const char *name)
{
    char *lower = xstrdup(name);
    for (char *c = lower; *c; c++) *c = ascii_lower(*c);
    bool failed = false;
    for (size_t i = 0; i < st->schemas.count && !failed; i++) {
        const vschema *s = st->schemas.items[i];
        failed = !s->name && s->lower && strcmp(lower, s->lower) == 0;
    }
    free(lower);
    return failed;
}

/* "vault": the schema the instances are of, or an error naming the closest schemas. */
static void resolve_data_vault(vault_state *st, json_checker *j, vdata *d, json_t *vault)
{
    if (!vault) {
        jc_error(j, "", "missing required key \"vault\" (the schema's name)");
        return;
    }
    if (!json_is_string(vault)) {
        jc_error(j, "vault", "expected a vault name, got %s", jc_type_name(vault));
        return;
    }
    const char *name = json_string_value(vault);
    d->schema = find_schema(st, name);
    if (d->schema) return;
    if (!schema_failed(st, name) && !st->unreadable_schema) {
        VEC(const char *) names = {0};
        for (size_t i = 0; i < st->schemas.count; i++)
            if (st->schemas.items[i]->name) *vec_push(&names) = st->schemas.items[i]->name;
        buf b = {0};
        closest(&b, names.items, names.count, name);
        jc_error(j, "vault", "no vault schema is named \"%s\"%s%s%s", name, b.len ? " (closest: " : "", b.len ? b.data : "",
                 b.len ? ")" : "");
        buf_free(&b);
        vec_free(&names);
    }
    j->ok = false;
}

static bool instance_names_equal(const char *a, const char *b) { return ascii_ieq(a, strlen(a), b, strlen(b)); }

static bool instance_id_eq(const void *ctx, uint32_t index)
{
    (void)ctx, (void)index;
    return true; /* the map holds each id once: the hash is the id */
}

/* instances[i].name: an identifier, unique in the file (any case), and its id XXH32 of
 * "<vault>.<name>" lowercased, unique too (`seen`: the earlier instances' ids). */
static void read_instance_name(vault_state *st, json_checker *j, vdata *d, size_t i, json_t *name, index_map *seen)
{
    vinstance *in = &d->instances.items[i];
    if (!name) {
        jc_error(j, in->path, "missing required key \"name\"");
        return;
    }
    char *sub = jc_key(in->path, "name");
    if (!json_is_string(name) || !is_identifier(json_string_value(name))) {
        if (json_is_string(name))
            jc_error(
                j, sub,
                "\"%s\" is not an instance name (an ASCII letter, then ASCII letters, digits or '_': it names C constants)%s",
                json_string_value(name), d->keys ? "; an entry spelt otherwise cannot key data" : "");
        else jc_error(j, sub, "expected a string, got %s", jc_type_name(name));
        free(sub);
        return;
    }
    in->name = arena_strndup(&st->strings, json_string_value(name), json_string_length(name));
    char *key = xasprintf("%s.%s", d->schema->lower, in->name);
    for (char *c = key; *c; c++) *c = ascii_lower(*c);
    in->id = XXH32(key, strlen(key), 0);
    free(key);
    /* Names equal in any case have one id: the earlier instance with this id, found through the
     * file's index of ids (each against every earlier one took 29 s at 100,000 instances). */
    uint32_t k = index_map_find(seen, in->id, instance_id_eq, d);
    if (k == UINT32_MAX) index_map_insert(seen, in->id, (uint32_t)i);
    else if (instance_names_equal(d->instances.items[k].name, in->name))
        jc_error(j, sub, "\"%s\" is already the name of instances[%u]", in->name, (unsigned)k);
    else
        jc_error(j, sub, "\"%s\" and \"%s\" hash to the same instance id 0x%08x: rename one", d->instances.items[k].name,
                 in->name, in->id);
    free(sub);
}

/* The Vault.Fields domain as its injectors declare it now, or NULL. */
static const domain *vault_fields_domain(const project *p)
{
    for (size_t d = 0; d < p->domains.count; d++)
        if (strcmp(p->domains.items[d].name, "Vault.Fields") == 0) return &p->domains.items[d];
    return NULL;
}

/* The rename in Vault.Fields whose old name is `key` and whose new name a field of `s` has, or
 * NULL: a data file written before the rename. */
static const decl_rename *field_renamed_from(const domain *dom, const vschema *s, const char *key)
{
    for (size_t r = 0; dom && r < dom->renames.count; r++) {
        const decl_rename *rn = &dom->renames.items[r];
        const decl *now = &dom->decls.items[rn->decl];
        if (!ascii_ieq(rn->name, rn->name_len, key, strlen(key))) continue;
        for (size_t k = 0; k < s->fields.count; k++) {
            const char *ref = s->fields.items[k].ref, *tail = ref ? field_tail(ref) : NULL, *name = tail ? tail : ref;
            if (name && ascii_ieq(name, strlen(name), now->name, now->name_len)) return rn;
        }
    }
    return NULL;
}

/* Whether Vault.Fields (as its injectors declare it now) has the name part of `ref`. */
static bool declared_in(const domain *dom, const char *ref)
{
    const char *tail = field_tail(ref), *name = tail ? tail : ref;
    for (size_t i = 0; i < dom->decls.count; i++)
        if (ascii_ieq(dom->decls.items[i].name, dom->decls.items[i].name_len, name, strlen(name))) return true;
    return false;
}

/* The first field of `s` that Vault.Fields does not declare, or NULL. */
static const char *first_undeclared_field(const domain *dom, const vschema *s)
{
    for (size_t k = 0; k < s->fields.count; k++)
        if (s->fields.items[k].ref && !declared_in(dom, s->fields.items[k].ref)) return s->fields.items[k].ref;
    return NULL;
}

/* An error for a value naming no field of the vault: the rename that explains it, else the
 * closest field names. */
static void no_such_field(vault_state *st, json_checker *j, const char *vpath, const vschema *s, const char *key)
{
    const domain *dom = vault_fields_domain(st->p);
    const decl_rename *rn = field_renamed_from(dom, s, key);
    if (rn) {
        const decl *now = &dom->decls.items[rn->decl];
        src_loc at = model_rename_loc(dom, rn);
        jc_error(j, vpath,
                 "vault %s has no field \"%s\": Vault.Fields renamed it %.*s ('%.*s <- %.*s' at %s:%u:%u): write \"%.*s\"",
                 s->name, key, (int)now->name_len, now->name, (int)now->name_len, now->name, (int)rn->name_len, rn->name, at.file,
                 at.line, at.col, (int)now->name_len, now->name);
        return;
    }
    const char *undeclared = dom && declared_in(dom, key) ? first_undeclared_field(dom, s) : NULL;
    if (undeclared) { /* the schema misspells what the data names rightly: the fix goes there */
        jc_error(
            j, vpath,
            "vault %s has no field \"%s\", which Vault.Fields declares; the schema's field \"%s\" is not declared there: is it the typo?",
            s->name, key, undeclared);
        return;
    }
    VEC(const char *) names = {0};
    for (size_t k = 0; k < s->fields.count; k++)
        if (s->fields.items[k].ref) *vec_push(&names) = s->fields.items[k].ref;
    buf b = {0};
    closest(&b, names.items, names.count, key);
    jc_error(j, vpath, "vault %s has no field \"%s\"%s%s%s", s->name, key, b.len ? " (closest: " : "", b.len ? b.data : "",
             b.len ? ")" : "");
    buf_free(&b);
    vec_free(&names);
}

/* An error for a data key that is the name part of more than one field, naming them. */
static void name_part_shared(json_checker *j, const char *vpath, const vschema *s, const char *key)
{
    buf b = {0};
    for (size_t k = 0; k < s->fields.count; k++) {
        const char *ref = s->fields.items[k].ref, *tail = ref ? field_tail(ref) : NULL;
        if (tail && ascii_ieq(tail, strlen(tail), key, strlen(key))) buf_printf(&b, "%s%s", b.len ? ", " : "", ref);
    }
    jc_error(j, vpath, "\"%s\" is the name part of more than one field of vault %s (%s): write the whole name", key, s->name,
             b.data);
    buf_free(&b);
}

/* instances[i].values: each a field of the vault, set once, not transient, of its type. */
static void read_instance_values(vault_state *st, json_checker *j, const field_lookup *fields, vinstance *in, json_t *values)
{
    const vschema *s = fields->s;
    if (!values) return;
    char *sub = jc_key(in->path, "values");
    if (!json_is_object(values)) {
        jc_error(j, sub, "expected an object of field values, got %s", jc_type_name(values));
        free(sub);
        return;
    }
    const char *key;
    json_t *v;
    const char **set_by = xcalloc(s->fields.count ? s->fields.count : 1, sizeof *set_by);
    json_object_foreach(values, key, v) {
        char *vpath = jc_key(sub, key);
        size_t fi = data_field(fields, key);
        if (fi == s->fields.count && shared_name_part(fields, key) != UINT32_MAX) {
            name_part_shared(j, vpath, s, key);
        } else if (fi == s->fields.count) {
            no_such_field(st, j, vpath, s, key);
        } else if (set_by[fi]) { /* "Title" and "title": one field twice */
            jc_error(j, vpath, "\"%s\" sets field %s again (\"%s\" already did: field names compare case-insensitively)", key,
                     s->fields.items[fi].ref, set_by[fi]);
        } else if (s->fields.items[fi].transient) {
            set_by[fi] = key;
            jc_error(j, vpath, "\"%s\" is transient: it starts from the schema's default and is never authored",
                     s->fields.items[fi].ref);
        } else {
            set_by[fi] = key;
            parse_value(st, j, vpath, &s->fields.items[fi], v, &in->values[fi]);
        }
        free(vpath);
    }
    free(set_by);
    free(sub);
}

static void read_instance(vault_state *st, json_checker *j, vdata *d, size_t i, json_t *ij, index_map *ids,
                          const field_lookup *fields)
{
    static const char *const allowed[] = {"name", "description", "values", NULL};
    const vschema *s = d->schema;
    vinstance *in = vec_push(&d->instances);
    memset(in, 0, sizeof *in);
    snprintf(in->path, sizeof in->path, "instances[%zu]", i);
    in->values = d->values + i * s->fields.count;
    if (!json_is_object(ij)) {
        jc_error(j, in->path, "expected an object, got %s", jc_type_name(ij));
        return;
    }
    jc_check_keys(j, in->path, ij, allowed);
    read_instance_name(st, j, d, i, json_object_get(ij, "name"), ids);
    read_instance_values(st, j, fields, in, json_object_get(ij, "values"));
}

/* "keys": a domain name (vault_resolve checks that it exists and names every instance). */
static void read_data_keys(vault_state *st, json_checker *j, vdata *d, json_t *keys)
{
    if (!keys) return;
    if (!json_is_string(keys) || !json_string_length(keys))
        jc_error(j, "keys", "expected the name of the domain whose entries the instances are, got %s", jc_type_name(keys));
    else d->keys = arena_strndup(&st->strings, json_string_value(keys), json_string_length(keys));
}

/* data -> { "vault": NAME, "keys"?: DOMAIN, "description"?, "instances": [ { "name", "description"?,
 * "values"? } ] } */
static vdata *read_data(vault_state *st, const char *path, const char *stem)
{
    static const char *const allowed[] = {"$schema", "vault", "keys", "description", "instances", NULL};
    buf text = {0};
    json_t *root = read_json(st, path, "vault data file", &text);
    if (!root) {
        buf_free(&text);
        return NULL;
    }
    vdata *d = xcalloc(1, sizeof *d);
    d->file = xstrdup(path);
    d->rel = xstrdup(project_relative(st->p, path));
    d->text = text.data ? text.data : xstrdup("");
    d->text_len = text.len;
    json_checker j = {d->file, d->text, d->text_len, true, NULL, NULL};
    name_data_file(st, &j, d, stem);
    if (!json_is_object(root)) {
        jc_error(&j, "", "vault data must be a JSON object, got %s", jc_type_name(root));
    } else {
        jc_check_keys(&j, "", root, allowed);
        resolve_data_vault(st, &j, d, json_object_get(root, "vault"));
        read_data_keys(st, &j, d, json_object_get(root, "keys"));
        json_t *instances = json_object_get(root, "instances");
        if (!instances) {
            jc_error(&j, "", "missing required key \"instances\"");
        } else if (!json_is_array(instances)) {
            jc_error(&j, "instances", "expected an array, got %s", jc_type_name(instances));
        } else if (d->schema) {
            size_t i;
            json_t *ij;
            index_map ids;
            field_lookup fields;
            index_map_init(&ids, json_array_size(instances));
            field_lookup_build(&fields, d->schema);
            d->nfields = d->schema->fields.count;
            d->values = xcalloc(json_array_size(instances) * d->nfields + 1, sizeof *d->values);
            json_array_foreach(instances, i, ij) read_instance(st, &j, d, i, ij, &ids, &fields);
            field_lookup_free(&fields);
            index_map_free(&ids);
        }
    }
    json_decref(root);
    if (!j.ok) d->schema = NULL;
    return d;
}

/* ---- config --------------------------------------------------------------------------------- */

static char *config_dir(vault_state *st, json_checker *j, json_t *obj, const char *key, const char *fallback, bool *explicit_)
{
    (void)st;
    *explicit_ = json_object_get(obj, key) != NULL;
    return strcmp(key, "output") == 0 ? jc_output_path(j, obj, key, "vaults", fallback, true)
                                      : jc_rel_path(j, obj, key, "vaults", fallback);
}

/* The *.suffix files of a directory (sorted), or false when it is absent. */
static bool list_inputs(vault_state *st, json_checker *j, const char *key, const char *rel, bool explicit_, name_list *out)
{
    char *dir = path_join(st->p->cfg.root, rel);
    char *path = jc_key("vaults", key);
    fs_kind k = fs_kind_follow(dir);
    bool ok = true;
    if (k == FS_MISSING && errno == ENAMETOOLONG) {
        jc_error(j, path, "%s", fs_path_failure(dir, errno));
        ok = false;
    } else if (k == FS_MISSING) {
        if (explicit_) {
            jc_error(j, path, "directory \"%s\" does not exist", rel);
            fs_note_case_variant(json_locate(j->file, j->text, j->len, path), dir);
            ok = false;
        }
    } else if (k != FS_DIR) {
        jc_error(j, path, "\"%s\" is not a directory", rel);
        ok = false;
    } else {
        *vec_push(&st->p->inputs) = xstrdup(dir);
        if (!fs_list_dir(dir, out)) {
            diag_error(loc_file(dir), "cannot list the directory: %s", strerror(errno));
            ok = false;
        } else if (!fs_check_case_distinct(dir, out, strcmp(key, "schemas") == 0 ? ".vault.json" : ".vaultdata.json")) {
            ok = false;
        }
    }
    free(dir);
    free(path);
    return ok;
}

/* A schema read: one name, one schema (names decide the C names and the output file). */
static void add_schema(vault_state *st, vschema *s)
{
    uint32_t k = s->lower ? find_index(st, &st->schemas_by_lower, 1, s->lower) : UINT32_MAX;
    if (k != UINT32_MAX) {
        vschema *o = st->schemas.items[k];
        json_checker j = {s->file, s->text, s->text_len, true, NULL, NULL};
        jc_error(&j, "name", "vault \"%s\" is already declared by %s", s->name ? s->name : s->lower, o->file);
        s->name = NULL;
    }
    uint32_t index = (uint32_t)st->schemas.count;
    *vec_push(&st->schemas) = s;
    if (s->lower && k == UINT32_MAX) index_map_insert(&st->schemas_by_lower, model_hash(s->lower, strlen(s->lower)), index);
    if (s->name) index_map_insert(&st->schemas_by_name, model_hash(s->name, strlen(s->name)), index);
}

/* A data file read: its C prefix is its own, and not a vault's type name (<vault>_vault). */
static void add_data(vault_state *st, vdata *d)
{
    uint32_t k = find_index(st, &st->data_by_prefix, 2, d->prefix);
    if (k != UINT32_MAX) {
        diag_error(loc_file(d->file), "its C prefix \"%s\" is already used by %s: rename one of the files", d->prefix,
                   st->data.items[k]->file);
        d->schema = NULL;
    }
    size_t plen = strlen(d->prefix);
    if (plen > 6 && strcmp(d->prefix + plen - 6, "_vault") == 0) {
        char *lower = xstrndup(d->prefix, plen - 6);
        if (find_index(st, &st->schemas_by_lower, 1, lower) != UINT32_MAX)
            diag_error(loc_file(d->file), "its C prefix \"%s\" is the type name of vault %s: rename the file", d->prefix, lower);
        free(lower);
    }
    uint32_t index = (uint32_t)st->data.count;
    *vec_push(&st->data) = d;
    if (k == UINT32_MAX) index_map_insert(&st->data_by_prefix, model_hash(d->prefix, strlen(d->prefix)), index);
}

/* Every *.vault.json, then every *.vaultdata.json (their schemas known by then). */
static void read_vault_files(vault_state *st, const char *schemas_dir, const name_list *schema_files, const char *data_dir,
                             const name_list *data_files)
{
    size_t stem;
    char *dir = path_join(st->p->cfg.root, schemas_dir);
    for (size_t i = 0; i < schema_files->count; i++) {
        if (!str_has_suffix(schema_files->items[i], ".vault.json", &stem)) continue;
        char *path = path_join(dir, schema_files->items[i]);
        vschema *s = read_schema(st, path);
        if (s) add_schema(st, s);
        else st->unreadable_schema = true;
        free(path);
    }
    free(dir);
    dir = path_join(st->p->cfg.root, data_dir);
    for (size_t i = 0; i < data_files->count; i++) {
        if (!str_has_suffix(data_files->items[i], ".vaultdata.json", &stem)) continue;
        char *path = path_join(dir, data_files->items[i]);
        char *name = xstrndup(data_files->items[i], stem);
        vdata *d = read_data(st, path, name);
        if (d) add_data(st, d);
        free(name);
        free(path);
    }
    free(dir);
}

/* The stage's outputs: a header per schema and per data file; under watch also each data file's
 * image (never a build output: development builds read it from the generated directory). */
static void plan_vault_outputs(const vault_state *st, stage_outputs *outputs)
{
    for (size_t i = 0; i < st->schemas.count; i++)
        *vec_push(outputs) = (stage_output){
            .path = xstrdup(st->schemas.items[i]->output), .build_output = true, .where = loc_file(st->schemas.items[i]->file)};
    for (size_t i = 0; i < st->data.count; i++)
        *vec_push(outputs) = (stage_output){
            .path = xstrdup(st->data.items[i]->output), .build_output = true, .where = loc_file(st->data.items[i]->file)};
    /* The baseline diff compares (vault_manifest.c): a committed file, like a domain's manifest. */
    *vec_push(outputs) = (stage_output){
        .path = path_join(st->out_dir, VAULT_MANIFEST_NAME), .build_output = false, .where = loc_file(st->p->cfg.path)};
    for (size_t i = 0; st->p->vault_images && i < st->data.count; i++)
        *vec_push(outputs) = (stage_output){
            .path = xstrdup(st->data.items[i]->image), .build_output = false, .where = loc_file(st->data.items[i]->file)};
}

/* vaults -> { "schemas"?: DIR, "data"?: DIR, "output"?: DIR }: its keys and the three folders. */
static void read_vaults_section(json_checker *cj, json_t *cfg, char **schemas_dir, char **data_dir, char **out_dir,
                                bool *schemas_explicit, bool *data_explicit, bool *output_explicit)
{
    static const char *const allowed[] = {"schemas", "data", "output", NULL};
    jc_check_keys(cj, "vaults", cfg, allowed);
    *schemas_dir = config_dir(NULL, cj, cfg, "schemas", "vaults", schemas_explicit);
    *data_dir = config_dir(NULL, cj, cfg, "data", "vaultdata", data_explicit);
    *out_dir = config_dir(NULL, cj, cfg, "output", "vaults", output_explicit);
}

/* The vaults section of a config whose own part failed (gen_stage.check_config). */
static void vault_check_config(const project_config *cfg)
{
    json_checker cj = {cfg->path, cfg->text, cfg->text_len, true, NULL, NULL};
    char *dirs[3];
    bool explicit_[3];
    if (!cfg->vaults) return;
    if (!json_is_object(cfg->vaults)) {
        jc_error(&cj, "vaults", "expected an object, got %s", jc_type_name(cfg->vaults));
        return;
    }
    read_vaults_section(&cj, cfg->vaults, &dirs[0], &dirs[1], &dirs[2], &explicit_[0], &explicit_[1], &explicit_[2]);
    for (int i = 0; i < 3; i++) free(dirs[i]);
}

/* vaults -> { "schemas"?: DIR, "data"?: DIR, "output"?: DIR }, and the Vault.Fields domain declared. */
static bool vault_load(project *p, void **state, stage_outputs *outputs)
{
    *state = NULL;
    if (!p->cfg.vaults) return true;
    unsigned errors = diag_error_count();
    vault_state *st = xcalloc(1, sizeof *st);
    index_map_init(&st->schemas_by_name, 64);
    index_map_init(&st->schemas_by_lower, 64);
    index_map_init(&st->data_by_prefix, 64);
    st->p = p;
    *state = st;
    json_checker cj = {p->cfg.path, p->cfg.text, p->cfg.text_len, true, NULL, NULL};
    json_t *cfg = p->cfg.vaults;
    if (!json_is_object(cfg)) {
        jc_error(&cj, "vaults", "expected an object, got %s", jc_type_name(cfg));
        return false;
    }
    bool schemas_explicit, data_explicit, output_explicit;
    char *schemas_dir, *data_dir;
    read_vaults_section(&cj, cfg, &schemas_dir, &data_dir, &st->out_dir, &schemas_explicit, &data_explicit, &output_explicit);
    if (!vault_fields_domain(p))
        jc_error(
            &cj, "vaults",
            "vaults need the Vault.Fields domain: declare { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true } in domains");
    name_list schema_files = {0}, data_files = {0};
    if (cj.ok && schemas_dir && data_dir && st->out_dir &&
        list_inputs(st, &cj, "schemas", schemas_dir, schemas_explicit, &schema_files) &&
        list_inputs(st, &cj, "data", data_dir, data_explicit, &data_files))
        read_vault_files(st, schemas_dir, &schema_files, data_dir, &data_files);
    name_list_free(&schema_files);
    name_list_free(&data_files);
    free(schemas_dir);
    free(data_dir);
    if (diag_error_count() != errors) return false;
    plan_vault_outputs(st, outputs);
    return true;
}

static void vault_free(void *state)
{
    vault_state *st = state;
    for (size_t i = 0; i < st->data.count; i++) {
        vdata *d = st->data.items[i];
        size_t nf = d->nfields;
        for (size_t k = 0; k < d->instances.count; k++)
            for (size_t f = 0; f < nf; f++) vvalue_free(&d->instances.items[k].values[f]);
        free(d->values);
        vec_free(&d->instances);
        free(d->file);
        free(d->rel);
        free(d->text);
        free(d->prefix);
        free(d->upper);
        free(d->output);
        free(d->image);
        free(d);
    }
    vec_free(&st->data);
    index_map_free(&st->schemas_by_name);
    index_map_free(&st->schemas_by_lower);
    index_map_free(&st->data_by_prefix);
    for (size_t i = 0; i < st->schemas.count; i++) {
        vschema *s = st->schemas.items[i];
        for (size_t f = 0; f < s->fields.count; f++) vvalue_free(&s->fields.items[f].def);
        vec_free(&s->fields);
        free(s->file);
        free(s->rel);
        free(s->text);
        free(s->lower);
        free(s->output);
        free(s);
    }
    vec_free(&st->schemas);
    free(st->out_dir);
    free(st->fields_manifest);
    arena_free(&st->strings);
    free(st);
}

const gen_stage vault_stage = {
    "vaults", vault_load, NULL, vault_resolve, vault_emit, vault_free, vault_check_config,
};
