/* The reference-count invariants under millions of random operations, against a simple model:
 * per asset a count (scope keys plus raw handles), a state (none, loading, loaded) and the frame
 * from which an unreferenced asset may be released; per scope the set of keys it holds.
 * Every operation's result, and after it the touched asset's slot (count, state, decodes), is
 * compared with the model; everything is compared every 4096 operations; the run ends with zero
 * live slots and zero live decoded objects (and, under ASan, zero leaks).
 *
 *   test_content_model FIXTURE_PROJECT [OPERATIONS]   (default 2,000,000 over four configurations) */
#define TL_IMPLEMENTATION
#include "content_test_util.h"

#include <assert.h>

#define CHECK(cond)                                                                                  \
    do {                                                                                             \
        if (!(cond)) {                                                                               \
            fprintf(stderr, "model mismatch at op %lu (seed %llu): %s (line %d)\n", g_op,            \
                    (unsigned long long)g_seed, #cond, __LINE__);                                    \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

#define NA 32
#define MAX_SCOPES 48
#define MAX_RAW 64

static unsigned long g_op;
static uint64_t g_seed, g_rng;

static uint64_t rnd(void) {
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint32_t below(uint32_t n) { return (uint32_t)(rnd() % n); }

typedef struct masset {
    uint32_t id;
    const char *name;
    int count, state, stage; /* state: 0 none, 1 loading (stage 0 queued, 1 in flight), 2 loaded */
    bool queued;
    uint64_t eligible;
    unsigned long decodes;
    tl_asset last; /* the last handle a load returned, valid until the asset is released */
    bool last_valid;
} masset;
typedef struct mscope { tl_scope h; int parent; bool alive; uint32_t held; } mscope;
typedef struct mraw { tl_content_handle h; int asset; bool alive; } mraw;

typedef struct model {
    tl_content *c;
    kind_counter kind;
    masset a[NA];
    int na;
    mscope s[MAX_SCOPES];
    mraw r[MAX_RAW];
    uint64_t frame, delay;
    bool async_io;
} model;

static const tl__content_slot *slot_of(model *m, int i) {
    tl__content_entry *e = tl__content_entry_of(m->c, m->a[i].id);
    return e && e->slot != TL__CONTENT_NONE ? &m->c->slots[e->slot] : NULL;
}

static void check_asset(model *m, int i) {
    const tl__content_slot *s = slot_of(m, i);
    const masset *a = &m->a[i];
    if (a->state == 0) {
        CHECK(s == NULL);
        CHECK(a->count == 0);
        return;
    }
    CHECK(s != NULL);
    CHECK((int)s->count == a->count);
    CHECK(s->state == (a->state == 1 ? TL__SLOT_LOADING : TL__SLOT_READY));
}

static void check_all(model *m) {
    int i, k, refs = 0, live = 0;
    tl_content_stats st = tl_content_get_stats(m->c);
    for (i = 0; i < m->na; i++) {
        check_asset(m, i);
        live += m->a[i].state != 0;
        if (m->a[i].last_valid) CHECK(tl_asset_valid(m->a[i].last));
        else CHECK(!tl_asset_valid(m->a[i].last));
    }
    for (k = 0; k < MAX_SCOPES; k++) {
        uint32_t n = 0, b;
        if (!m->s[k].alive) {
            CHECK(!tl_scope_valid(m->s[k].h));
            continue;
        }
        for (b = m->s[k].held; b; b &= b - 1) n++;
        CHECK(tl_scope_count(m->s[k].h) == n);
        refs += (int)n;
    }
    for (k = 0; k < MAX_RAW; k++) {
        refs += m->r[k].alive;
        CHECK(tl_content_handle_valid(m->r[k].h) == m->r[k].alive);
    }
    CHECK((int)st.references == refs);
    CHECK((int)st.live_assets == live);
    CHECK(tl_content_live_assets(m->c) == (uint32_t)live);
    {
        unsigned long d = 0;
        for (i = 0; i < m->na; i++) d += m->a[i].decodes;
        CHECK(d == m->kind.decodes);
        CHECK(m->kind.live == live - (int)st.loading);
    }
}

/* ---- the model's rules ---------------------------------------------------------------------- */

static void m_complete(model *m, int i) {
    m->a[i].state = 2;
    m->a[i].decodes++;
    if (m->a[i].count == 0) {
        m->a[i].queued = true;
        m->a[i].eligible = m->frame;
    }
}

static void m_acquire(model *m, int i, bool async) {
    masset *a = &m->a[i];
    if (a->state == 0) {
        a->state = 1;
        a->stage = 0;
    }
    a->count++;
    if (a->state == 1 && !async) m_complete(m, i);
}

static void m_decref(model *m, int i) {
    masset *a = &m->a[i];
    a->count--;
    if (a->count == 0 && a->state == 2) {
        a->queued = true;
        a->eligible = m->frame + m->delay;
    }
}

static void m_update(model *m) {
    int i;
    /* Loads: the default backend completes queued loads; the asynchronous one begins them, and
       completes those begun in the previous update. */
    for (i = 0; i < m->na; i++) {
        masset *a = &m->a[i];
        if (a->state != 1) continue;
        if (m->async_io && a->stage == 0) a->stage = 2; /* begun now: complete next update */
        else if (!m->async_io || a->stage == 1) m_complete(m, i);
    }
    for (i = 0; i < m->na; i++)
        if (m->a[i].state == 1 && m->a[i].stage == 2) m->a[i].stage = 1;
    for (i = 0; i < m->na; i++) {
        masset *a = &m->a[i];
        if (!a->queued) continue;
        if (a->count > 0) {
            a->queued = false;
        } else if (a->eligible <= m->frame) {
            a->queued = false;
            a->state = 0;
            a->last_valid = false;
        }
    }
    m->frame++;
    tl_content_update(m->c);
}

static void m_dispose(model *m, int k) {
    int j;
    uint32_t b;
    for (j = 0; j < MAX_SCOPES; j++)
        if (m->s[j].alive && m->s[j].parent == k) m_dispose(m, j);
    for (b = 0; b < NA; b++)
        if (m->s[k].held & (1u << b)) m_decref(m, (int)b);
    m->s[k].held = 0;
    m->s[k].alive = false;
}

static int pick_scope(model *m, bool alive_only) {
    int tries;
    for (tries = 0; tries < 64; tries++) {
        int k = (int)below(MAX_SCOPES);
        if (m->s[k].alive || (!alive_only && m->s[k].h.ctx)) return k;
    }
    return 0; /* the root is always alive */
}

static void note_load(model *m, int i, tl_asset got) {
    if (m->a[i].state != 0) {
        CHECK(tl_asset_valid(got));
        CHECK(tl_asset_id(got) == m->a[i].id);
        m->a[i].last = got;
        m->a[i].last_valid = true;
    }
}

/* The model's operations, one each: what it does to the runtime and to the model; false (or -1)
   when it did nothing whose asset op() should compare afterwards. */
static bool op_create_child(model *m, int k) {
    mscope *s = &m->s[k];
    int j;
    for (j = 1; j < MAX_SCOPES && m->s[j].alive; j++) {
    }
    if (j == MAX_SCOPES || !s->alive) return false;
    m->s[j].h = tl_scope_create(s->h, below(2) ? "Explicit" : "Owned",
                                below(3) == 0 ? TL_SCOPE_EXPLICIT : below(2) ? TL_SCOPE_LEVEL : TL_SCOPE_ENTITY);
    CHECK(tl_scope_valid(m->s[j].h));
    m->s[j].parent = k;
    m->s[j].alive = true;
    m->s[j].held = 0;
    return true;
}

static void op_dispose(model *m, int k) {
    mscope *s = &m->s[k];
    tl_content_result r = tl_scope_dispose(s->h);
    bool ok = r == TL_CONTENT_OK;
    CHECK(r == (!s->alive ? TL_CONTENT_STALE_SCOPE : k == 0 ? TL_CONTENT_ROOT_DISPOSE : TL_CONTENT_OK));
    if (ok) m_dispose(m, k);
}

static bool op_load(model *m, int i, int k) { /* sync or async, by id or name */
    mscope *s = &m->s[k];
    uint32_t bit = 1u << i;
    bool async = below(3) == 0;
    tl_asset got = below(4) == 0 ? (async ? tl_scope_load_name_async(s->h, m->a[i].name) : tl_scope_load_name(s->h, m->a[i].name))
                                 : (async ? tl_scope_load_async(s->h, m->a[i].id) : tl_scope_load(s->h, m->a[i].id));
    if (!s->alive) {
        CHECK(!tl_asset_valid(got));
        return false;
    }
    if (s->held & bit) {
        if (!async && m->a[i].state == 1) m_complete(m, i);
    } else {
        m_acquire(m, i, async);
        s->held |= bit;
    }
    note_load(m, i, got);
    CHECK(tl_asset_get_status(got) == (m->a[i].state == 1 ? TL_ASSET_LOADING : TL_ASSET_READY));
    return true;
}

static void op_release(model *m, int i, int k) {
    mscope *s = &m->s[k];
    uint32_t bit = 1u << i;
    tl_content_result r = tl_scope_release(s->h, m->a[i].id);
    bool ok = r == TL_CONTENT_OK;
    CHECK(r == (!s->alive ? TL_CONTENT_STALE_SCOPE : (s->held & bit) ? TL_CONTENT_OK : TL_CONTENT_NOT_HELD));
    if (ok) {
        s->held &= ~bit;
        m_decref(m, i);
    }
}

static void op_share_to(model *m, int i, int k) {
    mscope *s = &m->s[k];
    uint32_t bit = 1u << i;
    int t = pick_scope(m, true);
    bool ok = tl_scope_share_to(s->h, m->s[t].h, m->a[i].id) == TL_CONTENT_OK;
    CHECK(ok == (s->alive && m->s[t].alive && (s->held & bit) != 0));
    if (ok && !(m->s[t].held & bit)) {
        m->a[i].count++;
        m->s[t].held |= bit;
    }
}

static bool op_adopt(model *m, int i, int k) { /* the last handle loaded (maybe stale: a released slot) */
    mscope *s = &m->s[k];
    uint32_t bit = 1u << i;
    bool ok;
    if (!m->a[i].last.ctx) return false;
    ok = tl_scope_adopt(s->h, m->a[i].last) == TL_CONTENT_OK;
    CHECK(ok == (s->alive && m->a[i].last_valid));
    if (ok && !(s->held & bit)) {
        m->a[i].count++;
        s->held |= bit;
    }
    return true;
}

static bool op_raw_acquire_or_share(model *m, int i) {
    int j;
    for (j = 0; j < MAX_RAW && m->r[j].alive; j++) {
    }
    if (j == MAX_RAW) return false;
    if (below(2)) {
        bool async = below(3) == 0;
        m->r[j].h = async ? tl_content_acquire_async(m->c, m->a[i].id) : tl_content_acquire(m->c, m->a[i].id);
        m->r[j].asset = i;
        m->r[j].alive = true;
        m_acquire(m, i, async);
        note_load(m, i, tl_content_handle_asset(m->r[j].h));
    } else {
        int from = (int)below(MAX_RAW);
        tl_content_handle h;
        if (!m->r[from].h.ctx) return false;
        h = tl_content_share(m->r[from].h);
        CHECK(tl_content_handle_valid(h) == m->r[from].alive);
        if (!m->r[from].alive) return false;
        m->r[j].h = h;
        m->r[j].asset = m->r[from].asset;
        m->r[j].alive = true;
        m->a[m->r[from].asset].count++;
    }
    return true;
}

static int op_raw_dispose_or_attach(model *m, int k) { /* dispose maybe twice; the asset, or -1 */
    mscope *s = &m->s[k];
    int r = (int)below(MAX_RAW);
    if (!m->r[r].h.ctx) return -1;
    if (below(3)) {
        tl_content_result res = tl_content_dispose(m->r[r].h);
        bool ok = res == TL_CONTENT_OK;
        CHECK(res == (m->r[r].alive ? TL_CONTENT_OK : TL_CONTENT_STALE_HANDLE));
        if (ok) {
            m->r[r].alive = false;
            m_decref(m, m->r[r].asset);
        }
    } else {
        bool ok = tl_scope_attach(s->h, m->r[r].h) == TL_CONTENT_OK;
        uint32_t b = 1u << m->r[r].asset;
        CHECK(ok == (s->alive && m->r[r].alive));
        if (ok) {
            m->r[r].alive = false;
            if (s->held & b) m_decref(m, m->r[r].asset);
            else s->held |= b;
        }
    }
    return m->r[r].asset;
}

static void op(model *m) {
    uint32_t kind = below(100);
    int i = (int)below((uint32_t)m->na), k = pick_scope(m, below(50) != 0);
    if (kind < 6) {
        if (!op_create_child(m, k)) return;
    } else if (kind < 10) {
        op_dispose(m, k);
    } else if (kind < 40) {
        if (!op_load(m, i, k)) return;
    } else if (kind < 52) {
        op_release(m, i, k);
    } else if (kind < 55) { /* contains */
        CHECK(tl_scope_contains(m->s[k].h, m->a[i].id) == (m->s[k].alive && (m->s[k].held & (1u << i)) != 0));
    } else if (kind < 60) {
        op_share_to(m, i, k);
    } else if (kind < 64) {
        if (!op_adopt(m, i, k)) return;
    } else if (kind < 72) {
        if (!op_raw_acquire_or_share(m, i)) return;
    } else if (kind < 80) {
        i = op_raw_dispose_or_attach(m, k);
        if (i < 0) return;
    } else { /* a frame */
        m_update(m);
        return;
    }
    check_asset(m, i);
}

static void run(const char *root, unsigned long ops, uint64_t seed, int32_t delay, bool use_async) {
    model m;
    cache_io cache;
    async_io aio;
    tl_content_desc desc;
    tl_content_kind_desc kd;
    char dir[600];
    int i, k;
    const tl__content_dirrec *d;
    memset(&m, 0, sizeof m);
    memset(&cache, 0, sizeof cache);
    memset(&aio, 0, sizeof aio);
    memset(&desc, 0, sizeof desc);
    g_seed = g_rng = seed;
    desc.release_delay_frames = delay;
    desc.max_loads_per_frame = 64;
    desc.warn_threshold = 20;
    desc.logger = capture_logger();
    desc.io = use_async ? async_backend(&aio) : cache_backend(&cache);
    m.async_io = use_async;
    m.delay = delay < 0 ? 0 : delay == 0 ? 1 : (uint64_t)delay;
    m.c = tl_content_create(&desc);
    kd = count_kind(NULL, &m.kind);
    CHECK(tl_content_register_kind(m.c, &kd) == TL_CONTENT_OK);
    snprintf(dir, sizeof dir, "%s/out/Small", root);
    CHECK(tl_content_dir_valid(tl_content_register_dir(m.c, dir)));
    snprintf(dir, sizeof dir, "%s/out/Extra", root);
    CHECK(tl_content_dir_valid(tl_content_register_dir(m.c, dir)));
    for (k = 0; k < 2; k++) {
        d = &m.c->dirs[k];
        for (i = 0; i < (int)d->entry_count && m.na < NA; i++) {
            m.a[m.na].id = d->entries[i].id;
            m.a[m.na].name = d->entries[i].name;
            m.na++;
        }
    }
    CHECK(m.na == NA);
    m.s[0].h = tl_content_root(m.c);
    m.s[0].alive = true;
    m.s[0].parent = -1;
    for (g_op = 0; g_op < ops; g_op++) {
        log_reset();
        op(&m);
        if ((g_op & 4095) == 0) check_all(&m);
    }
    /* The end: every owner lets go; what is left waits for collect, then nothing is live. */
    for (k = 1; k < MAX_SCOPES; k++)
        if (m.s[k].alive && m.s[k].parent == 0) {
            CHECK(tl_scope_dispose(m.s[k].h) == TL_CONTENT_OK);
            m_dispose(&m, k);
        }
    for (i = 0; i < (int)NA; i++)
        if (m.s[0].held & (1u << i)) {
            CHECK(tl_scope_release(m.s[0].h, m.a[i].id) == TL_CONTENT_OK);
            m_decref(&m, i);
        }
    m.s[0].held = 0;
    for (k = 0; k < MAX_RAW; k++)
        if (m.r[k].alive) {
            CHECK(tl_content_dispose(m.r[k].h) == TL_CONTENT_OK);
            m.r[k].alive = false;
            m_decref(&m, m.r[k].asset);
        }
    for (k = 0; k < 8; k++) m_update(&m);
    check_all(&m);
    for (i = 0; i < NA; i++) CHECK(m.a[i].count == 0 && m.a[i].state == 0);
    CHECK(tl_content_live_assets(m.c) == 0);
    CHECK(m.kind.live == 0);
    CHECK(m.kind.decodes == m.kind.destroys);
    printf("seed %llu, delay %d, %s I/O: %lu operations, %lu decodes, frame %llu, 0 live slots\n",
           (unsigned long long)seed, (int)delay, use_async ? "asynchronous" : "cached", ops, m.kind.decodes,
           (unsigned long long)m.frame);
    tl_content_shutdown(m.c);
    cache_free(&cache);
    CHECK(aio.live == 0);
}

int main(int argc, char **argv) {
    unsigned long total = 2000000;
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIXTURE_PROJECT [OPERATIONS]\n", argv[0]);
        return 2;
    }
    if (argc > 2) total = strtoul(argv[2], NULL, 10);
    run(argv[1], total / 4, 1, 0, false);
    run(argv[1], total / 4, 2, TL_CONTENT_NO_DELAY, false);
    run(argv[1], total / 4, 3, 3, false);
    run(argv[1], total / 4, 4, 1, true);
    return 0;
}
