/* The baseline for bench_vault: runtime/threadlink/vault.h's generic access and serialisation as
 * they were before the performance work of issue 7 (commit 4c67bc8), renamed tlb_*, so that one
 * run of the benchmark measures both on the same machine state. Its try_set notifies today's
 * listener set (issue 30), as the code it is compared with does. Not used by anything else. */
#ifndef BENCH_VAULT_BASELINE_H
#define BENCH_VAULT_BASELINE_H
#include <threadlink/vault.h>

/* Index of field `id` in d->fields, or -1. Binary search over d->order. */
static inline int32_t tlb_vault_find(const tl_vault_desc *d, uint32_t id) {
  uint32_t lo = 0, hi = d->field_count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    uint32_t at = d->fields[d->order[mid]].id;
    if (at == id) return (int32_t)d->order[mid];
    if (at < id) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* One field, its descriptor known. See "Generic access" above for strings. */
static inline bool tlb_vault_field_get(const tl_vault_field_desc *f, const void *vault, uint32_t tag, void *out) {
  const unsigned char *member = (const unsigned char *)vault + f->offset;
  if (f->tag != tag || !out) return false;
  if (tag == TL_VAULT_STRING) {
    const char *s = (const char *)member;
    memcpy(out, &s, sizeof s);
  } else {
    memcpy(out, member, f->size);
  }
  return true;
}

static inline bool tlb_vault_try_get(const tl_vault_desc *d, const void *vault, uint32_t id, uint32_t tag, void *out) {
  int32_t i = tlb_vault_find(d, id);
  return i >= 0 && tlb_vault_field_get(&d->fields[i], vault, tag, out);
}

static inline bool tlb_vault_field_set(const tl_vault_field_desc *f, void *vault, tl_vault_listeners *listener,
                                       uint32_t tag, const void *value) {
  unsigned char *member = (unsigned char *)vault + f->offset;
  bool changed;
  if (f->tag != tag || !value) return false;
  if (tag == TL_VAULT_STRING) {
    const char *s;
    memcpy(&s, value, sizeof s);
    if (!tl_vault_store_string((char *)member, f->size, s, &changed)) return false;
  } else {
    changed = memcmp(member, value, f->size) != 0;
    if (changed) memcpy(member, value, f->size);
  }
  if (changed && listener) tl_vault_notify(listener, vault, f->id);
  return true;
}

static inline bool tlb_vault_try_set(const tl_vault_desc *d, void *vault, uint32_t id, uint32_t tag, const void *value) {
  int32_t i = tlb_vault_find(d, id);
  return i >= 0 && tlb_vault_field_set(&d->fields[i], vault, tl__vault_listener(d, vault), tag, value);
}

static uint32_t tlb__vault_le32(const unsigned char *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static void tlb__vault_put32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)v;
  p[1] = (unsigned char)(v >> 8);
  p[2] = (unsigned char)(v >> 16);
  p[3] = (unsigned char)(v >> 24);
}

/* Wire shape of a scalar tag: component size (1, 4 or 8) and count; 0 for anything else. */
static uint32_t tlb__vault_component(uint32_t tag, uint32_t *count) {
  switch (tag) {
  case TL_VAULT_INTEGER: case TL_VAULT_FLOAT: case TL_VAULT_ASSETREF: *count = 1; return 4;
  case TL_VAULT_LONG: case TL_VAULT_DOUBLE: case TL_VAULT_FP: *count = 1; return 8;
  case TL_VAULT_BOOLEAN: *count = 1; return 1;
  case TL_VAULT_INTEGER2D: case TL_VAULT_FLOAT2D: case TL_VAULT_VECTOR2D: *count = 2; return 4;
  case TL_VAULT_VECTOR3D: *count = 3; return 4;
  case TL_VAULT_ROTATION: *count = 4; return 4;
  case TL_VAULT_FPVECTOR2: *count = 2; return 8;
  case TL_VAULT_FPVECTOR3: *count = 3; return 8;
  case TL_VAULT_FPQUATERNION: *count = 4; return 8;
  default: *count = 0; return 0;
  }
}

/* Bytes of one scalar (in memory and on the wire: components are packed either way). */
static uint32_t tlb__vault_scalar_size(uint32_t tag) {
  uint32_t count, size = tlb__vault_component(tag, &count);
  return size * count;
}

/* Native scalar -> little-endian wire bytes, and back. */
static void tlb__vault_to_wire(uint32_t tag, const unsigned char *native, unsigned char *wire) {
  uint32_t count, size = tlb__vault_component(tag, &count), i;
  for (i = 0; i < count; i++) {
    if (size == 4) {
      uint32_t v;
      memcpy(&v, native + i * 4, 4);
      tlb__vault_put32(wire + i * 4, v);
    } else if (size == 8) {
      uint64_t v;
      memcpy(&v, native + i * 8, 8);
      tlb__vault_put32(wire + i * 8, (uint32_t)v);
      tlb__vault_put32(wire + i * 8 + 4, (uint32_t)(v >> 32));
    } else {
      wire[i] = native[i];
    }
  }
}

static void tlb__vault_from_wire(uint32_t tag, const unsigned char *wire, unsigned char *native) {
  uint32_t count, size = tlb__vault_component(tag, &count), i;
  for (i = 0; i < count; i++) {
    if (size == 4) {
      uint32_t v = tlb__vault_le32(wire + i * 4);
      memcpy(native + i * 4, &v, 4);
    } else if (size == 8) {
      uint64_t v = (uint64_t)tlb__vault_le32(wire + i * 8) | ((uint64_t)tlb__vault_le32(wire + i * 8 + 4) << 32);
      memcpy(native + i * 8, &v, 8);
    } else {
      native[i] = wire[i];
    }
  }
}

static bool tlb__vault_is_collection(uint32_t tag) {
  uint32_t kind = tag & 0xFFu;
  return kind >= TL_VAULT_INLINE_ARRAY && kind <= TL_VAULT_INLINE_DICT;
}

/* The live elements of a collection member, in wire order: calls visit(ctx, key, value). */
typedef void (*tlb__vault_visit_fn)(void *ctx, const unsigned char *key, const unsigned char *value);

static uint32_t tlb__vault_walk(const tl_vault_field_desc *f, const unsigned char *member, tlb__vault_visit_fn visit,
                               void *ctx) {
  uint32_t kind = f->tag & 0xFFu, etag = (f->tag >> 8) & 0xFFu, vtag = (f->tag >> 16) & 0xFFu;
  uint32_t esize = tlb__vault_scalar_size(etag), vsize = tlb__vault_scalar_size(vtag), i, n = 0;
  unsigned char *mem = (unsigned char *)(uintptr_t)member; /* views are read here, never written */
  switch (kind) {
  case TL_VAULT_INLINE_ARRAY: {
    tl_inline_array a = tl_inline_array_view(mem, f->capacity, esize);
    n = tl_inline_array_length(a);
    if (visit) for (i = 0; i < n; i++) visit(ctx, (const unsigned char *)tl_inline_array_at(a, i), NULL);
    break;
  }
  case TL_VAULT_INLINE_LIST: {
    tl_inline_list l = tl_inline_list_view(mem, f->capacity, esize);
    n = tl_inline_list_count(l);
    if (visit) for (i = 0; i < n; i++) visit(ctx, (const unsigned char *)tl_inline_list_at(l, i), NULL);
    break;
  }
  case TL_VAULT_INLINE_QUEUE: {
    tl_inline_queue q = tl_inline_queue_view(mem, f->capacity, esize);
    n = tl_inline_queue_count(q);
    if (visit) for (i = 0; i < n; i++) visit(ctx, (const unsigned char *)tl_inline_queue_at(q, i), NULL);
    break;
  }
  case TL_VAULT_INLINE_STACK: {
    tl_inline_stack s = tl_inline_stack_view(mem, f->capacity, esize);
    n = tl_inline_stack_count(s);
    if (visit) for (i = 0; i < n; i++) visit(ctx, (const unsigned char *)tl_inline_stack_at(s, i), NULL);
    break;
  }
  case TL_VAULT_INLINE_HASHSET: {
    tl_inline_hashset s = tl_inline_hashset_view(mem, f->capacity, esize);
    tl_inline_iter it = tl_inline_hashset_iter(s);
    const void *k;
    while (tl_inline_hashset_next(s, &it, &k)) {
      if (visit) visit(ctx, (const unsigned char *)k, NULL);
      n++;
    }
    break;
  }
  case TL_VAULT_INLINE_DICT: {
    tl_inline_dict d = tl_inline_dict_view(mem, f->capacity, esize, vsize);
    tl_inline_iter it = tl_inline_dict_iter(d);
    const void *k;
    void *v;
    while (tl_inline_dict_next(d, &it, &k, &v)) {
      if (visit) visit(ctx, (const unsigned char *)k, (const unsigned char *)v);
      n++;
    }
    break;
  }
  default: break;
  }
  return n;
}

static uint32_t tlb__vault_element_wire(uint32_t tag) {
  uint32_t etag = (tag >> 8) & 0xFFu, vtag = (tag >> 16) & 0xFFu;
  return tlb__vault_scalar_size(etag) + ((tag & 0xFFu) == TL_VAULT_INLINE_DICT ? tlb__vault_scalar_size(vtag) : 0);
}

/* Payload bytes of one field as it is now. */
static size_t tlb__vault_payload_size(const tl_vault_field_desc *f, const unsigned char *member) {
  if (f->tag == TL_VAULT_STRING) {
    const unsigned char *nul = (const unsigned char *)memchr(member, 0, f->size);
    return nul ? (size_t)(nul - member) : f->size;
  }
  if (tlb__vault_is_collection(f->tag))
    return 4 + (size_t)tlb__vault_walk(f, member, NULL, NULL) * tlb__vault_element_wire(f->tag);
  return tlb__vault_scalar_size(f->tag);
}

static size_t tlb_vault_serialised_size(const tl_vault_desc *d, const void *vault) {
  size_t total = TL_VAULT_HEADER_BYTES;
  uint32_t i;
  if (!d || !vault) return 0;
  for (i = 0; i < d->field_count; i++) {
    const tl_vault_field_desc *f = &d->fields[i];
    if (f->backing != TL_VAULT_SERIALISED) continue;
    total += TL_VAULT_RECORD_BYTES + tlb__vault_payload_size(f, (const unsigned char *)vault + f->offset);
  }
  return total;
}

typedef struct tlb__vault_writer {
  unsigned char *p;
  uint32_t etag, vtag, esize;
} tlb__vault_writer;

static void tlb__vault_write_element(void *ctx, const unsigned char *key, const unsigned char *value) {
  tlb__vault_writer *w = (tlb__vault_writer *)ctx;
  tlb__vault_to_wire(w->etag, key, w->p);
  w->p += w->esize;
  if (value) {
    tlb__vault_to_wire(w->vtag, value, w->p);
    w->p += tlb__vault_scalar_size(w->vtag);
  }
}

static tl_vault_result tlb_vault_write(const tl_vault_desc *d, const void *vault, void *out, size_t capacity, size_t *written) {
  unsigned char *p = (unsigned char *)out, *record_count;
  uint32_t i, records = 0;
  size_t need;
  if (written) *written = 0;
  if (!d || !vault || (!out && capacity)) return TL_VAULT_ERROR_ARGUMENT;
  need = tlb_vault_serialised_size(d, vault);
  if (need > capacity) return TL_VAULT_ERROR_BUFFER;
  memcpy(p, "TLVT", 4);
  p[4] = (unsigned char)TL_VAULT_FORMAT_VERSION;
  p[5] = 0;
  p[6] = p[7] = 0;
  tlb__vault_put32(p + 8, d->id);
  record_count = p + 12;
  p += TL_VAULT_HEADER_BYTES;
  for (i = 0; i < d->field_count; i++) {
    const tl_vault_field_desc *f = &d->fields[i];
    const unsigned char *member = (const unsigned char *)vault + f->offset;
    size_t len;
    if (f->backing != TL_VAULT_SERIALISED) continue;
    len = tlb__vault_payload_size(f, member);
    tlb__vault_put32(p, f->id);
    tlb__vault_put32(p + 4, f->tag);
    tlb__vault_put32(p + 8, (uint32_t)len);
    p += TL_VAULT_RECORD_BYTES;
    if (f->tag == TL_VAULT_STRING) {
      memcpy(p, member, len);
      p += len;
    } else if (tlb__vault_is_collection(f->tag)) {
      tlb__vault_writer w;
      w.etag = (f->tag >> 8) & 0xFFu;
      w.vtag = (f->tag >> 16) & 0xFFu;
      w.esize = tlb__vault_scalar_size(w.etag);
      tlb__vault_put32(p, (uint32_t)((len - 4) / tlb__vault_element_wire(f->tag)));
      w.p = p + 4;
      tlb__vault_walk(f, member, tlb__vault_write_element, &w);
      p = w.p;
    } else {
      tlb__vault_to_wire(f->tag, member, p);
      p += len;
    }
    records++;
  }
  tlb__vault_put32(record_count, records);
  if (written) *written = need;
  return TL_VAULT_OK;
}

/* Checks one element's wire bytes (Booleans must be 0 or 1). */
static bool tlb__vault_wire_ok(uint32_t tag, const unsigned char *wire) {
  return tag != TL_VAULT_BOOLEAN || wire[0] <= 1;
}

/* Validates one known field's payload. */
static tl_vault_result tlb__vault_check(const tl_vault_field_desc *f, const unsigned char *payload, uint32_t len) {
  if (f->tag == TL_VAULT_STRING) {
    if (len + 1 > f->size) return TL_VAULT_ERROR_CAPACITY;
    if (memchr(payload, 0, len)) return TL_VAULT_ERROR_VALUE;
    return TL_VAULT_OK;
  }
  if (tlb__vault_is_collection(f->tag)) {
    uint32_t ew = tlb__vault_element_wire(f->tag), etag = (f->tag >> 8) & 0xFFu, vtag = (f->tag >> 16) & 0xFFu;
    uint32_t esize = tlb__vault_scalar_size(etag), count, i;
    if (len < 4) return TL_VAULT_ERROR_LENGTH;
    count = tlb__vault_le32(payload);
    if ((uint64_t)count * ew != (uint64_t)len - 4) return TL_VAULT_ERROR_LENGTH;
    if (count > f->capacity) return TL_VAULT_ERROR_CAPACITY;
    for (i = 0; i < count; i++) {
      const unsigned char *e = payload + 4 + (size_t)i * ew;
      if (!tlb__vault_wire_ok(etag, e)) return TL_VAULT_ERROR_VALUE;
      if ((f->tag & 0xFFu) == TL_VAULT_INLINE_DICT && !tlb__vault_wire_ok(vtag, e + esize)) return TL_VAULT_ERROR_VALUE;
    }
    return TL_VAULT_OK;
  }
  if (len != tlb__vault_scalar_size(f->tag)) return TL_VAULT_ERROR_LENGTH;
  return tlb__vault_wire_ok(f->tag, payload) ? TL_VAULT_OK : TL_VAULT_ERROR_VALUE;
}

/* Stores one validated payload. Cannot fail: capacities were checked. */
static void tlb__vault_apply(const tl_vault_field_desc *f, unsigned char *member, const unsigned char *payload, uint32_t len) {
  uint32_t kind = f->tag & 0xFFu, etag = (f->tag >> 8) & 0xFFu, vtag = (f->tag >> 16) & 0xFFu;
  uint32_t esize = tlb__vault_scalar_size(etag), vsize = tlb__vault_scalar_size(vtag), ew, count, i;
  /* Large enough for any scalar (FPQuaternion, 32 bytes): 8-byte aligned scratch. */
  uint64_t key[4], value[4];
  if (f->tag == TL_VAULT_STRING) {
    memcpy(member, payload, len);
    memset(member + len, 0, f->size - len);
    return;
  }
  if (!tlb__vault_is_collection(f->tag)) {
    tlb__vault_from_wire(f->tag, payload, member);
    return;
  }
  ew = tlb__vault_element_wire(f->tag);
  count = tlb__vault_le32(payload);
  payload += 4;
  switch (kind) {
  case TL_VAULT_INLINE_ARRAY: {
    tl_inline_array a = tl_inline_array_view(member, f->capacity, esize);
    for (i = 0; i < count; i++) {
      tlb__vault_from_wire(etag, payload + (size_t)i * ew, (unsigned char *)key);
      memset(tl_inline_array_at(a, i), 0, TL_LAYOUT_ALIGN(esize)); /* padding too: equal values, equal bytes */
      tl_inline_array_set(a, i, key);
    }
    break;
  }
  case TL_VAULT_INLINE_LIST: {
    tl_inline_list l = tl_inline_list_view(member, f->capacity, esize);
    tl_inline_list_clear(l);
    for (i = 0; i < count; i++) {
      tlb__vault_from_wire(etag, payload + (size_t)i * ew, (unsigned char *)key);
      tl_inline_list_add(l, key);
    }
    break;
  }
  case TL_VAULT_INLINE_QUEUE: {
    tl_inline_queue q = tl_inline_queue_view(member, f->capacity, esize);
    tl_inline_queue_clear(q);
    for (i = 0; i < count; i++) {
      tlb__vault_from_wire(etag, payload + (size_t)i * ew, (unsigned char *)key);
      tl_inline_queue_enqueue(q, key);
    }
    break;
  }
  case TL_VAULT_INLINE_STACK: {
    tl_inline_stack s = tl_inline_stack_view(member, f->capacity, esize);
    tl_inline_stack_clear(s);
    for (i = 0; i < count; i++) {
      tlb__vault_from_wire(etag, payload + (size_t)i * ew, (unsigned char *)key);
      tl_inline_stack_push(s, key);
    }
    break;
  }
  case TL_VAULT_INLINE_HASHSET: {
    tl_inline_hashset s = tl_inline_hashset_view(member, f->capacity, esize);
    tl_inline_hashset_clear(s);
    for (i = 0; i < count; i++) {
      tlb__vault_from_wire(etag, payload + (size_t)i * ew, (unsigned char *)key);
      tl_inline_hashset_add(s, key); /* a repeated key keeps the first */
    }
    break;
  }
  case TL_VAULT_INLINE_DICT: {
    tl_inline_dict d = tl_inline_dict_view(member, f->capacity, esize, vsize);
    tl_inline_dict_clear(d);
    for (i = 0; i < count; i++) {
      tlb__vault_from_wire(etag, payload + (size_t)i * ew, (unsigned char *)key);
      tlb__vault_from_wire(vtag, payload + (size_t)i * ew + esize, (unsigned char *)value);
      tl_inline_dict_try_add(d, key, value); /* a repeated key keeps the first */
    }
    break;
  }
  default: break;
  }
}

/* Walks the records; with apply false it only validates (and finds duplicates). */
static tl_vault_result tlb__vault_records(const tl_vault_desc *d, unsigned char *vault, const unsigned char *data,
                                        size_t size, bool apply) {
  const unsigned char *p = data + TL_VAULT_HEADER_BYTES, *end = data + size;
  uint32_t records = tlb__vault_le32(data + 12), r;
  uint64_t seen[16]; /* fields 0..1023 seen so far; larger indexes are checked by a scan */
  memset(seen, 0, sizeof seen);
  for (r = 0; r < records; r++) {
    uint32_t id, tag, len;
    int32_t index;
    if ((size_t)(end - p) < TL_VAULT_RECORD_BYTES) return TL_VAULT_ERROR_TRUNCATED;
    id = tlb__vault_le32(p);
    tag = tlb__vault_le32(p + 4);
    len = tlb__vault_le32(p + 8);
    p += TL_VAULT_RECORD_BYTES;
    if ((size_t)(end - p) < len) return TL_VAULT_ERROR_TRUNCATED;
    index = tlb_vault_find(d, id);
    if (index >= 0 && d->fields[index].backing == TL_VAULT_SERIALISED) {
      const tl_vault_field_desc *f = &d->fields[index];
      if (apply) {
        tlb__vault_apply(f, vault + f->offset, p, len);
      } else {
        tl_vault_result e;
        if (f->tag != tag) return TL_VAULT_ERROR_TYPE;
        e = tlb__vault_check(f, p, len);
        if (e != TL_VAULT_OK) return e;
        if (index < 1024) {
          uint64_t bit = (uint64_t)1 << (index & 63);
          if (seen[index >> 6] & bit) return TL_VAULT_ERROR_DUPLICATE;
          seen[index >> 6] |= bit;
        } else {
          /* Rare (schemas of more than 1024 fields): look back for the same id. */
          const unsigned char *q = data + TL_VAULT_HEADER_BYTES;
          while (q < p - TL_VAULT_RECORD_BYTES) {
            if (tlb__vault_le32(q) == id) return TL_VAULT_ERROR_DUPLICATE;
            q += TL_VAULT_RECORD_BYTES + tlb__vault_le32(q + 8);
          }
        }
      }
    }
    p += len;
  }
  return p == end ? TL_VAULT_OK : TL_VAULT_ERROR_TRAILING;
}

static tl_vault_result tlb_vault_read(const tl_vault_desc *d, void *vault, const void *data, size_t size) {
  const unsigned char *in = (const unsigned char *)data;
  tl_vault_result e;
  if (!d || !vault || (!data && size)) return TL_VAULT_ERROR_ARGUMENT;
  if (size < TL_VAULT_HEADER_BYTES) return size >= 4 && memcmp(in, "TLVT", 4) != 0 ? TL_VAULT_ERROR_MAGIC : TL_VAULT_ERROR_TRUNCATED;
  if (memcmp(in, "TLVT", 4) != 0) return TL_VAULT_ERROR_MAGIC;
  if (((uint32_t)in[4] | ((uint32_t)in[5] << 8)) != TL_VAULT_FORMAT_VERSION) return TL_VAULT_ERROR_VERSION;
  if (in[6] || in[7]) return TL_VAULT_ERROR_FLAGS;
  if (tlb__vault_le32(in + 8) != d->id) return TL_VAULT_ERROR_VAULT;
  e = tlb__vault_records(d, (unsigned char *)vault, in, size, false);
  if (e != TL_VAULT_OK) return e;
  return tlb__vault_records(d, (unsigned char *)vault, in, size, true);
}

#endif
