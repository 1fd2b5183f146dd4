/* The input stage (issue 44, the seed's Dextra): an action map file -> the Dextra.Actions domain
 * (one identity entry per action, scoped by its mode) and a header of const binding tables for
 * runtime/threadlink/input.h (tl_input_map).
 *   input_parse.c  the action map's JSON -> the model, every check that needs no identity value
 *                  (control names, kinds, parts, thresholds, duplicates, conflicts, modes)
 *   input_stage.c  the "input" key of threadlink.json, the stage's hooks: load, add_domains,
 *                  resolve (mode, action and asset values), emit (the header)
 * The file's format is schemas/actionmap.schema.json; input.h's static inline tables name the
 * controls, so the generator and the runtime read the same names. */
#ifndef TLG_INPUT_MODEL_H
#define TLG_INPUT_MODEL_H

#include "base/diag.h"
#include "core/stage.h"

/* A mode the map may name: an entry of the modes domain (its declaration's spelling and scope). */
typedef struct in_mode {
    const char *name, *scope;
    uint32_t value; /* after resolve */
} in_mode;

typedef struct in_binding {
    uint32_t control, part; /* tl_input_part */
    double threshold;       /* 0: none */
    const char *path;       /* its JSON path, for messages */
} in_binding;

typedef struct in_action {
    const char *name;    /* as written: a C identifier */
    uint32_t kind;       /* tl_input_kind */
    uint32_t mode;       /* index into known_modes */
    size_t first, count; /* its bindings */
    const char *path;    /* "modes[0].actions[2]" */
    uint32_t line, col;  /* where its name is written */
    uint32_t value;      /* after resolve: its Dextra.Actions value */
    const char *member;  /* after resolve: its member name */
} in_action;

typedef struct in_glyph {
    uint32_t control, family;
    const char *asset; /* an asset name of the catalog */
    const char *path;
    uint32_t asset_id; /* after resolve */
} in_glyph;

typedef struct input_map_model {
    const char *file, *text; /* the action map as read (json_locate) */
    size_t len;
    VEC(in_mode) known_modes; /* given: the modes domain's entries */
    VEC(in_action) actions;   /* in file order */
    VEC(in_binding) bindings;
    VEC(in_glyph) glyphs;
    const char *catalog; /* glyphs.catalog: a content domain's name, or NULL */
    double dead_zone, press_point;
    arena strings;
} input_map_model;

/* Parses and checks m->text (m->file names it in messages; known_modes filled). Every problem is
 * reported as file:line:col with the JSON path; false if there was any. */
bool input_parse(input_map_model *m);
void input_model_free(input_map_model *m);

extern const gen_stage input_stage;

#endif
