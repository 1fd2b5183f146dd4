/* sim.c - the simulation (see sim.h): movement against the level's walls, enemies that chase
 * the player, bolts, drops and pickups, the exit to the next level. Integer and fp.h arithmetic
 * only: no floating point, so every compiler and flag gives the same bits. */
#include "sim.h"

#include <stdio.h> /* snprintf: sim_check's reason */
#include <string.h>

#define FP(num, den) tl_fp_from_fraction(num, den)

static tl_fp player_speed(void) { return FP(1, 10); }
static tl_fp body_radius(void) { return FP(3, 8); }

static const sim_level *current_level(const void *block, const sim_world *world) {
    uint32_t i = sim_head_const(block)->level;
    return &world->levels[i < world->level_count ? i : 0];
}

static bool is_wall(const sim_level *level, int32_t x, int32_t y) {
    if (x < 0 || y < 0 || x >= SIM_MAP_W || y >= SIM_MAP_H) return true;
    return level->tiles[y][x] == '#';
}

/* Whether a body of radius r centred at p overlaps a wall tile (its four corners). */
static bool blocked(const sim_level *level, tl_fpv2 p, tl_fp r) {
    int32_t x0 = tl_fp_floor_to_int(tl_fp_sub(p.x, r)), x1 = tl_fp_floor_to_int(tl_fp_add(p.x, r));
    int32_t y0 = tl_fp_floor_to_int(tl_fp_sub(p.y, r)), y1 = tl_fp_floor_to_int(tl_fp_add(p.y, r));
    return is_wall(level, x0, y0) || is_wall(level, x1, y0) || is_wall(level, x0, y1) || is_wall(level, x1, y1);
}

/* Moves along each axis on its own, so a body slides along walls. */
static tl_fpv2 move_body(const sim_level *level, tl_fpv2 p, tl_fpv2 delta, tl_fp r) {
    tl_fpv2 q = tl_fpv2_make(tl_fp_add(p.x, delta.x), p.y);
    if (!blocked(level, q, r)) p = q;
    q = tl_fpv2_make(p.x, tl_fp_add(p.y, delta.y));
    if (!blocked(level, q, r)) p = q;
    return p;
}

static tl_fpv2 tile_centre(int32_t x, int32_t y) {
    return tl_fpv2_make(tl_fp_add(tl_fp_from_int(x), TL_FP_HALF), tl_fp_add(tl_fp_from_int(y), TL_FP_HALF));
}

static bool touching(tl_fpv2 a, tl_fpv2 b, tl_fp reach) {
    return tl_fp_lt(tl_fpv2_sqr_magnitude(tl_fpv2_sub(a, b)), tl_fp_mul(reach, reach));
}

/* The sums of vault stats and the frame's counters. An Integer vault field is any int32 (the
   schema has no range) and a save may hold any score or health, so a sum can leave the int32
   range: it stops at the range's end instead of overflowing, which is undefined behaviour (and then
   other bits on another compiler). The shipped data stays far inside the range: same results. */
static int32_t saturated(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }
static int32_t add_sat(int32_t a, int32_t b) { return saturated((int64_t)a + b); }
static int32_t sub_sat(int32_t a, int32_t b) { return saturated((int64_t)a - b); }

static void emit(void *block, uint32_t type, uint32_t a, uint32_t b, int32_t c, int32_t d) {
    sim_event *e = sim_event_list_add_zeroed(sim_events(block));
    if (!e) return; /* more events than a frame holds: the rest are not reported */
    e->type = type;
    e->a = a;
    e->b = b;
    e->c = c;
    e->d = d;
}

static void enter_level(void *block, const sim_world *world, uint32_t index) {
    sim_header *h = sim_head(block);
    const sim_level *level;
    h->level = index < world->level_count ? index : 0;
    level = current_level(block, world);
    sim_enemy_list_clear(sim_enemies(block));
    sim_bolt_list_clear(sim_bolts(block));
    sim_pickup_list_clear(sim_pickups(block));
    h->player = tile_centre(level->spawns[0].x, level->spawns[0].y);
    h->facing = tl_fpv2_make(TL_FP_ONE, TL_FP_ZERO);
    h->spawn_timer = 60;
    h->invulnerable = 60;
    emit(block, SIM_EVENT_LEVEL, level->id, 0, 0, 0);
}

void sim_start(void *block, const sim_world *world, uint64_t seed) {
    sim_header *h = sim_head(block);
    memset(block, 0, SIM_BLOCK_BYTES);
    h->seed = seed;
    h->max_health = 5;
    h->health = 5;
    h->next_entity = 1;
    enter_level(block, world, 0);
}

/* ---- the player ------------------------------------------------------------------------------- */

static tl_fpv2 input_direction(uint32_t input) {
    int32_t dx = ((input & SIM_RIGHT) ? 1 : 0) - ((input & SIM_LEFT) ? 1 : 0);
    int32_t dy = ((input & SIM_DOWN) ? 1 : 0) - ((input & SIM_UP) ? 1 : 0);
    tl_fpv2 d = tl_fpv2_make(tl_fp_from_int(dx), tl_fp_from_int(dy));
    return dx && dy ? tl_fpv2_normalize(d) : d;
}

static void fire(void *block, const sim_world *world) {
    sim_header *h = sim_head(block);
    tl_rng r = tl_rng_create2(h->seed, world->rng_spread, h->next_entity, h->frame);
    tl_fp turn;
    sim_bolt *b;
    if (h->cooldown > 0 || !(b = sim_bolt_list_add_zeroed(sim_bolts(block)))) return;
    turn = tl_rng_range_fp(&r, tl_fp_neg(world->weapon.spread), world->weapon.spread);
    b->pos = h->player;
    b->vel = tl_fpv2_scale(tl_fpv2_rotate(h->facing, turn), world->weapon.bolt_speed);
    b->id = h->next_entity++;
    b->life = (uint32_t)world->weapon.lifetime;
    h->cooldown = (uint32_t)world->weapon.cooldown;
}

static void step_player(void *block, const sim_world *world, uint32_t input) {
    sim_header *h = sim_head(block);
    tl_fpv2 dir = input_direction(input);
    if (!tl_fpv2_eq(dir, tl_fpv2_zero())) h->facing = dir;
    h->player = move_body(current_level(block, world), h->player, tl_fpv2_scale(dir, player_speed()), body_radius());
    if (h->cooldown > 0) h->cooldown--;
    if (h->invulnerable > 0) h->invulnerable--;
    if (input & SIM_FIRE) fire(block, world);
}

/* ---- enemies ---------------------------------------------------------------------------------- */

static bool spawn_enemy(void *block, const sim_world *world, tl_rng *r) {
    sim_header *h = sim_head(block);
    const sim_level *level = current_level(block, world);
    ptrdiff_t kind = tl_rng_weighted_index_u32(r, level->kind_weights, world->kind_count);
    const sim_spawn *at;
    sim_enemy *e;
    if (level->spawn_count < 2 || kind < 0) return false;
    at = &level->spawns[1 + (uint32_t)tl_rng_range(r, 0, (int32_t)level->spawn_count - 2)];
    if (sim_enemy_list_count(sim_enemies(block)) >= world->max_enemies) return false;
    if (!(e = sim_enemy_list_add_zeroed(sim_enemies(block)))) return false;
    e->pos = tile_centre(at->x, at->y);
    e->id = h->next_entity++;
    e->kind = (uint32_t)kind;
    e->health = world->kinds[kind].max_health;
    e->spawn_point = at->point;
    return true;
}

static void spawn_wave(void *block, const sim_world *world) {
    sim_header *h = sim_head(block);
    tl_rng r = tl_rng_create1(h->seed, world->rng_spawn_pick, h->frame);
    int32_t interval = 70 - h->score / 20;
    if (h->spawn_timer > 0) {
        h->spawn_timer--;
        return;
    }
    spawn_enemy(block, world, &r);
    h->spawn_timer = (uint32_t)(interval < 20 ? 20 : interval);
}

/* Towards the player, bent by a wander that changes every half second (per enemy). */
static tl_fpv2 enemy_heading(const sim_header *h, const sim_world *world, const sim_enemy *e) {
    tl_rng r = tl_rng_create2(h->seed, world->rng_wander, e->id, h->frame / 30);
    tl_fpv2 chase = tl_fpv2_normalize(tl_fpv2_sub(h->player, e->pos));
    tl_fpv2 wander = tl_rng_inside_unit_circle(&r);
    return tl_fpv2_normalize(tl_fpv2_add(chase, tl_fpv2_scale(wander, FP(3, 4))));
}

static void hurt_player(void *block, int32_t damage) {
    sim_header *h = sim_head(block);
    if (h->invulnerable > 0) return;
    h->health = sub_sat(h->health, damage);
    h->invulnerable = 45;
    emit(block, SIM_EVENT_HURT, 0, 0, damage, h->health);
}

static void step_enemies(void *block, const sim_world *world) {
    sim_header *h = sim_head(block);
    const sim_level *level = current_level(block, world);
    sim_enemy_list enemies = sim_enemies(block);
    uint32_t i, n = sim_enemy_list_count(enemies);
    for (i = 0; i < n; i++) {
        sim_enemy *e = sim_enemy_list_at(enemies, i);
        const sim_enemy_stats *k = &world->kinds[e->kind];
        tl_fpv2 step = tl_fpv2_scale(enemy_heading(h, world, e), k->move_speed);
        e->pos = move_body(level, e->pos, step, FP(5, 16));
        if (touching(e->pos, h->player, FP(3, 4))) hurt_player(block, k->contact_damage);
    }
}

/* ---- bolts, kills, drops ---------------------------------------------------------------------- */

static void drop_loot(void *block, const sim_world *world, const sim_enemy *e) {
    sim_header *h = sim_head(block);
    tl_rng r = tl_rng_create1(h->seed, world->rng_drop, e->id);
    static const uint32_t item_weights[2] = {3, 1}; /* coins three times as often as hearts */
    sim_pickup *p;
    if (!tl_rng_chance_fp(&r, world->kinds[e->kind].drop_chance)) return;
    if (!(p = sim_pickup_list_add_zeroed(sim_pickups(block)))) return;
    p->pos = e->pos;
    p->id = h->next_entity++;
    p->item = tl_rng_weighted_index_u32(&r, item_weights, 2) == 0 ? world->coin_item : world->heart_item;
}

static void kill_enemy(void *block, const sim_world *world, uint32_t index) {
    sim_header *h = sim_head(block);
    sim_enemy e = *sim_enemy_list_at(sim_enemies(block), index);
    const sim_enemy_stats *k = &world->kinds[e.kind];
    h->score = add_sat(h->score, k->score);
    h->kills = add_sat(h->kills, 1);
    emit(block, SIM_EVENT_KILL, e.id, k->kind, k->score, h->score);
    drop_loot(block, world, &e);
    sim_enemy_list_remove_at(sim_enemies(block), index);
}

/* A bolt hits the first enemy it touches; true when it is spent. */
static bool bolt_hits(void *block, const sim_world *world, const sim_bolt *b) {
    sim_enemy_list enemies = sim_enemies(block);
    uint32_t i, n = sim_enemy_list_count(enemies);
    for (i = 0; i < n; i++) {
        sim_enemy *e = sim_enemy_list_at(enemies, i);
        if (!touching(b->pos, e->pos, FP(1, 2))) continue;
        e->health = sub_sat(e->health, world->weapon.damage);
        if (e->health <= 0) kill_enemy(block, world, i);
        return true;
    }
    return false;
}

static void step_bolts(void *block, const sim_world *world) {
    const sim_level *level = current_level(block, world);
    sim_bolt_list bolts = sim_bolts(block);
    uint32_t i = 0;
    while (i < sim_bolt_list_count(bolts)) {
        sim_bolt *b = sim_bolt_list_at(bolts, i);
        b->pos = tl_fpv2_add(b->pos, b->vel);
        b->life--;
        if (b->life == 0 || blocked(level, b->pos, FP(1, 8)) || bolt_hits(block, world, b)) {
            sim_bolt_list_remove_at(bolts, i); /* the last bolt moved into slot i */
            continue;
        }
        i++;
    }
}

static void step_pickups(void *block, const sim_world *world) {
    sim_header *h = sim_head(block);
    sim_pickup_list pickups = sim_pickups(block);
    uint32_t i = 0;
    while (i < sim_pickup_list_count(pickups)) {
        sim_pickup p = *sim_pickup_list_at(pickups, i);
        if (!touching(p.pos, h->player, FP(3, 4))) {
            i++;
            continue;
        }
        if (p.item == world->heart_item && h->health < h->max_health) h->health++;
        if (p.item == world->coin_item) h->score = add_sat(h->score, 5);
        emit(block, SIM_EVENT_PICKUP, p.id, p.item, 0, 0);
        sim_pickup_list_remove_at(pickups, i);
    }
}

/* ---- the level -------------------------------------------------------------------------------- */

bool sim_exit_open(const void *block, const sim_world *world) {
    return sim_head_const(block)->score >= current_level(block, world)->exit_score;
}

static uint32_t level_index(const sim_world *world, uint32_t id) {
    uint32_t i;
    for (i = 0; i < world->level_count; i++)
        if (world->levels[i].id == id) return i;
    return 0;
}

static void step_level(void *block, const sim_world *world) {
    sim_header *h = sim_head(block);
    const sim_level *level = current_level(block, world);
    if (h->health <= 0) { /* down: back to the level's start with half the score */
        h->deaths++;
        h->score /= 2;
        h->health = h->max_health;
        enter_level(block, world, h->level);
        return;
    }
    if (sim_exit_open(block, world) && touching(h->player, tile_centre(level->exit_x, level->exit_y), FP(1, 2)))
        enter_level(block, world, level_index(world, level->next));
}

void sim_step(void *block, const sim_world *world, uint32_t input) {
    sim_event_list_clear(sim_events(block));
    step_player(block, world, input);
    spawn_wave(block, world);
    step_enemies(block, world);
    step_bolts(block, world);
    step_pickups(block, world);
    step_level(block, world);
    sim_head(block)->frame++;
}

uint32_t sim_populate(void *block, const sim_world *world, uint32_t count) {
    sim_header *h = sim_head(block);
    uint32_t placed = 0;
    while (placed < count) {
        tl_rng r = tl_rng_create2(h->seed, world->rng_spawn_pick, h->frame, placed);
        if (!spawn_enemy(block, world, &r)) break;
        placed++;
    }
    return placed;
}

/* ---- a block from outside (a save) ----------------------------------------------------------- */
/* A save's checksums say its bytes are the ones written, not that this game wrote them: a save
   editor, a save shared online or one of a modded build (more kinds, more levels) can hold any
   value. The simulation indexes the world's kinds and levels with the block's, trusts its
   collections' counts and moves bodies only inside the map (is_wall guards the tiles, but the
   window turns positions into pixels); sim_check holds a block to what sim_start and sim_step make. */

/* A collection's stored count (mem.h: its header's bytes 0-3, little-endian), not clamped. */
static uint32_t stored_count(const void *block, size_t offset) {
    const unsigned char *h = (const unsigned char *)block + offset;
    return (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 | (uint32_t)h[3] << 24;
}

static bool counts_fit(const void *block, char *why, size_t size) {
    static const struct { const char *name; size_t offset; uint32_t slots; } lists[] = {
        {"enemies", SIM_OFFSET_ENEMIES, SIM_MAX_ENEMIES}, {"bolts", SIM_OFFSET_BOLTS, SIM_MAX_BOLTS},
        {"pickups", SIM_OFFSET_PICKUPS, SIM_MAX_PICKUPS}, {"events", SIM_OFFSET_EVENTS, SIM_MAX_EVENTS}};
    size_t i;
    for (i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        uint32_t n = stored_count(block, lists[i].offset);
        if (n <= lists[i].slots) continue;
        snprintf(why, size, "%u %s, more than the frame's %u slots", n, lists[i].name, lists[i].slots);
        return false;
    }
    return true;
}

static bool inside_map(tl_fpv2 p) {
    return !tl_fp_lt(p.x, TL_FP_ZERO) && tl_fp_lt(p.x, tl_fp_from_int(SIM_MAP_W)) && !tl_fp_lt(p.y, TL_FP_ZERO) &&
           tl_fp_lt(p.y, tl_fp_from_int(SIM_MAP_H));
}

/* "the player", "enemy 3"...: outside the map. */
static bool placed(tl_fpv2 p, const char *what, uint32_t index, char *why, size_t size) {
    if (inside_map(p)) return true;
    snprintf(why, size, "%s %u is outside the %dx%d map", what, index, SIM_MAP_W, SIM_MAP_H);
    return false;
}

static bool enemies_fit(const void *block, const sim_world *world, char *why, size_t size) {
    sim_enemy_list_const enemies = sim_enemies_const(block);
    uint32_t i, n = sim_enemy_list_const_count(enemies);
    for (i = 0; i < n; i++) {
        const sim_enemy *e = sim_enemy_list_const_at(enemies, i);
        if (e->kind >= world->kind_count) {
            snprintf(why, size, "enemy %u has kind %u, past the world's %u kinds", i, e->kind, world->kind_count);
            return false;
        }
        if (!placed(e->pos, "enemy", i, why, size)) return false;
    }
    return true;
}

static bool bolts_and_pickups_fit(const void *block, char *why, size_t size) {
    sim_bolt_list_const bolts = sim_bolts_const(block);
    sim_pickup_list_const pickups = sim_pickups_const(block);
    uint32_t i;
    for (i = 0; i < sim_bolt_list_const_count(bolts); i++)
        if (!placed(sim_bolt_list_const_at(bolts, i)->pos, "bolt", i, why, size)) return false;
    for (i = 0; i < sim_pickup_list_const_count(pickups); i++)
        if (!placed(sim_pickup_list_const_at(pickups, i)->pos, "pickup", i, why, size)) return false;
    return true;
}

bool sim_check(const void *block, const sim_world *world, char *why, size_t size) {
    const sim_header *h = sim_head_const(block);
    if (h->level >= world->level_count) {
        snprintf(why, size, "level %u, past the world's %u levels", h->level, world->level_count);
        return false;
    }
    if (!inside_map(h->player)) {
        snprintf(why, size, "the player is outside the %dx%d map", SIM_MAP_W, SIM_MAP_H);
        return false;
    }
    return counts_fit(block, why, size) && enemies_fit(block, world, why, size) && bolts_and_pickups_fit(block, why, size);
}

/* ---- the frame's fingerprint ------------------------------------------------------------------ */
/* The walk must cover every byte of the block in order: each record below is fed field by field
   (a size change without a walk change fails to compile), each collection as its 8-byte header
   (already little-endian) and then all of its slots. */
typedef char sim_walk_covers_header[sizeof(sim_header) == 88 ? 1 : -1];
typedef char sim_walk_covers_enemy[sizeof(sim_enemy) == 32 ? 1 : -1];
typedef char sim_walk_covers_bolt[sizeof(sim_bolt) == 40 ? 1 : -1];
typedef char sim_walk_covers_pickup[sizeof(sim_pickup) == 24 ? 1 : -1];
typedef char sim_walk_covers_event[sizeof(sim_event) == 24 ? 1 : -1];
typedef char sim_walk_covers_block[SIM_OFFSET_ENEMIES == sizeof(sim_header) ? 1 : -1];

static void hash_fp(tl_hash64_stream *s, tl_fp v) { tl_hash64_stream_u64(s, (uint64_t)v.raw); }
static void hash_fpv2(tl_hash64_stream *s, tl_fpv2 v) { hash_fp(s, v.x); hash_fp(s, v.y); }
static void hash_i32(tl_hash64_stream *s, int32_t v) { tl_hash64_stream_u32(s, (uint32_t)v); }

static void hash_header(tl_hash64_stream *s, const sim_header *h) {
    tl_hash64_stream_u32(s, h->frame);
    tl_hash64_stream_u32(s, h->level);
    hash_i32(s, h->score);
    hash_i32(s, h->health);
    hash_i32(s, h->max_health);
    hash_i32(s, h->kills);
    tl_hash64_stream_u32(s, h->next_entity);
    tl_hash64_stream_u32(s, h->cooldown);
    tl_hash64_stream_u32(s, h->spawn_timer);
    tl_hash64_stream_u32(s, h->invulnerable);
    tl_hash64_stream_u32(s, h->deaths);
    tl_hash64_stream_u32(s, h->reserved);
    tl_hash64_stream_u64(s, h->seed);
    hash_fpv2(s, h->player);
    hash_fpv2(s, h->facing);
}

static void hash_enemy(tl_hash64_stream *s, const sim_enemy *e) {
    hash_fpv2(s, e->pos);
    tl_hash64_stream_u32(s, e->id);
    tl_hash64_stream_u32(s, e->kind);
    hash_i32(s, e->health);
    tl_hash64_stream_u32(s, e->spawn_point);
}

static void hash_bolt(tl_hash64_stream *s, const sim_bolt *b) {
    hash_fpv2(s, b->pos);
    hash_fpv2(s, b->vel);
    tl_hash64_stream_u32(s, b->id);
    tl_hash64_stream_u32(s, b->life);
}

static void hash_pickup(tl_hash64_stream *s, const sim_pickup *p) {
    hash_fpv2(s, p->pos);
    tl_hash64_stream_u32(s, p->id);
    tl_hash64_stream_u32(s, p->item);
}

static void hash_event(tl_hash64_stream *s, const sim_event *e) {
    tl_hash64_stream_u32(s, e->type);
    tl_hash64_stream_u32(s, e->a);
    tl_hash64_stream_u32(s, e->b);
    hash_i32(s, e->c);
    hash_i32(s, e->d);
    hash_i32(s, e->reserved);
}

uint64_t sim_hash(const void *block) {
    const unsigned char *b = (const unsigned char *)block;
    tl_hash64_stream s;
    uint32_t i;
    tl_hash64_stream_reset(&s, 0);
    hash_header(&s, sim_head_const(block));
    tl_hash64_stream_bytes(&s, b + SIM_OFFSET_ENEMIES, TL_LAYOUT_HEADER_BYTES);
    for (i = 0; i < SIM_MAX_ENEMIES; i++)
        hash_enemy(&s, (const sim_enemy *)(const void *)(b + SIM_OFFSET_ENEMIES + TL_LAYOUT_HEADER_BYTES) + i);
    tl_hash64_stream_bytes(&s, b + SIM_OFFSET_BOLTS, TL_LAYOUT_HEADER_BYTES);
    for (i = 0; i < SIM_MAX_BOLTS; i++)
        hash_bolt(&s, (const sim_bolt *)(const void *)(b + SIM_OFFSET_BOLTS + TL_LAYOUT_HEADER_BYTES) + i);
    tl_hash64_stream_bytes(&s, b + SIM_OFFSET_PICKUPS, TL_LAYOUT_HEADER_BYTES);
    for (i = 0; i < SIM_MAX_PICKUPS; i++)
        hash_pickup(&s, (const sim_pickup *)(const void *)(b + SIM_OFFSET_PICKUPS + TL_LAYOUT_HEADER_BYTES) + i);
    tl_hash64_stream_bytes(&s, b + SIM_OFFSET_EVENTS, TL_LAYOUT_HEADER_BYTES);
    for (i = 0; i < SIM_MAX_EVENTS; i++)
        hash_event(&s, (const sim_event *)(const void *)(b + SIM_OFFSET_EVENTS + TL_LAYOUT_HEADER_BYTES) + i);
    return tl_hash64_stream_digest(&s);
}
