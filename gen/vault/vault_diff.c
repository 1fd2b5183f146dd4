/* `threadlink-gen diff` over vault manifests (vault-manifest.json, vault_manifest.c): what a change
 * of vault schemas and designer data does to saves, code and data, classified like the domains'
 * changes (gen/core/diff.c, which finds the files and reports; schema: schemas/diff.schema.json).
 *
 *   class                  breaking  when (OLD and NEW vault manifests at the same place)
 *   vault_added            no        a vault only NEW has
 *   vault_removed          yes       a vault only OLD has: its saves no longer load
 *   vault_renamed          yes       one schema file, another vault name: the vault id changes
 *   field_added            no        old saves read: the field keeps its default
 *   field_removed          yes       code breaks; saves still read (the record is skipped)
 *   field_renamed          no        same Vault.Fields value (a recorded rename): saves read
 *   field_type_changed     yes       other type, kind, element or value type: saves refused
 *   capacity_shrunk        yes       a String or inline collection holds less: saves refused
 *   capacity_grown         no
 *   catalog_changed        yes       an AssetRef's catalog: saved ids name other assets
 *   backing_to_transient   yes       saved values are skipped from now on: dropped
 *   backing_to_serialised  no        old saves have no record: the field starts at its default
 *   default_changed        no        reported
 *   instance_added         no        a data instance only NEW has
 *   instance_removed       yes       a data instance only OLD has (by name, per data file)
 *   instance_key_removed   yes       NEW: an instance's "keys" entry is a tombstone or gone
 *   asset_missing          yes       NEW: an AssetRef names no live asset of its catalog
 * Fields are matched by id (their Vault.Fields value), vaults by name, data files by path,
 * instances by name. Changes point into the schema or data file (project-relative through the
 * manifest's "project"), else at the manifest. */
#include "core/diff.h"
#include "core/manifest.h"
#include "base/fsio.h"
#include "base/index_map.h"
#include "base/json_check.h"
#include "base/json_positions.h"
#include "vault/vault_model.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

typedef struct vm_field {
    const char *name, *key, *type, *element, *value, *catalog, *backing, *def;
    uint32_t id, capacity;
} vm_field;

typedef struct vm_vault {
    const char *name, *schema;
    uint32_t id;
    VEC(vm_field) fields;
} vm_vault;

typedef struct vm_asset {
    const char *at, *catalog, *asset;
    uint32_t id;
} vm_asset;

typedef struct vm_instance {
    const char *name;
    uint32_t id, key;
    VEC(vm_asset) assets;
} vm_instance;

typedef struct vm_data {
    const char *file, *vault, *keys;
    VEC(vm_instance) instances;
} vm_data;

typedef struct vault_manifest {
    const char *path;
    buf text;
    json_t *root;
    const char *project; /* NULL: unknown */
    VEC(vm_vault) vaults;
    VEC(vm_data) data;
} vault_manifest;

/* ---- reading --------------------------------------------------------------------------------- */

typedef struct vm_reader {
    vault_manifest *vm;
    bool ok;
} vm_reader;

static void vm_error(vm_reader *r, const char *path, const char *fmt, ...) TLG_PRINTF(3, 4);
static void vm_error(vm_reader *r, const char *path, const char *fmt, ...)
{
    if (!r->ok) return; /* one error per file */
    char message[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    diag_error(json_locate(r->vm->path, r->vm->text.data, r->vm->text.len, path), "%s%s%s", path, path[0] ? ": " : "", message);
    r->ok = false;
}

/* obj[key] as a string; `optional` ones may be absent (NULL). */
static const char *vm_string(vm_reader *r, json_t *obj, const char *path, const char *key, bool optional)
{
    json_t *v = json_object_get(obj, key);
    if (!v && optional) return NULL;
    if (!json_is_string(v)) vm_error(r, path, "\"%s\" must be a string", key);
    return json_is_string(v) ? json_string_value(v) : "";
}

static uint32_t vm_u32(vm_reader *r, json_t *obj, const char *path, const char *key, bool optional)
{
    json_t *v = json_object_get(obj, key);
    if (!v && optional) return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (json_int_t)UINT32_MAX) {
        vm_error(r, path, "\"%s\" must be a whole number from 0 to 4294967295", key);
        return 0;
    }
    return (uint32_t)json_integer_value(v);
}

/* obj[key] as an array ("optional": absent is empty). */
static json_t *vm_array(vm_reader *r, json_t *obj, const char *path, const char *key, bool optional)
{
    json_t *v = json_object_get(obj, key);
    if (!v && optional) return NULL;
    if (!json_is_array(v)) vm_error(r, path, "\"%s\" must be an array", key);
    return json_is_array(v) ? v : NULL;
}

static json_t *vm_object(vm_reader *r, json_t *v, const char *path)
{
    if (!json_is_object(v)) vm_error(r, path, "must be an object");
    return json_is_object(v) ? v : NULL;
}

static void read_field(vm_reader *r, json_t *o, const char *path, vm_field *f)
{
    f->name = vm_string(r, o, path, "field", false);
    f->key = vm_string(r, o, path, "key", false);
    f->id = vm_u32(r, o, path, "id", false);
    f->type = vm_string(r, o, path, "type", false);
    f->element = vm_string(r, o, path, "element", true);
    f->value = vm_string(r, o, path, "value", true);
    f->capacity = vm_u32(r, o, path, "capacity", true);
    f->catalog = vm_string(r, o, path, "catalog", true);
    f->backing = vm_string(r, o, path, "backing", false);
    f->def = vm_string(r, o, path, "default", false);
    if (r->ok && strcmp(f->backing, "serialised") != 0 && strcmp(f->backing, "transient") != 0)
        vm_error(r, path, "\"backing\" must be \"serialised\" or \"transient\"");
}

static void read_vault(vm_reader *r, json_t *o, const char *path, vm_vault *v)
{
    v->name = vm_string(r, o, path, "name", false);
    v->id = vm_u32(r, o, path, "id", false);
    v->schema = vm_string(r, o, path, "schema", false);
    json_t *fields = vm_array(r, o, path, "fields", false);
    for (size_t i = 0; r->ok && i < json_array_size(fields); i++) {
        char *sub = xasprintf("%s.fields[%zu]", path, i);
        json_t *fo = vm_object(r, json_array_get(fields, i), sub);
        if (fo) read_field(r, fo, sub, vec_push(&v->fields));
        free(sub);
    }
}

static void read_assets(vm_reader *r, json_t *o, const char *path, vm_instance *in)
{
    json_t *assets = vm_array(r, o, path, "assets", true);
    for (size_t i = 0; r->ok && i < json_array_size(assets); i++) {
        char *sub = xasprintf("%s.assets[%zu]", path, i);
        json_t *ao = vm_object(r, json_array_get(assets, i), sub);
        if (ao) {
            vm_asset *a = vec_push(&in->assets);
            a->at = vm_string(r, ao, sub, "at", false);
            a->catalog = vm_string(r, ao, sub, "catalog", false);
            a->asset = vm_string(r, ao, sub, "asset", false);
            a->id = vm_u32(r, ao, sub, "id", false);
        }
        free(sub);
    }
}

static void read_data(vm_reader *r, json_t *o, const char *path, vm_data *d)
{
    d->file = vm_string(r, o, path, "file", false);
    d->vault = vm_string(r, o, path, "vault", false);
    d->keys = vm_string(r, o, path, "keys", true);
    json_t *instances = vm_array(r, o, path, "instances", false);
    for (size_t i = 0; r->ok && i < json_array_size(instances); i++) {
        char *sub = xasprintf("%s.instances[%zu]", path, i);
        json_t *io = vm_object(r, json_array_get(instances, i), sub);
        if (io) {
            vm_instance *in = vec_push(&d->instances);
            memset(in, 0, sizeof *in);
            in->name = vm_string(r, io, sub, "name", false);
            in->id = vm_u32(r, io, sub, "id", false);
            in->key = vm_u32(r, io, sub, "key", !d->keys);
            read_assets(r, io, sub, in);
        }
        free(sub);
    }
}

/* {"format": 1, "project"?, "vaults": [...], "data": [...]}; unknown keys are skipped. */
static void read_top(vm_reader *r, json_t *root)
{
    vault_manifest *vm = r->vm;
    if (!vm_object(r, root, "")) return;
    json_t *format = json_object_get(root, "format");
    if (!json_is_integer(format) || json_integer_value(format) != 1) {
        vm_error(r, "format", "a vault manifest of format 1 is expected (this threadlink-gen reads format 1)");
        return;
    }
    vm->project = vm_string(r, root, "", "project", true);
    json_t *vaults = vm_array(r, root, "", "vaults", false), *data = vm_array(r, root, "", "data", false);
    for (size_t i = 0; r->ok && i < json_array_size(vaults); i++) {
        char *path = xasprintf("vaults[%zu]", i);
        json_t *o = vm_object(r, json_array_get(vaults, i), path);
        if (o) read_vault(r, o, path, memset(vec_push(&vm->vaults), 0, sizeof(vm_vault)));
        free(path);
    }
    for (size_t i = 0; r->ok && i < json_array_size(data); i++) {
        char *path = xasprintf("data[%zu]", i);
        json_t *o = vm_object(r, json_array_get(data, i), path);
        if (o) read_data(r, o, path, memset(vec_push(&vm->data), 0, sizeof(vm_data)));
        free(path);
    }
}

static void vm_free(vault_manifest *vm)
{
    for (size_t i = 0; i < vm->vaults.count; i++) vec_free(&vm->vaults.items[i].fields);
    for (size_t i = 0; i < vm->data.count; i++) {
        for (size_t k = 0; k < vm->data.items[i].instances.count; k++) vec_free(&vm->data.items[i].instances.items[k].assets);
        vec_free(&vm->data.items[i].instances);
    }
    vec_free(&vm->vaults);
    vec_free(&vm->data);
    if (vm->root) json_decref(vm->root);
    buf_free(&vm->text);
}

static bool vm_read(const char *path, vault_manifest *vm)
{
    memset(vm, 0, sizeof *vm);
    vm->path = path;
    if (!fs_read_input(path, FS_INPUT_MANIFEST, &vm->text)) {
        diag_error(loc_file(path), "cannot read: %s", fs_read_failure());
        return false;
    }
    json_error_t err;
    vm->root = json_loadb(vm->text.data, vm->text.len, JSON_REJECT_DUPLICATES, &err);
    if (!vm->root) {
        jc_syntax_error(path, vm->text.data, vm->text.len, &err);
        return false;
    }
    vm_reader r = {vm, true};
    read_top(&r, vm->root);
    return r.ok;
}

/* ---- locations ------------------------------------------------------------------------------- */

/* Where a change points: a schema or data file (as the project names it, reached from the
 * manifest) at a JSON path, when the file can be read; else the manifest at its own path. A file
 * is read once and its positions found in one walk when a position is first asked of it (a walk
 * per change was quadratic in the file's size). One file is kept: the changes that point into a
 * file are found together (a vault's fields, a data file's instances). */
typedef struct locator {
    const vault_manifest *vm;
    json_positions *manifest_positions; /* of vm's text; NULL until asked */
    char *rel;                          /* the project file kept (as the manifest names it); NULL: none */
    bool readable;                      /* whether it could be read */
    buf file, text;                     /* its path as reports name it, and its text */
    json_positions *positions;          /* of `text`; NULL until asked */
} locator;

/* "a/b/../c" -> "a/c", "./a" -> "a": lexically, for file names in reports. */
static void normalise(buf *path)
{
    buf out = {0};
    buf_puts(&out, "");
    size_t kept = 0; /* segments in out that a ".." may drop */
    for (char *seg = strtok(path->data, "/"); seg; seg = strtok(NULL, "/")) {
        if (strcmp(seg, ".") == 0) continue;
        if (strcmp(seg, "..") == 0 && kept) {
            char *slash = strrchr(out.data, '/');
            out.len = slash ? (size_t)(slash - out.data) : 0;
            out.data[out.len] = 0;
            kept--;
            continue;
        }
        if (out.len || path->data[0] == '/') buf_putc(&out, '/');
        buf_puts(&out, seg);
        if (strcmp(seg, "..") != 0) kept++;
    }
    path->len = 0;
    buf_puts(path, out.len ? out.data : ".");
    buf_free(&out);
}

/* The project's files are read as they are now, which an edit since the manifest was written may
 * have broken: what the walk's lexer says of such a text is dropped. A path the walk did not reach
 * is found by json_positions_find's fallback, json_locate, which says it as before. */
static json_positions *positions_quietly(const char *file, const buf *text)
{
    diag_hold dropped = {0};
    diag_hold_begin(&dropped);
    json_positions *p = json_positions_build(file, text->data, text->len);
    diag_hold_end();
    for (size_t i = 0; i < dropped.count; i++) free(dropped.items[i].message);
    vec_free(&dropped);
    return p;
}

/* Makes `rel` the file kept, reading it unless it is already; whether it could be read. */
static bool keep_project_file(locator *l, const char *rel)
{
    if (l->rel && strcmp(l->rel, rel) == 0) return l->readable;
    free(l->rel);
    l->rel = xstrdup(rel);
    json_positions_free(l->positions);
    l->positions = NULL;
    char *dir = path_dirname(l->vm->path);
    char *root = path_join(dir, l->vm->project);
    char *full = path_join(root, rel);
    l->file.len = 0;
    buf_puts(&l->file, full);
    normalise(&l->file);
    free(dir), free(root), free(full);
    l->readable = fs_read_input(l->file.data, FS_INPUT_CONFIG, &l->text);
    return l->readable;
}

/* Whether a path's segments are all `..` (the project is above the manifest, as the generator
 * writes it), or none is (a file named below the project): a manifest from a pull request may
 * name any path, and a report is no way to open files elsewhere on the runner. */
static bool segments_all_up(const char *p, bool up)
{
    if (!*p || *p == '/') return false;
    for (;;) {
        size_t n = strcspn(p, "/");
        if ((n == 2 && memcmp(p, "..", 2) == 0) != up && !(up && n == 1 && *p == '.')) return false;
        if (!p[n]) return true;
        p += n + 1;
    }
}

static src_loc locate(locator *l, const char *rel, const char *json_path, const char *manifest_path)
{
    if (l->vm->project && rel && segments_all_up(l->vm->project, true) && segments_all_up(rel, false) &&
        keep_project_file(l, rel)) {
        if (!l->positions) l->positions = positions_quietly(l->file.data, &l->text);
        return json_positions_find(l->positions, json_path);
    }
    if (!l->manifest_positions) l->manifest_positions = json_positions_build(l->vm->path, l->vm->text.data, l->vm->text.len);
    return json_positions_find(l->manifest_positions, manifest_path);
}

static void locator_free(locator *l)
{
    json_positions_free(l->manifest_positions);
    json_positions_free(l->positions);
    free(l->rel);
    buf_free(&l->file), buf_free(&l->text);
}

/* ---- comparing ------------------------------------------------------------------------------- */

/* A NEW manifest's entries by value (each value's first entry, as a scan from the start found it). */
typedef struct domain_values {
    const char *domain;
    const manifest *m;  /* NULL: NEW has no such manifest */
    index_map by_value; /* by the value itself: already a hash or a small index */
} domain_values;

typedef struct vault_cmp {
    diff_extra_ctx *ctx;
    const vault_manifest *old, *new_;
    locator at_new, at_old;
    VEC(domain_values) domains; /* the domains an instance's key or asset was looked up in */
    index_map domains_by_name;  /* by fnv1a of the domain's name */
} vault_cmp;

/* One change: of `name` (a field's, or NULL), at `at`, explained by the detail. */
static void found(vault_cmp *c, diff_class kind, const char *domain, const char *key, const char *name, src_loc at,
                  const char *fmt, ...) TLG_PRINTF(7, 8);
static void found(vault_cmp *c, diff_class kind, const char *domain, const char *key, const char *name, src_loc at,
                  const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    diff_found f = {kind, domain, key, name, detail[0] ? detail : NULL, at.file, at.line, at.col};
    diff_add_found(c->ctx, &f);
}

static const vm_vault *find_vault(const vault_manifest *vm, const char *name)
{
    for (size_t i = 0; vm && i < vm->vaults.count; i++)
        if (strcmp(vm->vaults.items[i].name, name) == 0) return &vm->vaults.items[i];
    return NULL;
}

/* A vault's fields by id (each id's first field, as a scan from the start found it). */
typedef struct field_index {
    const vm_vault *v;
    index_map by_id; /* by the id itself: already a hash */
} field_index;

typedef struct id_lookup {
    const vm_vault *v;
    uint32_t id;
} id_lookup;

static bool field_of_id(const void *ctx, uint32_t index)
{
    const id_lookup *l = ctx;
    return l->v->fields.items[index].id == l->id;
}

static const vm_field *find_field(const field_index *x, uint32_t id)
{
    id_lookup l = {x->v, id};
    uint32_t i = index_map_find(&x->by_id, id, field_of_id, &l);
    return i == UINT32_MAX ? NULL : &x->v->fields.items[i];
}

static void index_fields(field_index *x, const vm_vault *v)
{
    x->v = v;
    index_map_init(&x->by_id, v->fields.count);
    for (size_t i = 0; i < v->fields.count; i++)
        if (!find_field(x, v->fields.items[i].id)) index_map_insert(&x->by_id, v->fields.items[i].id, (uint32_t)i);
}

static bool same(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* "InlineList<Integer>", "InlineDictionary<Integer, FP>", "Long". */
static void type_text(const vm_field *f, char *out, size_t n)
{
    if (!f->element) snprintf(out, n, "%s", f->type);
    else if (!f->value) snprintf(out, n, "%s<%s>", f->type, f->element);
    else snprintf(out, n, "%s<%s, %s>", f->type, f->element, f->value);
}

/* Field k of NEW vault `nv` (index vi) against the OLD field with its id. */
static void compare_field(vault_cmp *c, const char *dom, const vm_vault *nv, size_t vi, size_t k, const vm_field *o)
{
    const vm_field *n = &nv->fields.items[k];
    char path[64], mpath[96], ot[160], nt[160];
    snprintf(path, sizeof path, "fields[%zu]", k);
    snprintf(mpath, sizeof mpath, "vaults[%zu].fields[%zu]", vi, k);
    src_loc at = locate(&c->at_new, nv->schema, path, mpath);
    if (strcmp(o->name, n->name) != 0)
        found(
            c, DIFF_FIELD_RENAMED, dom, n->key, n->name, at,
            "from %s to %s: one Vault.Fields value, so saves keep reading it; the struct member and accessors follow the new name",
            o->name, n->name);
    type_text(o, ot, sizeof ot), type_text(n, nt, sizeof nt);
    if (strcmp(ot, nt) != 0)
        found(
            c, DIFF_FIELD_TYPE_CHANGED, dom, n->key, n->name, at,
            "%s -> %s: saves holding it are refused (TL_VAULT_ERROR_TYPE) unless read with tl_vault_read_with, whose on_mismatch converts",
            ot, nt);
    else if (n->capacity < o->capacity)
        found(c, DIFF_CAPACITY_SHRUNK, dom, n->key, n->name, at,
              "%u -> %u: saves holding more are refused (TL_VAULT_ERROR_CAPACITY)", o->capacity, n->capacity);
    else if (n->capacity > o->capacity)
        found(c, DIFF_CAPACITY_GROWN, dom, n->key, n->name, at, "%u -> %u", o->capacity, n->capacity);
    if (!same(o->catalog, n->catalog))
        found(c, DIFF_CATALOG_CHANGED, dom, n->key, n->name, at, "%s -> %s: saved ids name assets of the old catalog",
              o->catalog ? o->catalog : "none", n->catalog ? n->catalog : "none");
    if (strcmp(o->backing, n->backing) != 0 && strcmp(n->backing, "transient") == 0)
        found(c, DIFF_BACKING_TO_TRANSIENT, dom, n->key, n->name, at,
              "saves keep its record, which is skipped from now on: the saved values are dropped");
    else if (strcmp(o->backing, n->backing) != 0)
        found(c, DIFF_BACKING_TO_SERIALISED, dom, n->key, n->name, at,
              "old saves have no record of it: it starts at its default");
    if (strcmp(ot, nt) == 0 && strcmp(o->def, n->def) != 0)
        found(c, DIFF_DEFAULT_CHANGED, dom, n->key, n->name, at, "%.200s -> %.200s", o->def, n->def);
}

static void compare_vault(vault_cmp *c, const vm_vault *ov, const vm_vault *nv, size_t vi)
{
    char *dom = xasprintf("Vaults.%s", nv->name);
    char mpath[64];
    field_index old_fields, new_fields;
    index_fields(&old_fields, ov), index_fields(&new_fields, nv);
    for (size_t k = 0; k < nv->fields.count; k++) {
        const vm_field *o = find_field(&old_fields, nv->fields.items[k].id);
        if (o) {
            compare_field(c, dom, nv, vi, k, o);
            continue;
        }
        char path[48];
        snprintf(path, sizeof path, "fields[%zu]", k);
        snprintf(mpath, sizeof mpath, "vaults[%zu].fields[%zu]", vi, k);
        found(c, DIFF_FIELD_ADDED, dom, nv->fields.items[k].key, nv->fields.items[k].name,
              locate(&c->at_new, nv->schema, path, mpath), "old saves read: the field keeps its default");
    }
    snprintf(mpath, sizeof mpath, "vaults[%zu]", vi);
    for (size_t k = 0; k < ov->fields.count; k++)
        if (!find_field(&new_fields, ov->fields.items[k].id))
            found(c, DIFF_FIELD_REMOVED, dom, ov->fields.items[k].key, ov->fields.items[k].name,
                  locate(&c->at_new, nv->schema, "fields", mpath),
                  "code using it no longer compiles; saves still read (its record is skipped)");
    index_map_free(&old_fields.by_id), index_map_free(&new_fields.by_id);
    free(dom);
}

/* A NEW vault that OLD lacks but whose schema file an OLD vault (that NEW lacks) had. */
static const vm_vault *renamed_from(const vault_cmp *c, const vm_vault *nv)
{
    for (size_t i = 0; c->old && i < c->old->vaults.count; i++) {
        const vm_vault *ov = &c->old->vaults.items[i];
        if (strcmp(ov->schema, nv->schema) == 0 && !find_vault(c->new_, ov->name)) return ov;
    }
    return NULL;
}

static void compare_vaults(vault_cmp *c)
{
    for (size_t i = 0; c->new_ && i < c->new_->vaults.count; i++) {
        const vm_vault *nv = &c->new_->vaults.items[i], *ov = find_vault(c->old, nv->name);
        char *dom = xasprintf("Vaults.%s", nv->name), mpath[48];
        snprintf(mpath, sizeof mpath, "vaults[%zu]", i);
        src_loc at = locate(&c->at_new, nv->schema, "name", mpath);
        const vm_vault *was = ov ? NULL : renamed_from(c, nv);
        if (ov) compare_vault(c, ov, nv, i);
        else if (was)
            found(c, DIFF_VAULT_RENAMED, dom, NULL, NULL, at,
                  "%s -> %s (%s): the vault id changes (%u -> %u), so its saves are refused", was->name, nv->name, nv->schema,
                  was->id, nv->id);
        else found(c, DIFF_VAULT_ADDED, dom, NULL, NULL, at, "%s", nv->schema);
        free(dom);
    }
    for (size_t i = 0; c->old && i < c->old->vaults.count; i++) {
        const vm_vault *ov = &c->old->vaults.items[i];
        if (find_vault(c->new_, ov->name)) continue;
        bool renamed = false;
        for (size_t k = 0; c->new_ && k < c->new_->vaults.count && !renamed; k++)
            renamed =
                strcmp(c->new_->vaults.items[k].schema, ov->schema) == 0 && !find_vault(c->old, c->new_->vaults.items[k].name);
        if (renamed) continue;
        char *dom = xasprintf("Vaults.%s", ov->name), mpath[48];
        snprintf(mpath, sizeof mpath, "vaults[%zu]", i);
        found(c, DIFF_VAULT_REMOVED, dom, NULL, NULL, locate(&c->at_old, NULL, NULL, mpath),
              "%s: saves of it no longer load, and code using it no longer compiles", ov->schema);
        free(dom);
    }
}

/* ---- designer data --------------------------------------------------------------------------- */

static const vm_data *find_data(const vault_manifest *vm, const char *file)
{
    for (size_t i = 0; vm && i < vm->data.count; i++)
        if (strcmp(vm->data.items[i].file, file) == 0) return &vm->data.items[i];
    return NULL;
}

/* A data file's instances by name, matched ASCII case-blind (an earlier one of equal names is the
 * one found, as a scan from the start found it). */
typedef struct instance_index {
    const vm_data *d;
    index_map by_name; /* by fnv1a_folded of the name */
} instance_index;

static const char *instance_name(const void *d, uint32_t i) { return ((const vm_data *)d)->instances.items[i].name; }

static const vm_instance *find_instance(const instance_index *x, const char *name)
{
    if (!x->d) return NULL;
    uint32_t i = index_map_find_name(&x->by_name, name, strlen(name), instance_name, x->d);
    return i == UINT32_MAX ? NULL : &x->d->instances.items[i];
}

/* `d` may be NULL: nothing is found in it. */
static void index_instances(instance_index *x, const vm_data *d)
{
    memset(x, 0, sizeof *x);
    if (!d) return;
    x->d = d;
    index_map_init(&x->by_name, d->instances.count);
    for (size_t i = 0; i < d->instances.count; i++) index_map_add_name(&x->by_name, (uint32_t)i, instance_name, d);
}

/* "VaultData.enemies": a data file's changes are named after its stem. */
static char *data_domain(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t stem = strlen(base);
    str_has_suffix(base, ".vaultdata.json", &stem);
    return xasprintf("VaultData.%.*s", (int)stem, base);
}

typedef struct domain_lookup {
    const vault_cmp *c;
    const char *domain;
} domain_lookup;

static bool domain_named(const void *ctx, uint32_t index)
{
    const domain_lookup *l = ctx;
    return strcmp(l->c->domains.items[index].domain, l->domain) == 0;
}

/* `domain`'s NEW entries by value, indexed when first asked. */
static const domain_values *values_of(vault_cmp *c, const char *domain)
{
    domain_lookup l = {c, domain};
    uint32_t hash = fnv1a(domain, strlen(domain));
    uint32_t i = index_map_find(&c->domains_by_name, hash, domain_named, &l);
    if (i != UINT32_MAX) return &c->domains.items[i];
    if (!c->domains_by_name.slots) index_map_init(&c->domains_by_name, 8);
    index_map_insert(&c->domains_by_name, hash, (uint32_t)c->domains.count);
    domain_values *dv = vec_push(&c->domains);
    dv->domain = domain;
    dv->m = diff_side_manifest(c->ctx, true, domain);
    manifest_index_values(dv->m, &dv->by_value);
    return dv;
}

static void free_domain_values(vault_cmp *c)
{
    for (size_t i = 0; i < c->domains.count; i++) index_map_free(&c->domains.items[i].by_value);
    vec_free(&c->domains);
    index_map_free(&c->domains_by_name);
}

/* The live entry of `domain` (NEW side) with `value`: NULL and *known false when the manifest is
 * not in NEW (nothing to check against). */
static const entry *live_entry(vault_cmp *c, const char *domain, uint32_t value, bool *known)
{
    const domain_values *dv = values_of(c, domain);
    *known = dv->m != NULL;
    uint32_t i = manifest_find_value(&dv->by_value, dv->m, value);
    if (i == UINT32_MAX) return NULL;
    return dv->m->entries.items[i].tombstone ? NULL : &dv->m->entries.items[i];
}

static void check_instance(vault_cmp *c, const char *dom, const vm_data *d, size_t di, size_t ii)
{
    const vm_instance *in = &d->instances.items[ii];
    char path[96], mpath[96];
    bool known;
    snprintf(path, sizeof path, "instances[%zu].name", ii);
    snprintf(mpath, sizeof mpath, "data[%zu].instances[%zu]", di, ii);
    if (d->keys && !live_entry(c, d->keys, in->key, &known) && known)
        found(c, DIFF_INSTANCE_KEY_REMOVED, dom, in->name, NULL, locate(&c->at_new, d->file, path, mpath),
              "its name is no live entry of %s any more (value %u is a tombstone or gone), whose entries key this file", d->keys,
              in->key);
    for (size_t k = 0; k < in->assets.count; k++) {
        const vm_asset *a = &in->assets.items[k];
        if (live_entry(c, a->catalog, a->id, &known) || !known) continue;
        char *key = xasprintf("%s.%s", in->name, a->at), *apath = xasprintf("instances[%zu].%s", ii, a->at);
        found(c, DIFF_ASSET_MISSING, dom, key, NULL, locate(&c->at_new, d->file, apath, mpath),
              "\"%s\" (id %u) is no asset of %s any more", a->asset, a->id, a->catalog);
        free(key), free(apath);
    }
}

static void compare_data_file(vault_cmp *c, const vm_data *od, const vm_data *nd, size_t di)
{
    char *dom = data_domain(nd ? nd->file : od->file);
    instance_index old_instances, new_instances;
    index_instances(&old_instances, od), index_instances(&new_instances, nd);
    for (size_t i = 0; nd && i < nd->instances.count; i++) {
        char path[64], mpath[96];
        snprintf(path, sizeof path, "instances[%zu].name", i);
        snprintf(mpath, sizeof mpath, "data[%zu].instances[%zu]", di, i);
        if (!find_instance(&old_instances, nd->instances.items[i].name))
            found(c, DIFF_INSTANCE_ADDED, dom, nd->instances.items[i].name, NULL, locate(&c->at_new, nd->file, path, mpath),
                  "of %s", nd->vault);
        check_instance(c, dom, nd, di, i);
    }
    for (size_t i = 0; od && i < od->instances.count; i++) {
        const vm_instance *in = &od->instances.items[i];
        if (find_instance(&new_instances, in->name)) continue;
        char mpath[64];
        snprintf(mpath, sizeof mpath, "data[%zu]", di);
        src_loc at = nd ? locate(&c->at_new, nd->file, "instances", mpath) : locate(&c->at_old, NULL, NULL, mpath);
        found(c, DIFF_INSTANCE_REMOVED, dom, in->name, NULL, at,
              "of %s (id %u): code naming it no longer compiles, and data holding its id resolves to nothing", od->vault, in->id);
    }
    index_map_free(&old_instances.by_name), index_map_free(&new_instances.by_name);
    free(dom);
}

static void compare_data(vault_cmp *c)
{
    for (size_t i = 0; c->new_ && i < c->new_->data.count; i++)
        compare_data_file(c, find_data(c->old, c->new_->data.items[i].file), &c->new_->data.items[i], i);
    for (size_t i = 0; c->old && i < c->old->data.count; i++)
        if (!find_data(c->new_, c->old->data.items[i].file)) compare_data_file(c, &c->old->data.items[i], NULL, i);
}

static bool vault_diff_compare(diff_extra_ctx *ctx, const char *old_path, const char *new_path)
{
    vault_manifest old, new_;
    bool old_ok = !old_path || vm_read(old_path, &old);
    bool new_ok = !new_path || vm_read(new_path, &new_);
    if (old_ok && new_ok) {
        vault_cmp c = {.ctx = ctx, .old = old_path ? &old : NULL, .new_ = new_path ? &new_ : NULL};
        c.at_new.vm = c.new_;
        c.at_old.vm = c.old;
        compare_vaults(&c);
        compare_data(&c);
        locator_free(&c.at_new), locator_free(&c.at_old);
        free_domain_values(&c);
    }
    if (old_path) vm_free(&old);
    if (new_path) vm_free(&new_);
    return old_ok && new_ok;
}

const diff_extra vault_diff = {VAULT_MANIFEST_NAME, vault_diff_compare};
