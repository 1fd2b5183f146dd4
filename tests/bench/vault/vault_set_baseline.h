/* The baseline of the set path for bench_vault: tests/vault/project's every_vault.h as the
 * generator emitted it before per-field listener sets (one tl_vault_listener {fn, user} member
 * per vault, notified through tl_vault_notify(&v->tl_listener, ...)), renamed tlb_every_vault and
 * tlb_vault_*, so that one run measures today's setters beside the ones they replaced. Made with
 *   git show <before>:tests/vault/project/generated/vaults/every_vault.h | sed (the renames below)
 * Not used by anything else. */
#ifndef BENCH_VAULT_SET_BASELINE_H
#define BENCH_VAULT_SET_BASELINE_H
#include <threadlink/vault.h>

/* The one-listener model, as vault.h had it. */
typedef struct tlb_vault_listener {
  tl_vault_change_fn fn; /* NULL: nobody listens */
  void *user;
} tlb_vault_listener;

static inline void tlb_vault_notify(const tlb_vault_listener *listener, void *vault, uint32_t field_id) {
  if (listener->fn) listener->fn(listener->user, vault, field_id);
}

/* tl_vault_field_set as it was, with that listener. */
static inline bool tlb_vault_field_set_today(const tl_vault_field_desc *f, void *vault, tlb_vault_listener *listener,
                                             uint32_t tag, const void *value) {
  unsigned char *member = (unsigned char *)vault + f->offset;
  const unsigned char *v = (const unsigned char *)value;
  bool changed;
  if (f->tag != tag || !v) return false;
  TL__VAULT_OPAQUE(v);
  if (tag == TL_VAULT_STRING) {
    const char *s;
    memcpy(&s, v, sizeof s);
    if (!tl_vault_store_string((char *)member, f->size, s, &changed)) return false;
  } else {
    if (!tl__vault_booleans_valid(f, v)) return false;
    changed = tl__vault_store_field(member, v, f->size);
  }
  if (changed && listener) tlb_vault_notify(listener, vault, f->id);
  return true;
}


#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "tlb_every_vault.h: its inline collection values are baked for little-endian targets"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Vault Every: 23 fields. Field ids are Vault.Fields values. */
#define TLB_EVERY_VAULT_ID UINT32_C(3113764837) /* XXH32("every") */
#define TLB_EVERY_VAULT_FIELD_COUNT 23
#define TLB_EVERY_VAULT_ID_Health UINT32_C(4253544422)
#define TLB_EVERY_VAULT_ID_Big UINT32_C(2010180107)
#define TLB_EVERY_VAULT_ID_Speed UINT32_C(3855640809)
#define TLB_EVERY_VAULT_ID_Precise UINT32_C(3805361249)
#define TLB_EVERY_VAULT_ID_Alive UINT32_C(846925472)
#define TLB_EVERY_VAULT_ID_Cell UINT32_C(2801032991)
#define TLB_EVERY_VAULT_ID_Uv UINT32_C(3738143318)
#define TLB_EVERY_VAULT_ID_Dir2 UINT32_C(588172403)
#define TLB_EVERY_VAULT_ID_Pos UINT32_C(508262323)
#define TLB_EVERY_VAULT_ID_Rot UINT32_C(1575054683)
#define TLB_EVERY_VAULT_ID_Damage UINT32_C(3168811182)
#define TLB_EVERY_VAULT_ID_Velocity UINT32_C(643075736)
#define TLB_EVERY_VAULT_ID_Point UINT32_C(812382436)
#define TLB_EVERY_VAULT_ID_Orient UINT32_C(942608029)
#define TLB_EVERY_VAULT_ID_Name UINT32_C(1750779831)
#define TLB_EVERY_VAULT_ID_Icon UINT32_C(1550080380)
#define TLB_EVERY_VAULT_ID_Scratch UINT32_C(182714504)
#define TLB_EVERY_VAULT_ID_Slots UINT32_C(3018148188)
#define TLB_EVERY_VAULT_ID_Tags UINT32_C(2711790056)
#define TLB_EVERY_VAULT_ID_Queue UINT32_C(828939474)
#define TLB_EVERY_VAULT_ID_Undo UINT32_C(2933910607)
#define TLB_EVERY_VAULT_ID_Seen UINT32_C(2391968502)
#define TLB_EVERY_VAULT_ID_Loot UINT32_C(3621870995)

typedef struct tlb_every_vault {
    int32_t Health; /* Integer, serialised */
    int64_t Big; /* Long, serialised */
    float Speed; /* Float, serialised */
    double Precise; /* Double, serialised */
    bool Alive; /* Boolean, serialised */
    tl_vault_int2 Cell; /* Integer2D, serialised */
    tl_vault_float2 Uv; /* Float2D, serialised */
    tl_vault_vector2 Dir2; /* Vector2D, serialised */
    tl_vault_vector3 Pos; /* Vector3D, serialised */
    tl_vault_rotation Rot; /* Rotation, serialised */
    tl_fp Damage; /* FP, serialised */
    tl_fpv2 Velocity; /* FPVector2, serialised */
    tl_fpv3 Point; /* FPVector3, serialised */
    tl_fpquat Orient; /* FPQuaternion, serialised */
    char Name[21]; /* String of up to 20 bytes, serialised */
    tl_vault_asset_ref Icon; /* AssetRef, serialised */
    float Scratch; /* Float, transient */
    uint64_t Slots[4]; /* InlineArray of Integer, capacity 4, serialised */
    uint64_t Tags[10]; /* InlineList of FPVector3, capacity 3, serialised */
    uint64_t Queue[6]; /* InlineQueue of Boolean, capacity 5, serialised */
    uint64_t Undo[3]; /* InlineStack of Long, capacity 2, serialised */
    uint64_t Seen[11]; /* InlineHashSet of Integer, capacity 8, serialised */
    uint64_t Loot[11]; /* InlineDictionary of AssetRef -> FP, capacity 4, serialised */
    tlb_vault_listener tl_listener; /* called with the field id when a setter changes a value */
} tlb_every_vault;

/* Inline collections: exactly the runtime's layout (mem.h), and the size the generator computed. */
TL_VAULT_STATIC_ASSERT(tlb_every_vault_layout_Slots,
    TL__VAULT_MEMBER_SIZE(tlb_every_vault, Slots) == TL_LAYOUT_ARRAY_BYTES(4, sizeof(int32_t)) &&
    TL_LAYOUT_ARRAY_BYTES(4, sizeof(int32_t)) == 32);
TL_VAULT_STATIC_ASSERT(tlb_every_vault_layout_Tags,
    TL__VAULT_MEMBER_SIZE(tlb_every_vault, Tags) == TL_LAYOUT_SEQUENCE_BYTES(3, sizeof(tl_fpv3)) &&
    TL_LAYOUT_SEQUENCE_BYTES(3, sizeof(tl_fpv3)) == 80);
TL_VAULT_STATIC_ASSERT(tlb_every_vault_layout_Queue,
    TL__VAULT_MEMBER_SIZE(tlb_every_vault, Queue) == TL_LAYOUT_SEQUENCE_BYTES(5, sizeof(bool)) &&
    TL_LAYOUT_SEQUENCE_BYTES(5, sizeof(bool)) == 48);
TL_VAULT_STATIC_ASSERT(tlb_every_vault_layout_Undo,
    TL__VAULT_MEMBER_SIZE(tlb_every_vault, Undo) == TL_LAYOUT_SEQUENCE_BYTES(2, sizeof(int64_t)) &&
    TL_LAYOUT_SEQUENCE_BYTES(2, sizeof(int64_t)) == 24);
TL_VAULT_STATIC_ASSERT(tlb_every_vault_layout_Seen,
    TL__VAULT_MEMBER_SIZE(tlb_every_vault, Seen) == TL_LAYOUT_SET_BYTES(8, sizeof(int32_t)) &&
    TL_LAYOUT_SET_BYTES(8, sizeof(int32_t)) == 88);
TL_VAULT_STATIC_ASSERT(tlb_every_vault_layout_Loot,
    TL__VAULT_MEMBER_SIZE(tlb_every_vault, Loot) == TL_LAYOUT_DICT_BYTES(4, sizeof(tl_vault_asset_ref), sizeof(tl_fp)) &&
    TL_LAYOUT_DICT_BYTES(4, sizeof(tl_vault_asset_ref), sizeof(tl_fp)) == 88);
TL_INLINE_ARRAY_TYPE(tlb_every_vault_Slots_array, int32_t)
TL_INLINE_LIST_TYPE(tlb_every_vault_Tags_list, tl_fpv3)
TL_INLINE_QUEUE_TYPE(tlb_every_vault_Queue_queue, bool)
TL_INLINE_STACK_TYPE(tlb_every_vault_Undo_stack, int64_t)
TL_INLINE_HASHSET_TYPE(tlb_every_vault_Seen_set, int32_t)
TL_INLINE_DICT_TYPE(tlb_every_vault_Loot_dict, tl_vault_asset_ref, tl_fp)

/* Every field's default. */
static const tlb_every_vault tlb_every_vault_defaults = {
    (-2147483647 - 1), /* Health */
    INT64_C(9007199254740993), /* Big */
    1.5f, /* Speed */
    0.10000000000000001, /* Precise */
    true, /* Alive */
    { 3, -4 }, /* Cell */
    { 0.25f, 1.0f }, /* Uv */
    { 0.0f, 0.0f }, /* Dir2 */
    { 1.0f, 2.0f, 3.0f }, /* Pos */
    { 0.0f, 0.0f, 0.0f, 1.0f }, /* Rot */
    { INT64_C(54760833024) }, /* Damage */
    { { INT64_C(429496730) }, { INT64_C(-429496730) } }, /* Velocity */
    { { INT64_C(4294967296) }, { INT64_C(8589934592) }, { (-INT64_C(9223372036854775807) - 1) } }, /* Point */
    { { INT64_C(0) }, { INT64_C(0) }, { INT64_C(0) }, { INT64_C(4294967296) } }, /* Orient */
    "Nobody \"quoted\"\077", /* Name */
    { 1129147579u }, /* Icon */
    7.0f, /* Scratch */
    { UINT64_C(0x0000000000000001), UINT64_C(0x0000000000000002) }, /* Slots */
    { UINT64_C(0x0000000000000001), UINT64_C(0x0000000100000000), UINT64_C(0x0000000200000000), UINT64_C(0x0000000300000000) }, /* Tags */
    { UINT64_C(0x0000000000000003), UINT64_C(0x0000000000000001), 0, UINT64_C(0x0000000000000001) }, /* Queue */
    { 0 }, /* Undo */
    { UINT64_C(0x0000000000000006), UINT64_C(0x0102020100010100), UINT64_C(0xf8a0c43500330600), 0,
      UINT64_C(0x0000000000000009), UINT64_C(0x000000000000000a), 0, UINT64_C(0x0000000000000005),
      UINT64_C(0x0000000000000008), UINT64_C(0x0000000000000006), UINT64_C(0x0000000000000007) }, /* Seen */
    { UINT64_C(0x0000000000000002), UINT64_C(0x0000000001000100), UINT64_C(0x00000000bd001300), 0,
      0, UINT64_C(0x0000000040867c13), UINT64_C(0x0000000200000000), 0,
      0, UINT64_C(0x00000000434d6cbb), UINT64_C(0x0000000080000000) }, /* Loot */
    { TL__NULL, TL__NULL }
};

/* For generic tools and vault.h's serialisation: id, tag, offset, size, capacity, backing, name. */
static const tl_vault_field_desc tlb_every_vault_fields[23] = {
    { TLB_EVERY_VAULT_ID_Health, 1u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Health)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Health)), 0u, TL_VAULT_SERIALISED, "Health" },
    { TLB_EVERY_VAULT_ID_Big, 2u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Big)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Big)), 0u, TL_VAULT_SERIALISED, "Big" },
    { TLB_EVERY_VAULT_ID_Speed, 3u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Speed)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Speed)), 0u, TL_VAULT_SERIALISED, "Speed" },
    { TLB_EVERY_VAULT_ID_Precise, 4u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Precise)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Precise)), 0u, TL_VAULT_SERIALISED, "Precise" },
    { TLB_EVERY_VAULT_ID_Alive, 5u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Alive)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Alive)), 0u, TL_VAULT_SERIALISED, "Alive" },
    { TLB_EVERY_VAULT_ID_Cell, 6u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Cell)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Cell)), 0u, TL_VAULT_SERIALISED, "Cell" },
    { TLB_EVERY_VAULT_ID_Uv, 7u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Uv)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Uv)), 0u, TL_VAULT_SERIALISED, "Uv" },
    { TLB_EVERY_VAULT_ID_Dir2, 8u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Dir2)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Dir2)), 0u, TL_VAULT_SERIALISED, "Dir2" },
    { TLB_EVERY_VAULT_ID_Pos, 9u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Pos)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Pos)), 0u, TL_VAULT_SERIALISED, "Pos" },
    { TLB_EVERY_VAULT_ID_Rot, 10u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Rot)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Rot)), 0u, TL_VAULT_SERIALISED, "Rot" },
    { TLB_EVERY_VAULT_ID_Damage, 11u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Damage)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Damage)), 0u, TL_VAULT_SERIALISED, "Damage" },
    { TLB_EVERY_VAULT_ID_Velocity, 12u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Velocity)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Velocity)), 0u, TL_VAULT_SERIALISED, "Velocity" },
    { TLB_EVERY_VAULT_ID_Point, 13u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Point)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Point)), 0u, TL_VAULT_SERIALISED, "Point" },
    { TLB_EVERY_VAULT_ID_Orient, 14u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Orient)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Orient)), 0u, TL_VAULT_SERIALISED, "Orient" },
    { TLB_EVERY_VAULT_ID_Name, 15u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Name)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Name)), 20u, TL_VAULT_SERIALISED, "Name" },
    { TLB_EVERY_VAULT_ID_Icon, 16u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Icon)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Icon)), 0u, TL_VAULT_SERIALISED, "Icon" },
    { TLB_EVERY_VAULT_ID_Scratch, 3u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Scratch)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Scratch)), 0u, TL_VAULT_TRANSIENT, "Scratch" },
    { TLB_EVERY_VAULT_ID_Slots, 288u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Slots)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Slots)), 4u, TL_VAULT_SERIALISED, "Slots" },
    { TLB_EVERY_VAULT_ID_Tags, 3361u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Tags)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Tags)), 3u, TL_VAULT_SERIALISED, "Tags" },
    { TLB_EVERY_VAULT_ID_Queue, 1314u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Queue)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Queue)), 5u, TL_VAULT_SERIALISED, "Queue" },
    { TLB_EVERY_VAULT_ID_Undo, 547u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Undo)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Undo)), 2u, TL_VAULT_SERIALISED, "Undo" },
    { TLB_EVERY_VAULT_ID_Seen, 292u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Seen)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Seen)), 8u, TL_VAULT_SERIALISED, "Seen" },
    { TLB_EVERY_VAULT_ID_Loot, 725029u, TL__CAST(uint32_t, offsetof(tlb_every_vault, Loot)), TL__CAST(uint32_t, TL__VAULT_MEMBER_SIZE(tlb_every_vault, Loot)), 4u, TL_VAULT_SERIALISED, "Loot" },
};
static const uint16_t tlb_every_vault_order[23] = { 16, 8, 7, 11, 12, 19, 4, 13, 15, 9, 14, 1, 21, 18, 5, 20, 17, 10, 22, 6, 3, 2, 0 };
static const tl_vault_desc tlb_every_vault_desc = {
    "Every", TLB_EVERY_VAULT_ID, TL__CAST(uint32_t, sizeof(tlb_every_vault)), TLB_EVERY_VAULT_FIELD_COUNT, tlb_every_vault_fields, tlb_every_vault_order,
    TL__CAST(uint32_t, offsetof(tlb_every_vault, tl_listener)), &tlb_every_vault_defaults };

/* A fresh vault: every field at its default, nobody listening. */
static inline void tlb_every_vault_init(tlb_every_vault *v) { *v = tlb_every_vault_defaults; }
/* Transient fields back to their defaults (no notification). */
static inline void tlb_every_vault_reset_transient(tlb_every_vault *v) {
    memcpy(&v->Scratch, &tlb_every_vault_defaults.Scratch, sizeof v->Scratch);
}
static inline void tlb_every_vault_listen(tlb_every_vault *v, tl_vault_change_fn fn, void *user) {
    v->tl_listener.fn = fn;
    v->tl_listener.user = user;
}
/* Tells the listener that a field changed in place (an inline collection edited through its view). */
static inline void tlb_every_vault_notify(tlb_every_vault *v, uint32_t field_id) { tlb_vault_notify(&v->tl_listener, v, field_id); }

/* Typed accessors. A setter that changes the value's bytes notifies the listener. */
static inline int32_t tlb_every_vault_get_Health(const tlb_every_vault *v) { return v->Health; }
static inline void tlb_every_vault_set_Health(tlb_every_vault *v, int32_t value) {
    if (memcmp(&v->Health, &value, sizeof value) != 0) {
        v->Health = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Health);
    }
}
static inline int64_t tlb_every_vault_get_Big(const tlb_every_vault *v) { return v->Big; }
static inline void tlb_every_vault_set_Big(tlb_every_vault *v, int64_t value) {
    if (memcmp(&v->Big, &value, sizeof value) != 0) {
        v->Big = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Big);
    }
}
static inline float tlb_every_vault_get_Speed(const tlb_every_vault *v) { return v->Speed; }
static inline void tlb_every_vault_set_Speed(tlb_every_vault *v, float value) {
    if (memcmp(&v->Speed, &value, sizeof value) != 0) {
        v->Speed = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Speed);
    }
}
static inline double tlb_every_vault_get_Precise(const tlb_every_vault *v) { return v->Precise; }
static inline void tlb_every_vault_set_Precise(tlb_every_vault *v, double value) {
    if (memcmp(&v->Precise, &value, sizeof value) != 0) {
        v->Precise = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Precise);
    }
}
static inline bool tlb_every_vault_get_Alive(const tlb_every_vault *v) { return v->Alive; }
static inline void tlb_every_vault_set_Alive(tlb_every_vault *v, bool value) {
    if (memcmp(&v->Alive, &value, sizeof value) != 0) {
        v->Alive = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Alive);
    }
}
static inline tl_vault_int2 tlb_every_vault_get_Cell(const tlb_every_vault *v) { return v->Cell; }
static inline void tlb_every_vault_set_Cell(tlb_every_vault *v, tl_vault_int2 value) {
    if (memcmp(&v->Cell, &value, sizeof value) != 0) {
        v->Cell = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Cell);
    }
}
static inline tl_vault_float2 tlb_every_vault_get_Uv(const tlb_every_vault *v) { return v->Uv; }
static inline void tlb_every_vault_set_Uv(tlb_every_vault *v, tl_vault_float2 value) {
    if (memcmp(&v->Uv, &value, sizeof value) != 0) {
        v->Uv = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Uv);
    }
}
static inline tl_vault_vector2 tlb_every_vault_get_Dir2(const tlb_every_vault *v) { return v->Dir2; }
static inline void tlb_every_vault_set_Dir2(tlb_every_vault *v, tl_vault_vector2 value) {
    if (memcmp(&v->Dir2, &value, sizeof value) != 0) {
        v->Dir2 = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Dir2);
    }
}
static inline tl_vault_vector3 tlb_every_vault_get_Pos(const tlb_every_vault *v) { return v->Pos; }
static inline void tlb_every_vault_set_Pos(tlb_every_vault *v, tl_vault_vector3 value) {
    if (memcmp(&v->Pos, &value, sizeof value) != 0) {
        v->Pos = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Pos);
    }
}
static inline tl_vault_rotation tlb_every_vault_get_Rot(const tlb_every_vault *v) { return v->Rot; }
static inline void tlb_every_vault_set_Rot(tlb_every_vault *v, tl_vault_rotation value) {
    if (memcmp(&v->Rot, &value, sizeof value) != 0) {
        v->Rot = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Rot);
    }
}
static inline tl_fp tlb_every_vault_get_Damage(const tlb_every_vault *v) { return v->Damage; }
static inline void tlb_every_vault_set_Damage(tlb_every_vault *v, tl_fp value) {
    if (memcmp(&v->Damage, &value, sizeof value) != 0) {
        v->Damage = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Damage);
    }
}
static inline tl_fpv2 tlb_every_vault_get_Velocity(const tlb_every_vault *v) { return v->Velocity; }
static inline void tlb_every_vault_set_Velocity(tlb_every_vault *v, tl_fpv2 value) {
    if (memcmp(&v->Velocity, &value, sizeof value) != 0) {
        v->Velocity = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Velocity);
    }
}
static inline tl_fpv3 tlb_every_vault_get_Point(const tlb_every_vault *v) { return v->Point; }
static inline void tlb_every_vault_set_Point(tlb_every_vault *v, tl_fpv3 value) {
    if (memcmp(&v->Point, &value, sizeof value) != 0) {
        v->Point = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Point);
    }
}
static inline tl_fpquat tlb_every_vault_get_Orient(const tlb_every_vault *v) { return v->Orient; }
static inline void tlb_every_vault_set_Orient(tlb_every_vault *v, tl_fpquat value) {
    if (memcmp(&v->Orient, &value, sizeof value) != 0) {
        v->Orient = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Orient);
    }
}
static inline const char *tlb_every_vault_get_Name(const tlb_every_vault *v) { return v->Name; }
/* false (nothing changed) when value is longer than 20 bytes. */
static inline bool tlb_every_vault_set_Name(tlb_every_vault *v, const char *value) {
    bool changed;
    if (!tl_vault_store_string(v->Name, TL__CAST(uint32_t, sizeof v->Name), value, &changed)) return false;
    if (changed) tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Name);
    return true;
}
static inline tl_vault_asset_ref tlb_every_vault_get_Icon(const tlb_every_vault *v) { return v->Icon; }
static inline void tlb_every_vault_set_Icon(tlb_every_vault *v, tl_vault_asset_ref value) {
    if (memcmp(&v->Icon, &value, sizeof value) != 0) {
        v->Icon = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Icon);
    }
}
static inline float tlb_every_vault_get_Scratch(const tlb_every_vault *v) { return v->Scratch; }
static inline void tlb_every_vault_set_Scratch(tlb_every_vault *v, float value) {
    if (memcmp(&v->Scratch, &value, sizeof value) != 0) {
        v->Scratch = value;
        tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Scratch);
    }
}
/* A read-only view over the collection. */
static inline tlb_every_vault_Slots_array_const tlb_every_vault_get_Slots(const tlb_every_vault *v) {
    return tlb_every_vault_Slots_array_const_view(v->Slots, 4u);
}
/* A view to change the collection through; call tlb_every_vault_notify(v, TLB_EVERY_VAULT_ID_Slots) after edits. */
static inline tlb_every_vault_Slots_array tlb_every_vault_edit_Slots(tlb_every_vault *v) {
    return tlb_every_vault_Slots_array_view(v->Slots, 4u);
}
/* A read-only view over the collection. */
static inline tlb_every_vault_Tags_list_const tlb_every_vault_get_Tags(const tlb_every_vault *v) {
    return tlb_every_vault_Tags_list_const_view(v->Tags, 3u);
}
/* A view to change the collection through; call tlb_every_vault_notify(v, TLB_EVERY_VAULT_ID_Tags) after edits. */
static inline tlb_every_vault_Tags_list tlb_every_vault_edit_Tags(tlb_every_vault *v) {
    return tlb_every_vault_Tags_list_view(v->Tags, 3u);
}
/* A read-only view over the collection. */
static inline tlb_every_vault_Queue_queue_const tlb_every_vault_get_Queue(const tlb_every_vault *v) {
    return tlb_every_vault_Queue_queue_const_view(v->Queue, 5u);
}
/* A view to change the collection through; call tlb_every_vault_notify(v, TLB_EVERY_VAULT_ID_Queue) after edits. */
static inline tlb_every_vault_Queue_queue tlb_every_vault_edit_Queue(tlb_every_vault *v) {
    return tlb_every_vault_Queue_queue_view(v->Queue, 5u);
}
/* A read-only view over the collection. */
static inline tlb_every_vault_Undo_stack_const tlb_every_vault_get_Undo(const tlb_every_vault *v) {
    return tlb_every_vault_Undo_stack_const_view(v->Undo, 2u);
}
/* A view to change the collection through; call tlb_every_vault_notify(v, TLB_EVERY_VAULT_ID_Undo) after edits. */
static inline tlb_every_vault_Undo_stack tlb_every_vault_edit_Undo(tlb_every_vault *v) {
    return tlb_every_vault_Undo_stack_view(v->Undo, 2u);
}
/* A read-only view over the collection. */
static inline tlb_every_vault_Seen_set_const tlb_every_vault_get_Seen(const tlb_every_vault *v) {
    return tlb_every_vault_Seen_set_const_view(v->Seen, 8u);
}
/* A view to change the collection through; call tlb_every_vault_notify(v, TLB_EVERY_VAULT_ID_Seen) after edits. */
static inline tlb_every_vault_Seen_set tlb_every_vault_edit_Seen(tlb_every_vault *v) {
    return tlb_every_vault_Seen_set_view(v->Seen, 8u);
}
/* A read-only view over the collection. */
static inline tlb_every_vault_Loot_dict_const tlb_every_vault_get_Loot(const tlb_every_vault *v) {
    return tlb_every_vault_Loot_dict_const_view(v->Loot, 4u);
}
/* A view to change the collection through; call tlb_every_vault_notify(v, TLB_EVERY_VAULT_ID_Loot) after edits. */
static inline tlb_every_vault_Loot_dict tlb_every_vault_edit_Loot(tlb_every_vault *v) {
    return tlb_every_vault_Loot_dict_view(v->Loot, 4u);
}

/* Generic access by field id: false for a field this vault does not have or a type tag that differs
 * (tags: tl_vault_type, TL_VAULT_TAG for collections; strings as in vault.h). */
static inline int tlb_every_vault_field_index(uint32_t field_id) {
    switch (field_id) {
    case TLB_EVERY_VAULT_ID_Health: return 0;
    case TLB_EVERY_VAULT_ID_Big: return 1;
    case TLB_EVERY_VAULT_ID_Speed: return 2;
    case TLB_EVERY_VAULT_ID_Precise: return 3;
    case TLB_EVERY_VAULT_ID_Alive: return 4;
    case TLB_EVERY_VAULT_ID_Cell: return 5;
    case TLB_EVERY_VAULT_ID_Uv: return 6;
    case TLB_EVERY_VAULT_ID_Dir2: return 7;
    case TLB_EVERY_VAULT_ID_Pos: return 8;
    case TLB_EVERY_VAULT_ID_Rot: return 9;
    case TLB_EVERY_VAULT_ID_Damage: return 10;
    case TLB_EVERY_VAULT_ID_Velocity: return 11;
    case TLB_EVERY_VAULT_ID_Point: return 12;
    case TLB_EVERY_VAULT_ID_Orient: return 13;
    case TLB_EVERY_VAULT_ID_Name: return 14;
    case TLB_EVERY_VAULT_ID_Icon: return 15;
    case TLB_EVERY_VAULT_ID_Scratch: return 16;
    case TLB_EVERY_VAULT_ID_Slots: return 17;
    case TLB_EVERY_VAULT_ID_Tags: return 18;
    case TLB_EVERY_VAULT_ID_Queue: return 19;
    case TLB_EVERY_VAULT_ID_Undo: return 20;
    case TLB_EVERY_VAULT_ID_Seen: return 21;
    case TLB_EVERY_VAULT_ID_Loot: return 22;
    default: return -1;
    }
}
static inline bool tlb_every_vault_has(uint32_t field_id) { return tlb_every_vault_field_index(field_id) >= 0; }
static inline bool tlb_every_vault_try_get(const tlb_every_vault *v, uint32_t field_id, uint32_t tag, void *out) {
    switch (field_id) {
    case TLB_EVERY_VAULT_ID_Health:
        if (tag != 1u || !out) return false;
        memcpy(out, &v->Health, sizeof v->Health);
        return true;
    case TLB_EVERY_VAULT_ID_Big:
        if (tag != 2u || !out) return false;
        memcpy(out, &v->Big, sizeof v->Big);
        return true;
    case TLB_EVERY_VAULT_ID_Speed:
        if (tag != 3u || !out) return false;
        memcpy(out, &v->Speed, sizeof v->Speed);
        return true;
    case TLB_EVERY_VAULT_ID_Precise:
        if (tag != 4u || !out) return false;
        memcpy(out, &v->Precise, sizeof v->Precise);
        return true;
    case TLB_EVERY_VAULT_ID_Alive:
        if (tag != 5u || !out) return false;
        memcpy(out, &v->Alive, sizeof v->Alive);
        return true;
    case TLB_EVERY_VAULT_ID_Cell:
        if (tag != 6u || !out) return false;
        memcpy(out, &v->Cell, sizeof v->Cell);
        return true;
    case TLB_EVERY_VAULT_ID_Uv:
        if (tag != 7u || !out) return false;
        memcpy(out, &v->Uv, sizeof v->Uv);
        return true;
    case TLB_EVERY_VAULT_ID_Dir2:
        if (tag != 8u || !out) return false;
        memcpy(out, &v->Dir2, sizeof v->Dir2);
        return true;
    case TLB_EVERY_VAULT_ID_Pos:
        if (tag != 9u || !out) return false;
        memcpy(out, &v->Pos, sizeof v->Pos);
        return true;
    case TLB_EVERY_VAULT_ID_Rot:
        if (tag != 10u || !out) return false;
        memcpy(out, &v->Rot, sizeof v->Rot);
        return true;
    case TLB_EVERY_VAULT_ID_Damage:
        if (tag != 11u || !out) return false;
        memcpy(out, &v->Damage, sizeof v->Damage);
        return true;
    case TLB_EVERY_VAULT_ID_Velocity:
        if (tag != 12u || !out) return false;
        memcpy(out, &v->Velocity, sizeof v->Velocity);
        return true;
    case TLB_EVERY_VAULT_ID_Point:
        if (tag != 13u || !out) return false;
        memcpy(out, &v->Point, sizeof v->Point);
        return true;
    case TLB_EVERY_VAULT_ID_Orient:
        if (tag != 14u || !out) return false;
        memcpy(out, &v->Orient, sizeof v->Orient);
        return true;
    case TLB_EVERY_VAULT_ID_Name: return tl_vault_field_get(&tlb_every_vault_fields[14], v, tag, out);
    case TLB_EVERY_VAULT_ID_Icon:
        if (tag != 16u || !out) return false;
        memcpy(out, &v->Icon, sizeof v->Icon);
        return true;
    case TLB_EVERY_VAULT_ID_Scratch:
        if (tag != 3u || !out) return false;
        memcpy(out, &v->Scratch, sizeof v->Scratch);
        return true;
    case TLB_EVERY_VAULT_ID_Slots:
        if (tag != 288u || !out) return false;
        memcpy(out, &v->Slots, sizeof v->Slots);
        return true;
    case TLB_EVERY_VAULT_ID_Tags:
        if (tag != 3361u || !out) return false;
        memcpy(out, &v->Tags, sizeof v->Tags);
        return true;
    case TLB_EVERY_VAULT_ID_Queue:
        if (tag != 1314u || !out) return false;
        memcpy(out, &v->Queue, sizeof v->Queue);
        return true;
    case TLB_EVERY_VAULT_ID_Undo:
        if (tag != 547u || !out) return false;
        memcpy(out, &v->Undo, sizeof v->Undo);
        return true;
    case TLB_EVERY_VAULT_ID_Seen:
        if (tag != 292u || !out) return false;
        memcpy(out, &v->Seen, sizeof v->Seen);
        return true;
    case TLB_EVERY_VAULT_ID_Loot:
        if (tag != 725029u || !out) return false;
        memcpy(out, &v->Loot, sizeof v->Loot);
        return true;
    default: return false;
    }
}
static inline bool tlb_every_vault_try_set(tlb_every_vault *v, uint32_t field_id, uint32_t tag, const void *value) {
    switch (field_id) {
    case TLB_EVERY_VAULT_ID_Health:
        if (tag != 1u || !value) return false;
        if (memcmp(&v->Health, value, sizeof v->Health) != 0) {
            memcpy(&v->Health, value, sizeof v->Health);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Health);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Big:
        if (tag != 2u || !value) return false;
        if (memcmp(&v->Big, value, sizeof v->Big) != 0) {
            memcpy(&v->Big, value, sizeof v->Big);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Big);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Speed:
        if (tag != 3u || !value) return false;
        if (memcmp(&v->Speed, value, sizeof v->Speed) != 0) {
            memcpy(&v->Speed, value, sizeof v->Speed);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Speed);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Precise:
        if (tag != 4u || !value) return false;
        if (memcmp(&v->Precise, value, sizeof v->Precise) != 0) {
            memcpy(&v->Precise, value, sizeof v->Precise);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Precise);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Alive: return tlb_vault_field_set_today(&tlb_every_vault_fields[4], v, &v->tl_listener, tag, value);
    case TLB_EVERY_VAULT_ID_Cell:
        if (tag != 6u || !value) return false;
        if (memcmp(&v->Cell, value, sizeof v->Cell) != 0) {
            memcpy(&v->Cell, value, sizeof v->Cell);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Cell);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Uv:
        if (tag != 7u || !value) return false;
        if (memcmp(&v->Uv, value, sizeof v->Uv) != 0) {
            memcpy(&v->Uv, value, sizeof v->Uv);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Uv);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Dir2:
        if (tag != 8u || !value) return false;
        if (memcmp(&v->Dir2, value, sizeof v->Dir2) != 0) {
            memcpy(&v->Dir2, value, sizeof v->Dir2);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Dir2);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Pos:
        if (tag != 9u || !value) return false;
        if (memcmp(&v->Pos, value, sizeof v->Pos) != 0) {
            memcpy(&v->Pos, value, sizeof v->Pos);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Pos);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Rot:
        if (tag != 10u || !value) return false;
        if (memcmp(&v->Rot, value, sizeof v->Rot) != 0) {
            memcpy(&v->Rot, value, sizeof v->Rot);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Rot);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Damage:
        if (tag != 11u || !value) return false;
        if (memcmp(&v->Damage, value, sizeof v->Damage) != 0) {
            memcpy(&v->Damage, value, sizeof v->Damage);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Damage);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Velocity:
        if (tag != 12u || !value) return false;
        if (memcmp(&v->Velocity, value, sizeof v->Velocity) != 0) {
            memcpy(&v->Velocity, value, sizeof v->Velocity);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Velocity);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Point:
        if (tag != 13u || !value) return false;
        if (memcmp(&v->Point, value, sizeof v->Point) != 0) {
            memcpy(&v->Point, value, sizeof v->Point);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Point);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Orient:
        if (tag != 14u || !value) return false;
        if (memcmp(&v->Orient, value, sizeof v->Orient) != 0) {
            memcpy(&v->Orient, value, sizeof v->Orient);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Orient);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Name: return tlb_vault_field_set_today(&tlb_every_vault_fields[14], v, &v->tl_listener, tag, value);
    case TLB_EVERY_VAULT_ID_Icon:
        if (tag != 16u || !value) return false;
        if (memcmp(&v->Icon, value, sizeof v->Icon) != 0) {
            memcpy(&v->Icon, value, sizeof v->Icon);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Icon);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Scratch:
        if (tag != 3u || !value) return false;
        if (memcmp(&v->Scratch, value, sizeof v->Scratch) != 0) {
            memcpy(&v->Scratch, value, sizeof v->Scratch);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Scratch);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Slots:
        if (tag != 288u || !value) return false;
        if (memcmp(&v->Slots, value, sizeof v->Slots) != 0) {
            memcpy(&v->Slots, value, sizeof v->Slots);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Slots);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Tags:
        if (tag != 3361u || !value) return false;
        if (memcmp(&v->Tags, value, sizeof v->Tags) != 0) {
            memcpy(&v->Tags, value, sizeof v->Tags);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Tags);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Queue: return tlb_vault_field_set_today(&tlb_every_vault_fields[19], v, &v->tl_listener, tag, value);
    case TLB_EVERY_VAULT_ID_Undo:
        if (tag != 547u || !value) return false;
        if (memcmp(&v->Undo, value, sizeof v->Undo) != 0) {
            memcpy(&v->Undo, value, sizeof v->Undo);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Undo);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Seen:
        if (tag != 292u || !value) return false;
        if (memcmp(&v->Seen, value, sizeof v->Seen) != 0) {
            memcpy(&v->Seen, value, sizeof v->Seen);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Seen);
        }
        return true;
    case TLB_EVERY_VAULT_ID_Loot:
        if (tag != 725029u || !value) return false;
        if (memcmp(&v->Loot, value, sizeof v->Loot) != 0) {
            memcpy(&v->Loot, value, sizeof v->Loot);
            tlb_vault_notify(&v->tl_listener, v, TLB_EVERY_VAULT_ID_Loot);
        }
        return true;
    default: return false;
    }
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
