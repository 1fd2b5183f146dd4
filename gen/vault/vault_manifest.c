/* vault-manifest.json: every vault schema and data file as generate resolved them (field ids,
 * types, capacities, backings, defaults as baked; instances with their ids, keys and asset
 * references), in the vault output directory beside the headers. It is committed like a domain's
 * manifest, so that `threadlink-gen diff` compares a pull request's vaults with the base branch's
 * from the generated directory alone (gen/vault/vault_diff.c), in a shallow clone too: no schema
 * needs parsing again, no name resolving. One line per field and per instance, in schema and
 * file order, so a change to one is a one-line diff. Schema: schemas/vault-manifest.schema.json.
 *
 *   {"format": 1, "project": "../..", "vaults": [vault,*], "data": [data,*]}
 *   vault -> {"name", "id", "schema", "fields": [field,*]}
 *   field -> {"field", "key", "id", "type", ["element", "value",] ["capacity",] ["catalog",] "backing", "default"}
 *   data  -> {"file", "vault", ["keys",] "instances": [instance,*]}
 *   instance -> {"name", "id", ["key",] ["assets": [{"at", "catalog", "asset", "id"},*]]}
 * "project" is the way from this file's directory back to the project (data and schema paths are
 * project-relative), absent when the generated directory leaves the project. */
#include "core/emit.h"
#include "vault/vault_model.h"

#include <string.h>

static void put_str(buf *b, const char *s) { emit_json_string(b, s, strlen(s)); }

/* "../.." from <generated>/<output> back to the project, or NULL when a segment climbs out. */
static char *way_back(const vault_state *st)
{
    char *dir = path_join(st->p->cfg.generated_dir, st->out_dir);
    buf way = {0};
    bool ok = true;
    for (char *seg = strtok(dir, "/"); seg && ok; seg = strtok(NULL, "/")) {
        if (strcmp(seg, "..") == 0) ok = false;
        else if (strcmp(seg, ".") != 0) buf_puts(&way, way.len ? "/.." : "..");
    }
    free(dir);
    if (ok && !way.len) buf_putc(&way, '.');
    char *result = ok ? xstrdup(way.data) : NULL;
    buf_free(&way);
    return result;
}

static void put_type(buf *b, const vfield *f)
{
    if (f->type != VT_COLLECTION) {
        buf_puts(b, ", \"type\": ");
        put_str(b, vtype_name(f->type));
    } else {
        buf_puts(b, ", \"type\": ");
        put_str(b, layout_kind_name(f->kind));
        buf_puts(b, ", \"element\": ");
        put_str(b, vtype_name(f->element));
        if (f->kind == LAYOUT_DICT) buf_puts(b, ", \"value\": "), put_str(b, vtype_name(f->value));
    }
    if (f->type == VT_STRING || f->type == VT_COLLECTION) buf_printf(b, ", \"capacity\": %u", f->capacity);
    if (f->catalog) buf_puts(b, ", \"catalog\": "), put_str(b, f->catalog);
}

static void put_field(buf *b, const vfield *f, buf *scratch)
{
    buf_puts(b, "      {\"field\": ");
    put_str(b, f->member);
    buf_puts(b, ", \"key\": ");
    put_str(b, f->key);
    buf_printf(b, ", \"id\": %u", f->id);
    put_type(b, f);
    buf_puts(b, f->transient ? ", \"backing\": \"transient\", \"default\": " : ", \"backing\": \"serialised\", \"default\": ");
    scratch->len = 0;
    vault_put_value(scratch, f, &f->def);
    for (size_t i = 0; i < scratch->len; i++) /* one line: collections wrap their words */
        if (scratch->data[i] == '\n') scratch->data[i] = ' ';
    emit_json_string(b, scratch->data, scratch->len);
    buf_putc(b, '}');
}

static void put_vaults(out_file *o, const vault_state *st, buf *scratch)
{
    buf_puts(&o->chunk, "  \"vaults\": [");
    for (size_t i = 0; i < st->schemas.count; i++) {
        const vschema *s = st->schemas.items[i];
        buf *b = &o->chunk;
        buf_puts(b, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        put_str(b, s->name);
        buf_printf(b, ", \"id\": %u, \"schema\": ", s->vault_id);
        put_str(b, s->rel);
        buf_puts(b, ", \"fields\": [");
        for (size_t k = 0; k < s->fields.count; k++) {
            buf_puts(b, k ? ",\n" : "\n");
            put_field(b, &s->fields.items[k], scratch);
        }
        buf_puts(b, s->fields.count ? "\n    ]}" : "]}");
        out_maybe_flush(o);
    }
    buf_puts(&o->chunk, st->schemas.count ? "\n  ],\n" : "],\n");
}

/* One authored asset reference of an instance: where ("values.Sprite", "values.Drops[2]"), which. */
static void put_asset(buf *b, const vfield *f, const char *at, const vscalar *v, size_t *count)
{
    if (!v->s || !v->s[0]) return; /* no asset */
    buf_puts(b, (*count)++ ? ", {\"at\": " : ", \"assets\": [{\"at\": ");
    put_str(b, at);
    buf_puts(b, ", \"catalog\": ");
    put_str(b, f->catalog);
    buf_puts(b, ", \"asset\": ");
    put_str(b, v->s);
    buf_printf(b, ", \"id\": %u}", (uint32_t)v->i[0]);
}

static void put_instance_assets(buf *b, const vschema *s, const vinstance *in)
{
    size_t count = 0;
    for (size_t k = 0; k < s->fields.count; k++) {
        const vfield *f = &s->fields.items[k];
        const vvalue *v = &in->values[k];
        if (!v->present || !f->catalog) continue;
        char *at = xasprintf("values.%s", f->ref);
        if (vtype_names_entry(f->type)) put_asset(b, f, at, &v->one, &count);
        for (size_t e = 0; f->type == VT_COLLECTION && e < v->keys.count; e++) {
            char *sub = f->kind == LAYOUT_DICT ? xasprintf("%s[%zu][0]", at, e) : xasprintf("%s[%zu]", at, e);
            if (vtype_names_entry(f->element)) put_asset(b, f, sub, &v->keys.items[e], &count);
            free(sub);
            if (f->kind == LAYOUT_DICT && vtype_names_entry(f->value)) {
                sub = xasprintf("%s[%zu][1]", at, e);
                put_asset(b, f, sub, &v->values.items[e], &count);
                free(sub);
            }
        }
        free(at);
    }
    if (count) buf_putc(b, ']');
}

static void put_data(out_file *o, const vdata *d)
{
    buf *b = &o->chunk;
    buf_puts(b, "{\"file\": ");
    put_str(b, d->rel);
    buf_puts(b, ", \"vault\": ");
    put_str(b, d->schema->name);
    if (d->keys) buf_puts(b, ", \"keys\": "), put_str(b, d->keys);
    buf_puts(b, ", \"instances\": [");
    for (size_t i = 0; i < d->instances.count; i++) {
        const vinstance *in = &d->instances.items[i];
        b = &o->chunk;
        buf_puts(b, i ? ",\n      {\"name\": " : "\n      {\"name\": ");
        put_str(b, in->name);
        buf_printf(b, ", \"id\": %u", in->id);
        if (d->keys) buf_printf(b, ", \"key\": %u", in->key);
        put_instance_assets(b, d->schema, in);
        buf_putc(b, '}');
        out_maybe_flush(o);
    }
    buf_puts(&o->chunk, d->instances.count ? "\n    ]}" : "]}");
}

void vault_emit_manifest(const vault_state *st, out_file *o)
{
    buf scratch = {0};
    char *back = way_back(st);
    buf_puts(&o->chunk, "{\n  \"format\": 1,\n");
    if (back) buf_puts(&o->chunk, "  \"project\": "), put_str(&o->chunk, back), buf_puts(&o->chunk, ",\n");
    put_vaults(o, st, &scratch);
    buf_puts(&o->chunk, "  \"data\": [");
    for (size_t i = 0; i < st->data.count; i++) {
        buf_puts(&o->chunk, i ? ",\n    " : "\n    ");
        put_data(o, st->data.items[i]);
    }
    buf_puts(&o->chunk, st->data.count ? "\n  ]\n}\n" : "]\n}\n");
    free(back);
    buf_free(&scratch);
}
