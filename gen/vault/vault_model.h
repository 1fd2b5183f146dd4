/* Vault schemas (*.vault.json) and vault data (*.vaultdata.json): the stage's model.
 *   vault_types.c    the value types: names, C types, sizes (read, baked and emitted alike)
 *   vault_load.c     config key "vaults", reading and validating schemas and data, planning outputs
 *   vault_resolve.c  after identity: field names -> Vault.Fields values, asset names -> catalog ids
 *   vault_emit.c     the generated headers
 *   vault_fp.c       decimal strings -> Q32.32, exactly
 *   vault_bake.c     values -> the runtime's bytes (inline collections laid out by gen/core/layout.c)
 *   vault_image.c    a data file's binary image, which development builds reload (watch)
 *   vault_manifest.c vault-manifest.json: the resolved schemas and data, committed; diff's baseline
 *   vault_diff.c     diff over two vault manifests: schema changes and designer data checks
 * The format of both files is in schemas/vault.schema.json and schemas/vaultdata.schema.json. */
#ifndef TLG_VAULT_MODEL_H
#define TLG_VAULT_MODEL_H

#include "base/diag.h"
#include "core/layout.h"
#include "base/index_map.h"
#include "core/stage.h"

/* A LocalizedText field's catalog when it names none: the text stage's default domain
 * (gen/l10n/l10n_model.h's TEXT_DEFAULT_DOMAIN). */
#define TEXT_KEYS_DOMAIN "Text.Keys"

/* Field types; the numbers are the runtime's tags (tl_vault_type in vault.h). */
typedef enum vtype {
    VT_NONE = 0,
    VT_INTEGER = 1,
    VT_LONG,
    VT_FLOAT,
    VT_DOUBLE,
    VT_BOOLEAN,
    VT_INTEGER2D,
    VT_FLOAT2D,
    VT_VECTOR2D,
    VT_VECTOR3D,
    VT_ROTATION,
    VT_FP,
    VT_FPVECTOR2,
    VT_FPVECTOR3,
    VT_FPQUATERNION,
    VT_STRING,
    VT_ASSETREF,
    VT_LOCALIZEDTEXT, /* a key of the text stage's domain (Text.Keys): its text in the current locale */
    VT_SCALAR_END,
    VT_COLLECTION = 32 /* + layout_kind */
} vtype;

/* A scalar value: up to four components. */
typedef struct vscalar {
    int64_t i[4];       /* Integer*, Long, Boolean, FP* (raw), AssetRef (after resolve) */
    double d[4];        /* Float*, Double, Vector*, Rotation */
    const char *s;      /* String; AssetRef: the asset's name ("" for none) */
    uint32_t line, col; /* where it was written (AssetRef names are resolved later) */
} vscalar;

/* A field's value: a scalar or a collection's elements (dictionaries: keys and values). */
typedef struct vvalue {
    bool present; /* authored (or, for a default, given in the schema) */
    vscalar one;
    VEC(vscalar) keys; /* collections */
    VEC(vscalar) values;
} vvalue;

typedef struct vfield {
    const char *ref;    /* as written: a Vault.Fields member name or Scope.Name */
    const char *member; /* after resolve: the entry's member name (a C identifier) */
    /* after resolve: the earlier member name `ref` spells when the entry was renamed since (Gold for
     * Coins <- Gold), whose accessors stay, deprecated, until the schema says Coins; else NULL */
    const char *earlier;
    const char *key;      /* after resolve: the entry's key ("user.health") */
    uint32_t id;          /* after resolve: the entry's value */
    vtype type;           /* scalar type, or VT_COLLECTION */
    layout_kind kind;     /* collections */
    vtype element, value; /* collections: element (dictionary key) and dictionary value types */
    uint32_t capacity;    /* String (bytes) and collections (elements) */
    const char *catalog;  /* AssetRef, LocalizedText (or a collection of them): the entries' domain name */
    bool transient;
    vvalue def;     /* the default */
    uint32_t index; /* position in the schema */
    char path[48];  /* "fields[3]" for diagnostics */
} vfield;

typedef struct vschema {
    char *file; /* as the user opens it */
    char *rel;  /* project-relative, for banners */
    char *text; /* the file's text (json_locate) */
    size_t text_len;
    const char *name;  /* "Enemy" */
    char *lower;       /* "enemy" */
    char *output;      /* "vaults/enemy_vault.h", relative to the generated directory */
    uint32_t vault_id; /* XXH32 of lower */
    VEC(vfield) fields;
} vschema;

typedef struct vinstance {
    const char *name;
    uint32_t id;    /* XXH32 of "<vault lower>.<instance lower>" */
    uint32_t key;   /* with "keys": the value of the domain entry the name names */
    char path[48];  /* "instances[2]" */
    vvalue *values; /* one per schema field; present when authored */
} vinstance;

typedef struct vdata {
    char *file, *rel, *text;
    size_t text_len;
    vschema *schema;
    char *prefix; /* C prefix: the file's stem in lower case ("enemies") */
    char *upper;  /* "ENEMIES" */
    char *output; /* "vaults/enemies_data.h" */
    char *image;  /* "vaults/enemies.vaultimage": what watch writes for development builds */
    VEC(vinstance) instances;
    vvalue *values;   /* every instance's values, nfields each, in one block (a block per
                       * instance of a wide schema passed the size that takes a 2 MiB page) */
    size_t nfields;   /* values per instance */
    const char *keys; /* "keys": the domain each instance name is an entry of (NULL: none) */
} vdata;

typedef struct vault_state {
    project *p;
    arena strings;
    char *out_dir; /* "vaults": below the generated directory */
    VEC(vschema *) schemas;
    VEC(vdata *) data;
    index_map schemas_by_name;  /* exact name -> schema (thousands of data files look theirs up) */
    index_map schemas_by_lower; /* lowercase name -> schema */
    index_map data_by_prefix;   /* C prefix -> data file */
    char *fields_manifest;      /* the Vault.Fields manifest's path, for banners */
    bool unreadable_schema;     /* a schema file that did not parse: its name is unknown */
} vault_state;

extern const gen_stage vault_stage;

/* vault_types.c. Schema spelling of a scalar type ("Integer"), and back (VT_NONE if unknown). */
const char *vtype_name(vtype t);
vtype vtype_from_name(const char *name);
/* Whether a value of t is written as an entry's name and resolved to its value (AssetRef: an
 * asset of its catalog; LocalizedText: a key of its text domain). */
bool vtype_names_entry(vtype t);
/* C type of a scalar ("int32_t", "tl_fpv3") and its size in bytes. */
const char *vtype_c(vtype t);
uint32_t vtype_size(vtype t);
uint32_t vtype_components(vtype t);
/* The runtime tag of a field (tl_vault_type, or TL_VAULT_TAG for collections). */
uint32_t vfield_tag(const vfield *f);
/* Bytes of a field's struct member. */
uint64_t vfield_size(const vfield *f);

/* Decimal string -> Q32.32 raw value, rounded to nearest, ties away from zero, with integer
 * arithmetic only. Grammar: [+-]? digit+ ( '.' digit+ )?  Returns NULL on success, else why. */
const char *vault_fp_parse(const char *text, int64_t *raw);

/* Native (little-endian) bytes of a scalar into out[vtype_size(t)]. */
void vault_scalar_bytes(vtype t, const vscalar *v, unsigned char *out);
/* The struct member's bytes for a collection value (layout_collection_bytes of them), exactly as
 * the runtime's operations would leave them after adding the elements in order. */
void vault_bake_collection(const vfield *f, const vvalue *v, unsigned char *out);

bool vault_resolve(void *state, const domain_result *domains, size_t count);
void vault_emit(void *state, size_t index, out_file *o, const emit_options *opt);
/* A data file's binary image (vault.h's image format), for development builds (vault_image.c). */
void vault_emit_image(const vdata *d, out_file *o);
/* A field's value as the C initialiser the headers bake (vault_emit.c): exact, one form per value. */
void vault_put_value(buf *b, const vfield *f, const vvalue *v);
/* The vault manifest, <output>/vault-manifest.json (vault_manifest.c). */
#define VAULT_MANIFEST_NAME "vault-manifest.json"
void vault_emit_manifest(const vault_state *st, out_file *o);

#endif
