/* The vault value types: their schema names, C types, sizes and component counts, and the
 * sizes of fields built on them. Shared by the vault stage's reader (vault_load.c), baker
 * (vault_bake.c) and emitter (vault_emit.c). */
#include "vault/vault_model.h"

#include <string.h>

static const char *const vtype_names[VT_SCALAR_END] = {
    NULL,       "Integer",  "Long", "Float",     "Double",    "Boolean",      "Integer2D", "Float2D",  "Vector2D",
    "Vector3D", "Rotation", "FP",   "FPVector2", "FPVector3", "FPQuaternion", "String",    "AssetRef", "LocalizedText",
};
static const char *const vtype_cs[VT_SCALAR_END] = {
    NULL,
    "int32_t",
    "int64_t",
    "float",
    "double",
    "bool",
    "tl_vault_int2",
    "tl_vault_float2",
    "tl_vault_vector2",
    "tl_vault_vector3",
    "tl_vault_rotation",
    "tl_fp",
    "tl_fpv2",
    "tl_fpv3",
    "tl_fpquat",
    "char",
    "tl_vault_asset_ref",
    "tl_vault_localized_text",
};
static const uint8_t vtype_sizes[VT_SCALAR_END] = {0, 4, 8, 4, 8, 1, 8, 8, 8, 12, 16, 8, 16, 24, 32, 0, 4, 4};
static const uint8_t vtype_comps[VT_SCALAR_END] = {0, 1, 1, 1, 1, 1, 2, 2, 2, 3, 4, 1, 2, 3, 4, 1, 1, 1};

const char *vtype_name(vtype t) { return t > VT_NONE && t < VT_SCALAR_END ? vtype_names[t] : "?"; }
const char *vtype_c(vtype t) { return t > VT_NONE && t < VT_SCALAR_END ? vtype_cs[t] : "?"; }
uint32_t vtype_size(vtype t) { return t > VT_NONE && t < VT_SCALAR_END ? vtype_sizes[t] : 0; }
uint32_t vtype_components(vtype t) { return t > VT_NONE && t < VT_SCALAR_END ? vtype_comps[t] : 0; }

vtype vtype_from_name(const char *name)
{
    for (int t = 1; t < VT_SCALAR_END; t++)
        if (strcmp(vtype_names[t], name) == 0) return (vtype)t;
    return VT_NONE;
}

bool vtype_names_entry(vtype t) { return t == VT_ASSETREF || t == VT_LOCALIZEDTEXT; }

uint32_t vfield_tag(const vfield *f)
{
    if (f->type != VT_COLLECTION) return (uint32_t)f->type;
    return (uint32_t)(VT_COLLECTION + f->kind) | ((uint32_t)f->element << 8) |
           (f->kind == LAYOUT_DICT ? (uint32_t)f->value << 16 : 0);
}

uint64_t vfield_size(const vfield *f)
{
    if (f->type == VT_STRING) return (uint64_t)f->capacity + 1;
    if (f->type == VT_COLLECTION)
        return layout_collection_bytes(f->kind, f->capacity, vtype_size(f->element),
                                       f->kind == LAYOUT_DICT ? vtype_size(f->value) : 0);
    return vtype_size(f->type);
}
