/* Vault benchmark: typed getter vs direct struct access, generic access by id, serialise and
 * deserialise (the 23-field golden vault of tests/vault/project, collections included, and a
 * 32-field vault built on it for the target), and generation of 1,000 schemas with 10,000 data files. Prints medians of 9 runs and ratios; the
 * descriptor access and serialisation are also measured against vault_baseline.h (the code before
 * the issue 7 performance work) in the same run.
 *   bench_vault THREADLINK_GEN */
#define TL_IMPLEMENTATION
#include "vaults/things_data.h"
#include "vault_baseline.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

#define RUNS 9
#define N 1024
static every_vault vaults[N];
static volatile int64_t sink;

/* A 32-field vault for the target: every_vault's 23 fields and nine more scalars,
 * described by hand the way a tool would (ids spread like the Vault.Fields hashes). */
typedef struct wide_vault {
    every_vault base; /* the 23 fields at their offsets; its listener is the vault's */
    int32_t Armor, Level, Gold;
    float Reach, Weight;
    tl_fp Crit, Dodge;
    tl_vault_vector3 Spawn;
    int64_t Seed;
} wide_vault;
#define WIDE_FIELDS 32
static tl_vault_field_desc wide_fields[WIDE_FIELDS];
static uint16_t wide_order[WIDE_FIELDS];
static tl_vault_desc wide_desc;
static wide_vault wide_defaults, wide_source, wides[N];

static void wide_setup(void)
{
    static const struct { uint32_t tag, offset, size; } extra[9] = {
        {TL_VAULT_INTEGER, offsetof(wide_vault, Armor), 4}, {TL_VAULT_INTEGER, offsetof(wide_vault, Level), 4},
        {TL_VAULT_INTEGER, offsetof(wide_vault, Gold), 4}, {TL_VAULT_FLOAT, offsetof(wide_vault, Reach), 4},
        {TL_VAULT_FLOAT, offsetof(wide_vault, Weight), 4}, {TL_VAULT_FP, offsetof(wide_vault, Crit), 8},
        {TL_VAULT_FP, offsetof(wide_vault, Dodge), 8}, {TL_VAULT_VECTOR3D, offsetof(wide_vault, Spawn), 12},
        {TL_VAULT_LONG, offsetof(wide_vault, Seed), 8}};
    memcpy(wide_fields, every_vault_fields, sizeof every_vault_fields);
    for (int i = 0; i < 9; i++) {
        tl_vault_field_desc *f = &wide_fields[EVERY_VAULT_FIELD_COUNT + i];
        f->id = (uint32_t)(i + 1) * 2654435761u + 977u; /* Knuth's multiplicative spread */
        f->tag = extra[i].tag;
        f->offset = extra[i].offset;
        f->size = extra[i].size;
        f->capacity = 0;
        f->backing = TL_VAULT_SERIALISED;
        f->name = "extra";
    }
    for (int i = 0; i < WIDE_FIELDS; i++) { /* insertion sort of the indexes by id */
        int j = i;
        while (j > 0 && wide_fields[wide_order[j - 1]].id > wide_fields[i].id) {
            wide_order[j] = wide_order[j - 1];
            j--;
        }
        wide_order[j] = (uint16_t)i;
    }
    for (int i = 1; i < WIDE_FIELDS; i++)
        if (wide_fields[wide_order[i - 1]].id == wide_fields[wide_order[i]].id) abort();
    wide_desc.name = "Wide";
    wide_desc.id = 0x57494445u;
    wide_desc.size = (uint32_t)sizeof(wide_vault);
    wide_desc.field_count = WIDE_FIELDS;
    wide_desc.fields = wide_fields;
    wide_desc.order = wide_order;
    wide_desc.listener_offset = (uint32_t)offsetof(wide_vault, base.tl_listener);
    wide_desc.defaults = &wide_defaults;
    every_vault_init(&wide_defaults.base);
    wide_source = wide_defaults;
    wide_source.base = things_instances[0];
    wide_source.Armor = 12;
    wide_source.Level = 3;
    wide_source.Gold = 1000;
    wide_source.Reach = 2.5f;
    wide_source.Weight = 80.0f;
    wide_source.Crit = tl_fp_from_int(2);
    wide_source.Dodge = tl_fp_from_int(-1);
    wide_source.Spawn.x = 4.0f;
    wide_source.Seed = 1234567;
    for (int i = 0; i < N; i++) wides[i] = wide_defaults;
}

static double median(double *t)
{
    qsort(t, RUNS, sizeof *t, cmp);
    return t[RUNS / 2];
}

int main(int argc, char **argv)
{
    for (int i = 0; i < N; i++) {
        every_vault_init(&vaults[i]);
        vaults[i].Health = i;
    }
    double direct[RUNS], getter[RUNS], generic[RUNS], desc[RUNS], ser[RUNS], de[RUNS], bdesc[RUNS], bser[RUNS], bde[RUNS];
    double wser[RUNS], wde[RUNS], bwser[RUNS], bwde[RUNS], typed[RUNS], btyped[RUNS];
    size_t wn = 0;
    wide_setup();
    const int reps = 2000;
    for (int r = 0; r < RUNS; r++) {
        int64_t s = 0;
        double t0 = now();
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N; i++) s += vaults[i].Health;
        double t1 = now();
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N; i++) s += every_vault_get_Health(&vaults[i]);
        double t2 = now();
        sink = s;
        direct[r] = (t1 - t0) / ((double)reps * N) * 1e9;
        getter[r] = (t2 - t1) / ((double)reps * N) * 1e9;
        /* Generic access by id: a different field each time, so the switch is exercised. */
        static const uint32_t ids[4] = {EVERY_VAULT_ID_Health, EVERY_VAULT_ID_Cell, EVERY_VAULT_ID_Loot, EVERY_VAULT_ID_Damage};
        static const uint32_t tags[4] = {TL_VAULT_INTEGER, TL_VAULT_INTEGER2D, 0, TL_VAULT_FP};
        int64_t out[32]; /* the largest field, Loot, is 104 bytes */
        t0 = now();
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N; i++) {
                s += every_vault_try_get(&vaults[i], ids[i & 3], tags[i & 3] ? tags[i & 3] : every_vault_fields[22].tag, out);
                s += out[0];
            }
        t1 = now();
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N; i++) {
                s += tl_vault_try_get(&every_vault_desc, &vaults[i], ids[i & 3], tags[i & 3] ? tags[i & 3] : every_vault_fields[22].tag, out);
                s += out[0];
            }
        t2 = now();
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N; i++) {
                s += tlb_vault_try_get(&every_vault_desc, &vaults[i], ids[i & 3], tags[i & 3] ? tags[i & 3] : every_vault_fields[22].tag, out);
                s += out[0];
            }
        double t3 = now();
        /* The typed wrappers (Health and Damage alternately) against the baseline's generic get. */
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N; i++) {
                int32_t h = 0;
                tl_fp f = {0};
                if (i & 1) s += tl_vault_try_get_integer(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Health, &h);
                else s += tl_vault_try_get_fp(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Damage, &f);
                s += h + f.raw;
            }
        double t4 = now();
        for (int k = 0; k < reps; k++)
            for (int i = 0; i < N; i++) {
                int32_t h = 0;
                tl_fp f = {0};
                if (i & 1) s += tlb_vault_try_get(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Health, TL_VAULT_INTEGER, &h);
                else s += tlb_vault_try_get(&every_vault_desc, &vaults[i], EVERY_VAULT_ID_Damage, TL_VAULT_FP, &f);
                s += h + f.raw;
            }
        double t5 = now();
        typed[r] = (t4 - t3) / ((double)reps * N) * 1e9;
        btyped[r] = (t5 - t4) / ((double)reps * N) * 1e9;
        sink = s;
        generic[r] = (t1 - t0) / ((double)reps * N) * 1e9;
        desc[r] = (t2 - t1) / ((double)reps * N) * 1e9;
        bdesc[r] = (t3 - t2) / ((double)reps * N) * 1e9;
        unsigned char bytes[1024];
        size_t n = 0;
        const int sreps = 200000;
        t0 = now();
        for (int k = 0; k < sreps; k++) {
            tl_vault_write(&every_vault_desc, &things_instances[k & 1], bytes, sizeof bytes, &n);
            s += bytes[n - 1];
        }
        t1 = now();
        for (int k = 0; k < sreps; k++) s += tl_vault_read(&every_vault_desc, &vaults[k & (N - 1)], bytes, n);
        t2 = now();
        unsigned char bbytes[1024];
        size_t bn = 0;
        for (int k = 0; k < sreps; k++) {
            tlb_vault_write(&every_vault_desc, &things_instances[k & 1], bbytes, sizeof bbytes, &bn);
            s += bbytes[bn - 1];
        }
        t3 = now();
        for (int k = 0; k < sreps; k++) s += tlb_vault_read(&every_vault_desc, &vaults[k & (N - 1)], bbytes, bn);
        t4 = now();
        sink = s;
        if (bn != n || memcmp(bytes, bbytes, n) != 0) {
            fprintf(stderr, "bench_vault: tl_vault_write and the baseline disagree\n");
            return 1;
        }
        ser[r] = (t1 - t0) / sreps * 1e9;
        de[r] = (t2 - t1) / sreps * 1e9;
        bser[r] = (t3 - t2) / sreps * 1e9;
        bde[r] = (t4 - t3) / sreps * 1e9;
        /* The 32-field vault: ours, then the baseline. */
        unsigned char wbytes[1024], bwbytes[1024];
        size_t bwn = 0;
        t0 = now();
        for (int k = 0; k < sreps; k++) {
            tl_vault_write(&wide_desc, &wide_source, wbytes, sizeof wbytes, &wn);
            s += wbytes[wn - 1];
        }
        t1 = now();
        for (int k = 0; k < sreps; k++) s += tl_vault_read(&wide_desc, &wides[k & (N - 1)], wbytes, wn);
        t2 = now();
        for (int k = 0; k < sreps; k++) {
            tlb_vault_write(&wide_desc, &wide_source, bwbytes, sizeof bwbytes, &bwn);
            s += bwbytes[bwn - 1];
        }
        t3 = now();
        for (int k = 0; k < sreps; k++) s += tlb_vault_read(&wide_desc, &wides[k & (N - 1)], bwbytes, bwn);
        t4 = now();
        sink = s;
        if (bwn != wn || memcmp(wbytes, bwbytes, wn) != 0 || memcmp(&wides[0], &wide_source, sizeof wide_source) != 0) {
            fprintf(stderr, "bench_vault: the 32-field vault does not round-trip or disagrees with the baseline\n");
            return 1;
        }
        wser[r] = (t1 - t0) / sreps * 1e9;
        wde[r] = (t2 - t1) / sreps * 1e9;
        bwser[r] = (t3 - t2) / sreps * 1e9;
        bwde[r] = (t4 - t3) / sreps * 1e9;
    }
    double d = median(direct), g = median(getter);
    printf("typed getter          %6.3f ns  direct struct access %6.3f ns  ratio %.3f (target <= 1.05)\n", g, d, g / d);
    printf("generic try_get by id %6.3f ns  (generated switch; target < 5 ns)\n", median(generic));
    double ty = median(typed), bty = median(btyped);
    printf("tl_vault_try_get_integer/_fp %6.3f ns  baseline %6.3f ns  ratio %.3f  (typed wrappers by id; target < 5 ns)\n",
           ty, bty, ty / bty);
    double dd = median(desc), bd = median(bdesc), sr = median(ser), bs = median(bser), dr = median(de), bdr = median(bde);
    printf("tl_vault_try_get      %6.3f ns  baseline %6.3f ns  ratio %.3f  (descriptor; target < 5 ns)\n", dd, bd, dd / bd);
    size_t n0 = tl_vault_serialised_size(&every_vault_desc, &things_instances[0]);
    size_t n1 = tl_vault_serialised_size(&every_vault_desc, &things_instances[1]);
    printf("serialise   (%2d fields, %zu/%zu bytes) %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           EVERY_VAULT_FIELD_COUNT, n0, n1, sr, bs, sr / bs);
    printf("deserialise (%2d fields, %zu bytes)     %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           EVERY_VAULT_FIELD_COUNT, n1, dr, bdr, dr / bdr);
    double ws = median(wser), bws = median(bwser), wd = median(wde), bwd = median(bwde);
    printf("serialise   (%2d fields, %zu bytes)     %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           WIDE_FIELDS, wn, ws, bws, ws / bws);
    printf("deserialise (%2d fields, %zu bytes)     %7.1f ns  baseline %7.1f ns  ratio %.3f  (target < 1000 ns)\n",
           WIDE_FIELDS, wn, wd, bwd, wd / bwd);

    if (argc < 2) return 0;
    /* Generation: 1,000 schemas of 10 fields, 10,000 data files of 2 instances. */
    char dir[] = "/tmp/tl-vault-bench-XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char path[512];
    snprintf(path, sizeof path, "%s/injectors", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/vaults", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/vaultdata", dir);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/threadlink.json", dir);
    FILE *f = fopen(path, "w");
    fputs("{ \"domains\": [ { \"name\": \"Vault.Fields\", \"output\": \"vault_fields.h\", \"reserve_zero\": true } ],\n"
          "  \"vaults\": { \"schemas\": \"vaults\", \"data\": \"vaultdata\" } }\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/injectors/Vault.Fields.User.txt", dir);
    f = fopen(path, "w");
    for (int i = 0; i < 100; i++) fprintf(f, "Field%d\n", i);
    fclose(f);
    static const char *const types[5] = {"\"Integer\", \"default\": 3", "\"FP\", \"default\": \"1.25\"", "\"Float\"",
                                         "\"String\", \"capacity\": 15", "\"InlineList\", \"element\": \"Integer\", \"capacity\": 4"};
    for (int s = 0; s < 1000; s++) {
        snprintf(path, sizeof path, "%s/vaults/V%d.vault.json", dir, s);
        f = fopen(path, "w");
        fprintf(f, "{ \"name\": \"V%d\", \"fields\": [\n", s);
        for (int k = 0; k < 10; k++)
            fprintf(f, "  { \"field\": \"Field%d\", \"type\": %s }%s\n", (s + k * 7) % 100, types[k % 5], k < 9 ? "," : "");
        fputs("] }\n", f);
        fclose(f);
    }
    static const char *const values[5] = {"7", "\"-2.5\"", "0.5", "\"name\"", "[1, 2, 3]"};
    for (int d = 0; d < 10000; d++) {
        int s = d % 1000;
        snprintf(path, sizeof path, "%s/vaultdata/d%d.vaultdata.json", dir, d);
        f = fopen(path, "w");
        fprintf(f, "{ \"vault\": \"V%d\", \"instances\": [\n", s);
        for (int i = 0; i < 2; i++) {
            fprintf(f, "  { \"name\": \"I%d\", \"values\": {", i);
            for (int k = 0; k < 10; k += 2)
                fprintf(f, "%s \"Field%d\": %s", k ? "," : "", (s + k * 7) % 100, values[k % 5]);
            fprintf(f, " } }%s\n", i ? "" : ",");
        }
        fputs("] }\n", f);
        fclose(f);
    }
    double gen[3];
    char cmd[1024];
    for (int r = 0; r < 3; r++) {
        snprintf(cmd, sizeof cmd, "rm -rf %s/generated && %s generate --quiet -C %s", dir, argv[1], dir);
        double t0 = now();
        if (system(cmd) != 0) return 1;
        gen[r] = now() - t0;
    }
    qsort(gen, 3, sizeof *gen, cmp);
    printf("generate 1,000 schemas + 10,000 data files (11,000 headers): %.2f s median of 3 (target < 2 s)\n", gen[1]);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : 1;
}
