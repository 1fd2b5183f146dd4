/* Randomized model test of the inline collections: millions of random operations, each checked
 * against a simple reference implementation; at intervals the bytes are checked too (table
 * invariants, and a table rebuilt from its surviving keys must hold the very same bytes once the
 * pending removal is settled).
 *
 * TL_MEM_MODEL_SCALE (environment) scales the number of operations: 1 (the default) runs about
 * five million, 0.1 a tenth, 10 ten times as many.
 * TL_MEM_MODEL_SEED changes the seed (printed on failure). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <threadlink/collections.h>

#include "mem_test_util.h"

static uint64_t model_seed = 0x5EED0005ull;
static double ops_scale = 1.0;
/* What the runs exercised, printed at the end so that a weakened test shows. */
static struct {
  uint64_t ops, full_refusals, walks, walk_removals, rollbacks, byte_checks;
  uint64_t pending_ops, pending_filled, re_adds; /* ops run with a removal pending, adds that took it */
} stats;

static uint64_t scaled(uint64_t ops) {
  uint64_t n = (uint64_t)((double)ops * ops_scale);
  return n ? n : 1;
}

/* ============================================================================================
 * Hash sets and dictionaries
 * ========================================================================================== */

#define MAX_KEY 24
#define MAX_VALUE 24

typedef struct table_config {
  uint32_t capacity, key_size, value_size;
  int clustered; /* keys crowd into four neighbouring home slots around the end of the table */
  uint64_t ops;
} table_config;

typedef struct table_model {
  const table_config *config;
  uint32_t universe;       /* candidate keys: ids 0 .. universe-1 */
  unsigned char *keys;     /* universe * key_size bytes */
  unsigned char *present;  /* per id */
  uint64_t *stamp;         /* per id: insertion order */
  unsigned char *values;   /* per id: value_size bytes */
  uint32_t count;
  uint64_t next_stamp;
} table_model;

static const unsigned char *key_of(const table_model *m, uint32_t id) {
  return m->keys + (size_t)id * m->config->key_size;
}

static unsigned char *value_of(const table_model *m, uint32_t id) {
  return m->values + (size_t)id * (m->config->value_size ? m->config->value_size : 1);
}

/* Distinct keys: the id's bytes then random filler (or, for keys under 4 bytes, the id alone). */
static void make_keys(table_model *m, uint64_t *rng) {
  const table_config *c = m->config;
  uint32_t id = 0;
  uint64_t candidate = 0;
  while (id < m->universe) {
    unsigned char *key = m->keys + (size_t)id * c->key_size;
    size_t b;
    uint64_t tag = candidate++;
    for (b = 0; b < c->key_size; b++)
      key[b] = b < 4 ? (unsigned char)(tag >> (8 * b)) : (unsigned char)test_splitmix64(rng);
    if (c->clustered) {
      uint32_t home = test_home_of(key, c->key_size, c->capacity);
      uint32_t from_end = c->capacity - 1 - home;
      if (!(home <= 1 || from_end <= 1)) continue;
    }
    id++;
  }
}

/* The candidate number stored in a key's first bytes: it grows with the id, so a binary search
 * finds the id of a key. */
static uint32_t key_tag(const table_model *m, const unsigned char *key) {
  uint32_t tag = 0, b;
  for (b = 0; b < 4 && b < m->config->key_size; b++) tag |= (uint32_t)key[b] << (8 * b);
  return tag;
}

static uint32_t model_find(const table_model *m, const void *key) {
  uint32_t lo = 0, hi = m->universe, tag = key_tag(m, (const unsigned char *)key);
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2, t = key_tag(m, key_of(m, mid));
    if (t == tag) return memcmp(key_of(m, mid), key, m->config->key_size) == 0 ? mid : UINT32_MAX;
    if (t < tag) lo = mid + 1;
    else hi = mid;
  }
  return UINT32_MAX;
}

static int compare_stamp(const void *a, const void *b, void *m) {
  const table_model *model = (const table_model *)m;
  uint64_t sa = model->stamp[*(const uint32_t *)a], sb = model->stamp[*(const uint32_t *)b];
  return sa < sb ? -1 : sa > sb;
}

/* Survivors in insertion order (a simple insertion sort: the model is small). */
static uint32_t survivors_in_order(const table_model *m, uint32_t *ids) {
  uint32_t n = 0, id, i;
  for (id = 0; id < m->universe; id++) {
    if (!m->present[id]) continue;
    i = n++;
    while (i > 0 && compare_stamp(&ids[i - 1], &id, (void *)(uintptr_t)m) > 0) {
      ids[i] = ids[i - 1];
      i--;
    }
    ids[i] = id;
  }
  return n;
}

static void check_against_model(const table_model *m, unsigned char *mem, unsigned char *scratch_mem,
                                uint32_t *ids) {
  const table_config *c = m->config;
  tl_inline_dict d = tl_inline_dict_view(mem, c->capacity, c->key_size, c->value_size);
  size_t bytes = TL_LAYOUT_DICT_BYTES(c->capacity, c->key_size, c->value_size);
  uint32_t id, n, i;
  unsigned char *settled = (unsigned char *)malloc(bytes);
  assert_non_null(settled);
  stats.byte_checks++;
  test_check_table(mem, c->capacity, c->key_size, c->value_size);
  assert_int_equal(tl_inline_dict_count(d), m->count);
  for (id = 0; id < m->universe; id++) {
    const unsigned char *value = (const unsigned char *)tl_inline_dict_get(d, key_of(m, id));
    assert_int_equal(value != NULL, m->present[id]);
    if (value && c->value_size) assert_memory_equal(value, value_of(m, id), c->value_size);
  }
  /* The same survivors added to an empty table in insertion order give the same bytes. */
  memset(scratch_mem, 0, bytes);
  {
    tl_inline_dict fresh = tl_inline_dict_view(scratch_mem, c->capacity, c->key_size, c->value_size);
    n = survivors_in_order(m, ids);
    assert_int_equal(n, m->count);
    for (i = 0; i < n; i++)
      assert_int_equal(tl_inline_dict_try_add_ex(fresh, key_of(m, ids[i]), value_of(m, ids[i])),
                       TL_INLINE_OK);
  }
  /* Settling the pending removal leaves exactly those bytes (settled on a copy, so that the run
   * goes on with the removal pending). */
  memcpy(settled, mem, bytes);
  tl_inline_dict_settle(tl_inline_dict_view(settled, c->capacity, c->key_size, c->value_size));
  test_check_table(settled, c->capacity, c->key_size, c->value_size);
  assert_int_equal(tl__mem_load_le32(settled + 4), 0);
  assert_memory_equal(settled, scratch_mem, bytes);
  free(settled);
}

/* A full walk, removing the current element with probability `removal` in 1/256. */
static void walk(table_model *m, unsigned char *mem, uint64_t *rng, unsigned removal) {
  const table_config *c = m->config;
  tl_inline_dict d = tl_inline_dict_view(mem, c->capacity, c->key_size, c->value_size);
  unsigned char *seen = (unsigned char *)calloc(m->universe, 1);
  tl_inline_iter it = tl_inline_dict_iter(d);
  const void *key;
  void *value;
  uint32_t visited = 0, id, expected = m->count;
  assert_non_null(seen);
  while (tl_inline_dict_next(d, &it, &key, &value)) {
    id = model_find(m, key);
    assert_true(id != UINT32_MAX);
    assert_true(m->present[id]);
    assert_int_equal(seen[id], 0);
    if (c->value_size) assert_memory_equal(value, value_of(m, id), c->value_size);
    seen[id] = 1;
    visited++;
    if ((test_splitmix64(rng) & 255) < removal) {
      assert_true(tl_inline_dict_iter_remove(d, &it));
      stats.walk_removals++;
      m->present[id] = 0;
      m->count--;
    }
  }
  assert_int_equal(visited, expected);
  assert_int_equal(tl_inline_dict_count(d), m->count);
  stats.walks++;
  free(seen);
}

static void run_table_model(const table_config *c, uint64_t seed) {
  table_model m, saved;
  uint64_t rng = seed, op, ops = scaled(c->ops);
  size_t bytes = TL_LAYOUT_DICT_BYTES(c->capacity, c->key_size, c->value_size);
  unsigned char *mem = (unsigned char *)calloc(1, bytes);
  unsigned char *scratch_mem = (unsigned char *)calloc(1, bytes);
  unsigned char *snapshot = (unsigned char *)calloc(1, bytes);
  uint32_t *ids;
  unsigned char value[MAX_VALUE];
  tl_inline_dict d;
  tl_inline_hashset s;
  uint64_t check_every = c->capacity < 64 ? 64 : 2 * (uint64_t)c->capacity;
  int have_snapshot = 0;
  uint32_t peak = 0;

  memset(&m, 0, sizeof m);
  m.config = c;
  m.universe = c->key_size == 1 ? (c->capacity * 2 + 3 < 256 ? c->capacity * 2 + 3 : 256)
                                : c->capacity * 2 + 3;
  m.keys = (unsigned char *)calloc(m.universe, c->key_size);
  m.present = (unsigned char *)calloc(m.universe, 1);
  m.stamp = (uint64_t *)calloc(m.universe, sizeof(uint64_t));
  m.values = (unsigned char *)calloc(m.universe, c->value_size ? c->value_size : 1);
  ids = (uint32_t *)calloc(m.universe, sizeof(uint32_t));
  saved = m;
  saved.present = (unsigned char *)calloc(m.universe, 1);
  saved.stamp = (uint64_t *)calloc(m.universe, sizeof(uint64_t));
  saved.values = (unsigned char *)calloc(m.universe, c->value_size ? c->value_size : 1);
  assert_true(mem && scratch_mem && snapshot && m.keys && m.present && m.stamp && m.values && ids &&
              saved.present && saved.stamp && saved.values);
  make_keys(&m, &rng);
  d = tl_inline_dict_view(mem, c->capacity, c->key_size, c->value_size);
  s = tl_inline_hashset_view(mem, c->capacity, c->key_size);
  assert_true(tl_inline_dict_valid(d));

  for (op = 0; op < ops; op++) {
    const uint32_t pending_before = tl__mem_load_le32(mem + 4);
    const uint32_t count_before = m.count;
    uint32_t id = (uint32_t)(test_splitmix64(&rng) % m.universe);
    const unsigned char *key = key_of(&m, id);
    unsigned kind = (unsigned)(test_splitmix64(&rng) % 1000);
    size_t b;
    for (b = 0; b < c->value_size; b++) value[b] = (unsigned char)test_splitmix64(&rng);
    /* Drift the load up and down: favour adds while below a moving target. */
    if (kind < 700) {
      uint64_t phase = c->capacity * 20u < 5000 ? 5000 : c->capacity * 20u;
      uint32_t target = (uint32_t)((op / phase) % 4);
      uint32_t goal = target == 0 ? c->capacity / 2 : target == 1 ? c->capacity : target == 2 ? c->capacity * 3 / 4 : c->capacity / 4;
      kind = m.count < goal ? (kind < 450 ? 0 : kind < 550 ? 1 : 2) : (kind < 400 ? 3 : kind < 550 ? 0 : 4);
    } else {
      kind = kind < 850 ? 4 : kind < 990 ? 5 : kind < 996 ? 6 : kind < 998 ? 7 : 8;
      /* Walks, rollbacks and clears undo a lot: rarer in larger tables, so that they still fill. */
      if (kind >= 6 && test_splitmix64(&rng) % (1 + c->capacity / 32) != 0) kind = 4;
    }
    switch (kind) {
    case 0: { /* try_add (or hash-set add when there is no value) */
      tl_inline_result r = c->value_size ? tl_inline_dict_try_add_ex(d, key, value)
                                         : tl_inline_hashset_add_ex(s, key);
      tl_inline_result expected = m.present[id] ? TL_INLINE_EXISTS
                                  : m.count == c->capacity ? TL_INLINE_FULL : TL_INLINE_OK;
      assert_int_equal(r, expected);
      stats.full_refusals += r == TL_INLINE_FULL;
      if (r == TL_INLINE_OK) {
        m.present[id] = 1;
        m.stamp[id] = m.next_stamp++;
        memcpy(value_of(&m, id), value, c->value_size);
        m.count++;
      }
      break;
    }
    case 1: { /* set: add or replace */
      bool ok = tl_inline_dict_set(d, key, value);
      assert_int_equal(ok, m.present[id] || m.count < c->capacity);
      if (ok) {
        if (!m.present[id]) {
          m.present[id] = 1;
          m.stamp[id] = m.next_stamp++;
          m.count++;
        }
        memcpy(value_of(&m, id), value, c->value_size);
      }
      break;
    }
    case 2: { /* get_or_add */
      bool added = false;
      unsigned char *p = (unsigned char *)tl_inline_dict_get_or_add(d, key, &added);
      if (m.present[id]) {
        assert_non_null(p);
        assert_false(added);
        if (c->value_size) assert_memory_equal(p, value_of(&m, id), c->value_size);
      } else if (m.count == c->capacity) {
        assert_null(p);
      } else {
        assert_non_null(p);
        assert_true(added);
        for (b = 0; b < c->value_size; b++) assert_int_equal(p[b], 0);
        memcpy(p, value, c->value_size);
        m.present[id] = 1;
        m.stamp[id] = m.next_stamp++;
        memcpy(value_of(&m, id), value, c->value_size);
        m.count++;
      }
      break;
    }
    case 3: /* remove */
      assert_int_equal(c->value_size ? tl_inline_dict_remove(d, key) : tl_inline_hashset_remove(s, key),
                       m.present[id]);
      if (m.present[id]) {
        m.present[id] = 0;
        m.count--;
        /* Often the same key comes straight back (it takes its old slot, moving nothing). */
        if (test_splitmix64(&rng) % 4 == 0) {
          assert_int_equal(c->value_size ? tl_inline_dict_try_add_ex(d, key, value)
                                         : tl_inline_hashset_add_ex(s, key),
                           TL_INLINE_OK);
          m.present[id] = 1;
          m.stamp[id] = m.next_stamp++;
          memcpy(value_of(&m, id), value, c->value_size);
          m.count++;
          stats.re_adds++;
        }
      }
      break;
    case 4: { /* lookups */
      unsigned char out[MAX_VALUE + 1];
      bool found = tl_inline_dict_try_get(d, key, out);
      assert_int_equal(found, m.present[id]);
      if (!c->value_size) assert_int_equal(tl_inline_hashset_contains(s, key), m.present[id]);
      if (found && c->value_size) assert_memory_equal(out, value_of(&m, id), c->value_size);
      break;
    }
    case 5: /* write through the pointer */
      if (m.present[id] && c->value_size) {
        unsigned char *p = (unsigned char *)tl_inline_dict_get(d, key);
        assert_non_null(p);
        memcpy(p, value, c->value_size);
        memcpy(value_of(&m, id), value, c->value_size);
      }
      break;
    case 6: /* a walk, sometimes removing */
      walk(&m, mem, &rng, (unsigned)(test_splitmix64(&rng) % 3) * 100);
      break;
    case 7: /* snapshot or roll back: the bytes are the whole state */
      if (have_snapshot && (test_splitmix64(&rng) & 1)) {
        stats.rollbacks++;
        memcpy(mem, snapshot, bytes);
        memcpy(m.present, saved.present, m.universe);
        memcpy(m.stamp, saved.stamp, m.universe * sizeof(uint64_t));
        memcpy(m.values, saved.values, (size_t)m.universe * (c->value_size ? c->value_size : 1));
        m.count = saved.count;
        m.next_stamp = saved.next_stamp;
      } else {
        memcpy(snapshot, mem, bytes);
        memcpy(saved.present, m.present, m.universe);
        memcpy(saved.stamp, m.stamp, m.universe * sizeof(uint64_t));
        memcpy(saved.values, m.values, (size_t)m.universe * (c->value_size ? c->value_size : 1));
        saved.count = m.count;
        saved.next_stamp = m.next_stamp;
        have_snapshot = 1;
      }
      break;
    default: /* clear, rarely */
      if (test_splitmix64(&rng) % 8 == 0) {
        tl_inline_dict_clear(d);
        memset(m.present, 0, m.universe);
        m.count = 0;
      }
      break;
    }
    assert_int_equal(tl_inline_dict_count(d), m.count);
    stats.ops++;
    if (pending_before) {
      stats.pending_ops++;
      stats.pending_filled += m.count > count_before && tl__mem_load_le32(mem + 4) == 0;
    }
    if (m.count > peak) peak = m.count;
    if (op % check_every == check_every - 1) check_against_model(&m, mem, scratch_mem, ids);
  }
  check_against_model(&m, mem, scratch_mem, ids);
  assert_int_equal(peak, c->capacity); /* the run reached a full table */
  free(mem);
  free(scratch_mem);
  free(snapshot);
  free(m.keys);
  free(m.present);
  free(m.stamp);
  free(m.values);
  free(saved.present);
  free(saved.stamp);
  free(saved.values);
  free(ids);
}

static void test_mem_model_tables(void **state) {
  static const table_config configs[] = {
    {1, 4, 4, 0, 20000},      {2, 8, 8, 0, 40000},      {3, 1, 0, 0, 40000},
    {5, 3, 5, 1, 60000},      {7, 4, 0, 0, 80000},      {16, 8, 8, 0, 200000},
    {16, 8, 8, 1, 200000},    {31, 12, 20, 0, 200000},  {61, 2, 1, 1, 200000},
    {64, 17, 0, 1, 200000},   {100, 8, 24, 0, 300000},  {128, 4, 8, 1, 300000},
    {257, 4, 8, 0, 400000},   {1000, 8, 8, 0, 600000},  {1024, 5, 3, 1, 300000},
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof configs / sizeof configs[0]; i++) {
    fprintf(stderr, "table model: capacity %u, key %u, value %u%s, seed %llu\n",
            configs[i].capacity, configs[i].key_size, configs[i].value_size,
            configs[i].clustered ? ", clustered" : "", (unsigned long long)(model_seed + i));
    run_table_model(&configs[i], model_seed + i);
  }
}

/* ============================================================================================
 * List, queue, stack
 * ========================================================================================== */

enum { SEQ_LIST, SEQ_QUEUE, SEQ_STACK };

/* The exact bytes a sequence must hold: header, live elements in slot order, zeros elsewhere. */
static void expected_sequence_bytes(unsigned char *out, uint32_t capacity, uint32_t element_size,
                                    const unsigned char *elements, uint32_t count, uint32_t head) {
  size_t stride = TL_LAYOUT_ALIGN(element_size);
  uint32_t i;
  memset(out, 0, TL_LAYOUT_SEQUENCE_BYTES(capacity, element_size));
  tl__mem_store_le32(out, count);
  tl__mem_store_le32(out + 4, head);
  for (i = 0; i < count; i++)
    memcpy(out + 8 + ((head + i) % capacity) * stride, elements + (size_t)i * element_size,
           element_size);
}

static void run_sequence_model(int kind, uint32_t capacity, uint32_t element_size, uint64_t ops,
                               uint64_t seed) {
  size_t bytes = TL_LAYOUT_SEQUENCE_BYTES(capacity, element_size);
  unsigned char *mem = (unsigned char *)calloc(1, bytes);
  unsigned char *expected = (unsigned char *)calloc(1, bytes);
  unsigned char *model = (unsigned char *)calloc(capacity + 1, element_size); /* logical order */
  unsigned char *value = (unsigned char *)calloc(1, element_size);
  unsigned char *out = (unsigned char *)calloc(1, element_size);
  tl_inline_list l = tl_inline_list_view(mem, capacity, element_size);
  tl_inline_queue q = tl_inline_queue_view(mem, capacity, element_size);
  tl_inline_stack st = tl_inline_stack_view(mem, capacity, element_size);
  uint32_t count = 0, head = 0;
  uint64_t rng = seed, op;
  assert_true(mem && expected && model && value && out);
  for (op = 0; op < ops; op++) {
    unsigned r = (unsigned)(test_splitmix64(&rng) % 100);
    size_t b;
    bool grow = ((op / (capacity * 3 + 7)) % 2) == 0 ? r < 65 : r < 35;
    for (b = 0; b < element_size; b++) value[b] = (unsigned char)test_splitmix64(&rng);
    if (r >= 97) { /* clear */
      if (kind == SEQ_LIST) tl_inline_list_clear(l);
      else if (kind == SEQ_QUEUE) tl_inline_queue_clear(q);
      else tl_inline_stack_clear(st);
      count = head = 0;
    } else if (grow) {
      bool ok = kind == SEQ_LIST ? tl_inline_list_add(l, value)
                : kind == SEQ_QUEUE ? tl_inline_queue_enqueue(q, value)
                                    : tl_inline_stack_push(st, value);
      assert_int_equal(ok, count < capacity);
      if (ok) memcpy(model + (size_t)count++ * element_size, value, element_size);
    } else if (kind == SEQ_LIST) {
      uint32_t index = (uint32_t)(test_splitmix64(&rng) % (capacity + 1));
      bool ok = tl_inline_list_remove_at(l, index);
      assert_int_equal(ok, index < count);
      if (ok) {
        memcpy(model + (size_t)index * element_size, model + (size_t)(count - 1) * element_size,
               element_size);
        count--;
      }
    } else if (kind == SEQ_QUEUE) {
      bool ok = tl_inline_queue_dequeue(q, out);
      assert_int_equal(ok, count > 0);
      if (ok) {
        assert_memory_equal(out, model, element_size);
        memmove(model, model + element_size, (size_t)(count - 1) * element_size);
        count--;
        head = count == 0 ? 0 : (head + 1) % capacity;
      }
    } else {
      bool ok = tl_inline_stack_pop(st, out);
      assert_int_equal(ok, count > 0);
      if (ok) assert_memory_equal(out, model + (size_t)--count * element_size, element_size);
    }
    /* Element access agrees with the model, and the bytes are exactly the expected ones. */
    if (count) {
      uint32_t i = (uint32_t)(test_splitmix64(&rng) % count);
      const void *p = kind == SEQ_LIST ? tl_inline_list_at(l, i)
                      : kind == SEQ_QUEUE ? tl_inline_queue_at(q, i) : tl_inline_stack_at(st, i);
      assert_non_null(p);
      assert_memory_equal(p, model + (size_t)i * element_size, element_size);
      if (kind == SEQ_QUEUE) assert_memory_equal(tl_inline_queue_peek(q), model, element_size);
      if (kind == SEQ_STACK)
        assert_memory_equal(tl_inline_stack_peek(st), model + (size_t)(count - 1) * element_size,
                            element_size);
    }
    stats.ops++;
    if (op % 7 == 0 || count == 0 || count == capacity) {
      expected_sequence_bytes(expected, capacity, element_size, model, count, head);
      assert_memory_equal(mem, expected, bytes);
    }
  }
  free(mem);
  free(expected);
  free(model);
  free(value);
  free(out);
}

static void test_mem_model_sequences(void **state) {
  static const struct { uint32_t capacity, element_size; uint64_t ops; } configs[] = {
    {1, 1, 20000}, {2, 3, 40000}, {3, 8, 60000}, {7, 12, 100000}, {16, 4, 150000},
    {33, 20, 150000}, {100, 8, 200000},
  };
  int kind;
  size_t i;
  (void)state;
  for (kind = SEQ_LIST; kind <= SEQ_STACK; kind++)
    for (i = 0; i < sizeof configs / sizeof configs[0]; i++)
      run_sequence_model(kind, configs[i].capacity, configs[i].element_size,
                         scaled(configs[i].ops), model_seed + 100 * (uint64_t)kind + i);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mem_model_tables),
    cmocka_unit_test(test_mem_model_sequences),
  };
  const char *scale = getenv("TL_MEM_MODEL_SCALE"), *seed = getenv("TL_MEM_MODEL_SEED");
  if (scale && *scale) ops_scale = atof(scale);
  if (seed && *seed) model_seed = strtoull(seed, NULL, 0);
  int failed = cmocka_run_group_tests_name("mem_model", tests, NULL, NULL);
  fprintf(stderr,
          "model: %llu operations checked; %llu refused as full, %llu walks removing %llu elements, "
          "%llu rollbacks, %llu whole-table byte checks; %llu operations with a removal pending, "
          "%llu adds that took its slot, %llu keys added straight back\n",
          (unsigned long long)stats.ops, (unsigned long long)stats.full_refusals,
          (unsigned long long)stats.walks, (unsigned long long)stats.walk_removals,
          (unsigned long long)stats.rollbacks, (unsigned long long)stats.byte_checks,
          (unsigned long long)stats.pending_ops, (unsigned long long)stats.pending_filled,
          (unsigned long long)stats.re_adds);
  return failed;
}
