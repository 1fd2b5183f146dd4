/* Benchmark of runtime/threadlink/mem.h: the inline dictionary (int64 keys and values) against
 * khash (htslib/khash.h) and stb_ds, and tl_hash64/tl_hash32 against libxxhash called directly.
 * Prints every operation with its baselines and the ratios in one run; never fails on time.
 * Each time is the median over rounds of the round's mean time per operation, and each ratio the
 * median over rounds of the ratio of the round's two times (the libraries run in turn within a
 * round, so a drift of the host's speed from round to round cancels out of the ratios).
 *
 *   bench_mem [quick|hashes]   quick: fewer rounds, for a smoke run; hashes: only the hashes
 *
 * Tables: capacity 1,024 and 1,048,576 slots, load 0.5, 0.75 and 0.9 (so 512 / 768 / 921 and
 * 524,288 / 786,432 / 943,718 keys). Our table and khash are sized up front (khash to the power of two its 0.77
 * maximum load needs); stb_ds has no way to reserve a hash map, so its inserts include growth.
 * Key sets change every round (a different bijective scramble of a counter), and lookups go in a
 * fresh random order each round, so the branch predictor cannot learn one sequence.
 *   insert      n keys into an empty table                       ns per insert
 *   hit         every key once, random order, value read         ns per lookup
 *   miss        n absent keys                                    ns per lookup
 *   churn-same  remove a random present key and add it back      ns per remove+add pair
 *   churn-new   remove the oldest key, add a never-seen key      ns per pair, in the 1st and in
 *               (so after one turnover every key is new)         the 8th turnover of the table
 *
 * Then the keys of the load-0.9 cases again in a table of twice the capacity (load 0.45), with
 * the bytes each library's table takes once filled: a fixed table at load 0.9 moves about 33
 * entries per removal (41 per insertion), while stb_ds and khash grow to about half that load.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>

#include <htslib/khash.h>

#include <threadlink/collections.h>

#include "bench_mem_lib.h"
#include "bench_util.h"

KHASH_MAP_INIT_INT64(m64, int64_t)
TL_INLINE_DICT_TYPE(tl_i64_dict, int64_t, int64_t)

typedef struct stb_entry {
  int64_t key;
  int64_t value;
} stb_entry;

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) { return mix64(rng_state += 0x9E3779B97F4A7C15ull); }

static volatile int64_t sink; /* keeps results alive */

enum { LIB_TL, LIB_KHASH, LIB_STB, LIB_COUNT };
static const char *const lib_names[LIB_COUNT] = {"threadlink", "khash", "stb_ds"};

enum { OP_INSERT, OP_HIT, OP_MISS, OP_CHURN_SAME, OP_CHURN_NEW_1, OP_CHURN_NEW_8, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"insert", "hit", "miss", "churn-same",
                                               "churn-new 1st", "churn-new 8th"};

/* ns per operation of each round; the report takes the median, which a noisy machine (other
 * processes, a shared host) disturbs far less than the mean. */
#define MAX_ROUNDS 512
typedef struct totals {
  double per_round[OP_COUNT][MAX_ROUNDS];
  int rounds;
  size_t bytes; /* the filled table's memory, in the last round */
} totals;

/* Median of v[0..n-1] (n >= 1); sorts v. */
static double median_of(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double median(const totals *t, int op) {
  double v[MAX_ROUNDS];
  memcpy(v, t->per_round[op], (size_t)t->rounds * sizeof(double));
  return median_of(v, t->rounds);
}

/* Median over rounds of the round's ratio a/b: both were timed in the same round, seconds apart,
 * so a drift of the host's speed between rounds cancels out of each ratio. */
static double median_ratio(const totals *a, const totals *b, int op) {
  double v[MAX_ROUNDS];
  int r;
  for (r = 0; r < a->rounds; r++) v[r] = a->per_round[op][r] / b->per_round[op][r];
  return median_of(v, a->rounds);
}

/* One table of one library, behind the same five calls. */
typedef struct table {
  int lib;
  uint32_t capacity;
  unsigned char *mem; /* threadlink */
  tl_i64_dict dict;
  khash_t(m64) *kh;
  stb_entry *stb;
} table;

static void table_open(table *t, int lib, uint32_t capacity, uint32_t keys) {
  memset(t, 0, sizeof *t);
  t->lib = lib;
  t->capacity = capacity;
  if (lib == LIB_TL) {
    t->mem = (unsigned char *)tl_mem_alloc_zeroed(TL_LAYOUT_DICT_BYTES(capacity, 8, 8), 64);
    t->dict = tl_i64_dict_view(t->mem, capacity);
  } else if (lib == LIB_KHASH) {
    t->kh = kh_init(m64);
    kh_resize(m64, t->kh, (khint_t)(keys / 0.77 + 2));
  } else {
    t->stb = NULL;
  }
}

static void table_close(table *t) {
  if (t->lib == LIB_TL) tl_mem_free(t->mem);
  else if (t->lib == LIB_KHASH) kh_destroy(m64, t->kh);
  else hmfree(t->stb);
}

static inline void table_put(table *t, int64_t key, int64_t value) {
  if (t->lib == LIB_TL) {
    (void)tl_i64_dict_try_add(t->dict, key, value);
  } else if (t->lib == LIB_KHASH) {
    int ret;
    khint_t k = kh_put(m64, t->kh, key, &ret);
    kh_value(t->kh, k) = value;
  } else {
    hmput(t->stb, key, value);
  }
}

static inline void table_del(table *t, int64_t key) {
  if (t->lib == LIB_TL) {
    (void)tl_i64_dict_remove(t->dict, key);
  } else if (t->lib == LIB_KHASH) {
    khint_t k = kh_get(m64, t->kh, key);
    if (k != kh_end(t->kh)) kh_del(m64, t->kh, k);
  } else {
    (void)hmdel(t->stb, key);
  }
}

/* Each timed loop is written out per library, so that the library's own code is inlined into
 * it and nothing but the lookup is measured. */
static double time_hits(table *t, const int64_t *keys, uint32_t n) {
  int64_t sum = 0;
  uint32_t i;
  double start = now_ns();
  if (t->lib == LIB_TL) {
    for (i = 0; i < n; i++) sum += *tl_i64_dict_get(t->dict, keys[i]);
  } else if (t->lib == LIB_KHASH) {
    for (i = 0; i < n; i++) sum += kh_value(t->kh, kh_get(m64, t->kh, keys[i]));
  } else {
    for (i = 0; i < n; i++) sum += hmget(t->stb, keys[i]);
  }
  start = now_ns() - start;
  sink += sum;
  return start;
}

static double time_misses(table *t, const int64_t *keys, uint32_t n) {
  int64_t found = 0;
  uint32_t i;
  double start = now_ns();
  if (t->lib == LIB_TL) {
    for (i = 0; i < n; i++) found += tl_i64_dict_get(t->dict, keys[i]) != NULL;
  } else if (t->lib == LIB_KHASH) {
    for (i = 0; i < n; i++) found += kh_get(m64, t->kh, keys[i]) != kh_end(t->kh);
  } else {
    for (i = 0; i < n; i++) found += hmgeti(t->stb, keys[i]) >= 0;
  }
  start = now_ns() - start;
  if (found) {
    fprintf(stderr, "bench_mem: %s found an absent key\n", lib_names[t->lib]);
    exit(1);
  }
  return start;
}

static double time_inserts(table *t, const int64_t *keys, uint32_t n) {
  uint32_t i;
  double start = now_ns();
  for (i = 0; i < n; i++) table_put(t, keys[i], (int64_t)i);
  return now_ns() - start;
}

/* Remove keys[order[i]] and add it back. */
static double time_churn_same(table *t, const int64_t *keys, const uint32_t *order, uint32_t n) {
  uint32_t i;
  double start = now_ns();
  for (i = 0; i < n; i++) {
    int64_t key = keys[order[i]];
    table_del(t, key);
    table_put(t, key, (int64_t)i);
  }
  return now_ns() - start;
}

/* Remove keys[first + i], add keys[first + n + i]: the window of live keys slides forward. */
static double time_churn_new(table *t, const int64_t *keys, uint32_t first, uint32_t n) {
  uint32_t i;
  double start = now_ns();
  for (i = 0; i < n; i++) {
    table_del(t, keys[first + i]);
    table_put(t, keys[first + n + i], (int64_t)i);
  }
  return now_ns() - start;
}

/* Bytes of the filled table: stb_ds's entry array and hash index, khash's keys, values and flags. */
static size_t table_bytes(const table *t) {
  if (t->lib == LIB_TL) return TL_LAYOUT_DICT_BYTES(t->capacity, 8, 8);
  if (t->lib == LIB_KHASH) return (size_t)kh_n_buckets(t->kh) * (2 * sizeof(int64_t)) + kh_n_buckets(t->kh) / 4;
  {
    const stbds_array_header *h = stbds_header(t->stb - 1); /* hm arrays start after a default entry */
    const stbds_hash_index *index = (const stbds_hash_index *)h->hash_table;
    return sizeof *h + h->capacity * sizeof(stb_entry) + sizeof *index +
           (index->slot_count >> STBDS_BUCKET_SHIFT) * sizeof(stbds_hash_bucket);
  }
}

static uint32_t table_count(const table *t) {
  if (t->lib == LIB_TL) return tl_i64_dict_count(t->dict);
  if (t->lib == LIB_KHASH) return (uint32_t)kh_size(t->kh);
  return (uint32_t)hmlen(t->stb);
}

/* Shuffles a[0..n-1] in the order `seed` picks, so that every library looks its keys up in the
 * same order. */
static void shuffle(int64_t *a, uint32_t n, uint64_t seed) {
  uint32_t i;
  for (i = n; i > 1; i--) {
    uint32_t j = (uint32_t)(mix64(seed += 0x9E3779B97F4A7C15ull) % i);
    int64_t x = a[i - 1];
    a[i - 1] = a[j];
    a[j] = x;
  }
}

#define TURNOVERS 8

/* Every round fills one table of each library with the same keys and times its operations in
 * turn, the libraries taking turns to go first; each library looks up the same keys in the same
 * orders. A library's operations run back to back on its own table, and only one table is alive
 * at a time, so each operation meets the caches as that library's previous one left them. */
static void run_case(uint32_t capacity, double load, int rounds, totals *out) {
  const uint32_t n = (uint32_t)(capacity * load);
  const int passes = capacity < 100000 ? 4 : 1;
  const size_t pool = (size_t)n * (TURNOVERS + 1) + n; /* churn-new keys, then the misses */
  int64_t *keys = (int64_t *)malloc(pool * sizeof(int64_t));
  int64_t *lookups = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  uint32_t *order = (uint32_t *)malloc((size_t)n * sizeof(uint32_t));
  int round, turn;
  if (!keys || !lookups || !order) {
    fprintf(stderr, "bench_mem: out of memory\n");
    exit(1);
  }
  memset(out, 0, LIB_COUNT * sizeof(totals));
  if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
  for (round = 0; round < rounds; round++) {
    const uint64_t scramble = rng(), lookup_seed = rng();
    size_t i;
    for (i = 0; i < pool; i++) keys[i] = (int64_t)mix64((uint64_t)i * 0x9E3779B97F4A7C15ull + scramble);
    for (i = 0; i < n; i++) order[i] = (uint32_t)(rng() % n);
    for (turn = 0; turn < LIB_COUNT; turn++) {
      const int lib = (round + turn) % LIB_COUNT;
      totals *tt = &out[lib];
      table t;
      double hit = 0, miss = 0;
      int pass, turnover;
      table_open(&t, lib, capacity, n);
      tt->per_round[OP_INSERT][round] = time_inserts(&t, keys, n) / n;
      tt->bytes = table_bytes(&t);
      for (pass = 0; pass < passes; pass++) {
        /* Shuffled just before each loop, as the keys a game looks up are at hand: in a
         * 1,048,576-slot table, looking keys up from an array shuffled before the table was
         * filled took twice the time per miss (11 to 21 ns), khash's too (19 to 23 ns). */
        memcpy(lookups, keys, (size_t)n * sizeof(int64_t));
        shuffle(lookups, n, lookup_seed + 2u * (uint64_t)pass);
        hit += time_hits(&t, lookups, n);
        memcpy(lookups, keys + (pool - n), (size_t)n * sizeof(int64_t));
        shuffle(lookups, n, lookup_seed + 2u * (uint64_t)pass + 1u);
        miss += time_misses(&t, lookups, n);
      }
      tt->per_round[OP_HIT][round] = hit / ((double)n * passes);
      tt->per_round[OP_MISS][round] = miss / ((double)n * passes);
      tt->per_round[OP_CHURN_SAME][round] = time_churn_same(&t, keys, order, n) / n;
      for (turnover = 0; turnover < TURNOVERS; turnover++) {
        double ns = time_churn_new(&t, keys, (uint32_t)turnover * n, n) / n;
        if (turnover == 0) tt->per_round[OP_CHURN_NEW_1][round] = ns;
        else if (turnover == TURNOVERS - 1) tt->per_round[OP_CHURN_NEW_8][round] = ns;
      }
      tt->rounds = round + 1;
      if (table_count(&t) != n) {
        fprintf(stderr, "bench_mem: %s holds %u keys, expected %u\n", lib_names[lib], table_count(&t), n);
        exit(1);
      }
      /* The live keys are the last window; every one is still found. */
      memcpy(lookups, keys + (size_t)TURNOVERS * n, (size_t)n * sizeof(int64_t));
      (void)time_hits(&t, lookups, n);
      table_close(&t);
    }
  }
  free(keys);
  free(lookups);
  free(order);
}

/* ---- hashes ---- */

/* A timing loop: ns for `calls` hashes of `length` bytes from `buffer`, their sum in *acc. */
typedef double (*hash_loop)(const unsigned char *buffer, size_t length, uint64_t calls,
                            uint64_t *acc);

static double tl_xxh64_loop(const unsigned char *buffer, size_t length, uint64_t calls,
                            uint64_t *acc) {
  uint64_t sum = 0, c;
  double t0 = now_ns();
  for (c = 0; c < calls; c++) sum += tl_hash64(buffer + (c & 63), length, c);
  t0 = now_ns() - t0;
  *acc = sum;
  return t0;
}

static double tl_xxh32_key_loop(const unsigned char *buffer, size_t length, uint64_t calls,
                                uint64_t *acc) {
  uint64_t sum = 0, c;
  double t0 = now_ns();
  if (length == 4)
    for (c = 0; c < calls; c++) sum += tl_hash32_4(buffer + (c & 1023), 0);
  else
    for (c = 0; c < calls; c++) sum += tl_hash32_8(buffer + (c & 1023), 0);
  t0 = now_ns() - t0;
  *acc = sum;
  return t0;
}

/* Times `trials` pairs of short loops, ours and libxxhash's, alternating which goes first, and
 * prints the median time of each and the median of the per-pair ratios. A ratio taken within a
 * pair (a millisecond apart) cancels the host's slower swings; a ratio of two best times taken
 * over seconds did not (64 bytes: 0.99x-1.12x over three runs of one binary). */
static void bench_hash_pairs(const char *label, hash_loop ours, hash_loop lib,
                             const unsigned char *buffer, size_t length, uint64_t calls,
                             int trials) {
  double *ours_ns = (double *)malloc(sizeof(double) * 3 * (size_t)trials);
  double *lib_ns = ours_ns + trials, *ratio = ours_ns + 2 * (size_t)trials;
  int t;
  if (!ours_ns) return;
  for (t = 0; t < trials; t++) {
    uint64_t acc_ours = 0, acc_lib = 0;
    double a, b;
    if (t & 1) {
      a = ours(buffer, length, calls, &acc_ours);
      b = lib(buffer, length, calls, &acc_lib);
    } else {
      b = lib(buffer, length, calls, &acc_lib);
      a = ours(buffer, length, calls, &acc_ours);
    }
    sink += (int64_t)(acc_ours + acc_lib);
    ours_ns[t] = a / (double)calls;
    lib_ns[t] = b / (double)calls;
    ratio[t] = a / b;
  }
  printf("%-34s %10.2f %17.2f %8.3f\n", label, median_of(ours_ns, trials),
         median_of(lib_ns, trials), median_of(ratio, trials));
  free(ours_ns);
}

static void bench_hashes(int quick) {
  static const size_t lengths[] = {4, 8, 16, 64, 256, 1024, 16384, 1 << 20};
  const int trials = quick ? 51 : 401;
  size_t buffer_bytes = (1 << 20) + 1024, li;
  unsigned char *buffer = (unsigned char *)malloc(buffer_bytes);
  char label[64];
  size_t i;
  if (!buffer) return;
  for (i = 0; i < buffer_bytes; i++) buffer[i] = (unsigned char)rng();
  printf("\nhashes: medians of %d interleaved pairs of loops\n", trials);
  printf("%-34s %10s %17s %8s\n", "", "tl ns/call", "libxxhash ns/call", "tl/lib");
  for (li = 0; li < sizeof lengths / sizeof lengths[0]; li++) {
    const size_t length = lengths[li];
    /* About 2 MB hashed per loop (at least 4 calls); offsets vary over 64 positions. */
    uint64_t calls = (uint64_t)2e6 / (length < 64 ? 64 : length);
    if (calls < 4) calls = 4;
    snprintf(label, sizeof label, "XXH64 %8zu bytes", length);
    bench_hash_pairs(label, tl_xxh64_loop, bench_lib_xxh64_loop, buffer, length, calls, trials);
  }
  for (i = 4; i <= 8; i += 4) {
    snprintf(label, sizeof label, "XXH32 %8zu bytes (tl_hash32_%zu)", i, i);
    bench_hash_pairs(label, tl_xxh32_key_loop, bench_lib_xxh32_loop, buffer, i, 30000, trials);
  }
  free(buffer);
}

static int rounds_for(uint32_t capacity, int quick) {
  return capacity < 100000 ? (quick ? 40 : 400) : (quick ? 1 : 9);
}

static void print_case(uint32_t capacity, double load, const totals *t) {
  int op;
  for (op = 0; op < OP_COUNT; op++) {
    double v[LIB_COUNT];
    int lib;
    for (lib = 0; lib < LIB_COUNT; lib++) v[lib] = median(&t[lib], op);
    printf("%-9u %-4.2f %-14s %10.2f %10.2f %10.2f %9.3f %9.3f\n", capacity, load, op_names[op],
           v[LIB_TL], v[LIB_KHASH], v[LIB_STB], median_ratio(&t[LIB_TL], &t[LIB_KHASH], op),
           median_ratio(&t[LIB_TL], &t[LIB_STB], op));
  }
  printf("%-9u %-4.2f churn-new 8th/1st: threadlink %.3f, khash %.3f, stb_ds %.3f\n", capacity, load,
         median(&t[LIB_TL], OP_CHURN_NEW_8) / median(&t[LIB_TL], OP_CHURN_NEW_1),
         median(&t[LIB_KHASH], OP_CHURN_NEW_8) / median(&t[LIB_KHASH], OP_CHURN_NEW_1),
         median(&t[LIB_STB], OP_CHURN_NEW_8) / median(&t[LIB_STB], OP_CHURN_NEW_1));
  fflush(stdout);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
  int hashes_only = argc > 1 && strcmp(argv[1], "hashes") == 0;
  static const uint32_t capacities[] = {1024, 1048576};
  static const double loads[] = {0.5, 0.75, 0.9};
  int pinned = 0;
  size_t c, l;
  {
    cpu_set_t set;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    CPU_ZERO(&set);
    CPU_SET((int)(cpus > 1 ? cpus - 1 : 0), &set);
    pinned = sched_setaffinity(0, sizeof set, &set) == 0;
  }
  printf("threadlink mem benchmark (%s, %s)\n", quick ? "quick" : hashes_only ? "hashes" : "full",
         pinned ? "pinned to one CPU" : "not pinned");
  if (hashes_only) {
    bench_hashes(0);
    return 0;
  }
  printf("ns per operation (medians over rounds); ratios are medians of each round's own ratio,\n"
         "below 1 when threadlink is faster\n\n");
  printf("%-9s %-4s %-14s %10s %10s %10s %9s %9s\n", "capacity", "load", "operation", "threadlink",
         "khash", "stb_ds", "tl/khash", "tl/stb");
  for (c = 0; c < 2; c++) {
    for (l = 0; l < 3; l++) {
      static totals t[LIB_COUNT];
      run_case(capacities[c], loads[l], rounds_for(capacities[c], quick), t);
      print_case(capacities[c], loads[l], t);
      printf("\n");
    }
  }
  printf("The keys of load 0.9 in twice the capacity:\n");
  for (c = 0; c < 2; c++) {
    static totals t[LIB_COUNT];
    run_case(2 * capacities[c], 0.45, rounds_for(capacities[c], quick), t);
    print_case(2 * capacities[c], 0.45, t);
    printf("%-9u %-4.2f bytes once filled: threadlink %zu, khash %zu, stb_ds %zu\n\n",
           2 * capacities[c], 0.45, t[LIB_TL].bytes, t[LIB_KHASH].bytes, t[LIB_STB].bytes);
  }
  bench_hashes(quick);
  return 0;
}
