/* sim_extremes.c - game-sim-extremes: the simulation's arithmetic at the ends of what the vaults
 * admit. An Integer vault field is any int32 (the schema has no range), so a modder's Bounty of
 * 2^31-1 or ContactDamage of -2^31 reaches the sums the simulation makes; so do a save's score,
 * health and kills. Each sum stops at the int32 range's end (no signed overflow: undefined
 * behaviour, which the pinned replays across compilers cannot rest on). A hand-made world
 * (one walled room), one case per sum.
 *   game-sim-extremes */
#include <stdio.h>
#include <string.h>

#include "sim.h"

static uint64_t storage[(SIM_BLOCK_BYTES + 7) / 8]; /* the frame block, 8-aligned */
#define BLOCK ((void *)storage)

/* One room with walls around it: the player starts at (5, 5), enemies spawn at (15, 10); one kind,
   whose stats each case sets; bolts fly a quarter tile a frame, straight. */
static void make_world(sim_world *w) {
    sim_level *l = &w->levels[0];
    int x, y;
    memset(w, 0, sizeof *w);
    w->level_count = 1;
    w->kind_count = 1;
    for (y = 0; y < SIM_MAP_H; y++)
        for (x = 0; x < SIM_MAP_W; x++) l->tiles[y][x] = x == 0 || y == 0 || x == SIM_MAP_W - 1 || y == SIM_MAP_H - 1 ? '#' : '.';
    l->id = 1;
    l->next = 1;
    l->exit_score = 100;
    l->exit_x = 18;
    l->exit_y = 13;
    l->spawn_count = 2;
    l->spawns[0].x = 5, l->spawns[0].y = 5;
    l->spawns[1].x = 15, l->spawns[1].y = 10;
    l->kind_weights[0] = 1;
    w->kinds[0].kind = 1;
    w->kinds[0].max_health = 1;
    w->kinds[0].move_speed = TL_FP_ZERO;
    w->kinds[0].drop_chance = TL_FP_ZERO;
    w->weapon.damage = 1;
    w->weapon.cooldown = 10;
    w->weapon.lifetime = 60;
    w->weapon.bolt_speed = tl_fp_from_fraction(1, 4);
    w->weapon.spread = TL_FP_ZERO;
    w->max_enemies = 48;
    w->coin_item = 1, w->heart_item = 2;
    w->rng_spawn_pick = 1, w->rng_spawn_kind = 2, w->rng_wander = 3, w->rng_drop = 4, w->rng_spread = 5;
}

static sim_enemy *place_enemy(int32_t tile_x, int32_t tile_y, int32_t health) {
    sim_enemy *e = sim_enemy_list_add_zeroed(sim_enemies(BLOCK));
    e->pos = tl_fpv2_make(tl_fp_add(tl_fp_from_int(tile_x), TL_FP_HALF), tl_fp_add(tl_fp_from_int(tile_y), TL_FP_HALF));
    e->id = 1000;
    e->health = health;
    return e;
}

/* Fires one bolt right (the player faces right at the start) and lets it fly until it hits the
   enemy two tiles away or the wall. */
static void shoot_right(const sim_world *w) {
    uint32_t f;
    sim_step(BLOCK, w, SIM_FIRE);
    for (f = 0; f < 70 && sim_bolt_list_count(sim_bolts(BLOCK)) > 0; f++) sim_step(BLOCK, w, 0);
}

static int failures;

static void expect(const char *what, int64_t got, int64_t want) {
    if (got == want) {
        printf("ok: %s: %lld\n", what, (long long)got);
        return;
    }
    printf("FAIL: %s: %lld, not %lld\n", what, (long long)got, (long long)want);
    failures++;
}

/* A Bounty of 2^31-1 on a score near the top, and a kill on a kills count at the top. */
static void bounty_at_the_top(sim_world *w) {
    w->kinds[0].score = INT32_MAX;
    sim_start(BLOCK, w, 1);
    sim_head(BLOCK)->score = INT32_MAX - 1;
    sim_head(BLOCK)->kills = INT32_MAX;
    place_enemy(7, 5, 1);
    shoot_right(w);
    expect("a Bounty of 2^31-1 on a score of 2^31-2", sim_head(BLOCK)->score, INT32_MAX);
    expect("a kill on 2^31-1 kills", sim_head(BLOCK)->kills, INT32_MAX);
}

/* A coin picked up on the top score. */
static void coin_at_the_top(sim_world *w) {
    sim_pickup *p;
    sim_start(BLOCK, w, 1);
    sim_head(BLOCK)->score = INT32_MAX;
    p = sim_pickup_list_add_zeroed(sim_pickups(BLOCK));
    p->pos = sim_head(BLOCK)->player;
    p->item = w->coin_item;
    sim_step(BLOCK, w, 0);
    expect("a coin on a score of 2^31-1", sim_head(BLOCK)->score, INT32_MAX);
}

/* A ContactDamage of -2^31 heals up to the top; a damage of 1 on the bottom health goes down. */
static void contact_at_the_ends(sim_world *w) {
    w->kinds[0].contact_damage = INT32_MIN;
    sim_start(BLOCK, w, 1);
    sim_head(BLOCK)->invulnerable = 0;
    place_enemy(5, 5, 1);
    sim_step(BLOCK, w, 0);
    expect("a ContactDamage of -2^31 on a health of 5", sim_head(BLOCK)->health, INT32_MAX);
    w->kinds[0].contact_damage = 1;
    sim_start(BLOCK, w, 1);
    sim_head(BLOCK)->invulnerable = 0;
    sim_head(BLOCK)->health = INT32_MIN;
    place_enemy(5, 5, 1);
    sim_step(BLOCK, w, 0);
    expect("a ContactDamage of 1 on a health of -2^31: down (deaths)", sim_head(BLOCK)->deaths, 1);
    w->kinds[0].contact_damage = 0;
}

/* A weapon Damage of -2^31 heals the enemy it hits up to the top: it lives. */
static void weapon_at_the_bottom(sim_world *w) {
    w->weapon.damage = INT32_MIN;
    sim_start(BLOCK, w, 1);
    place_enemy(7, 5, 5);
    shoot_right(w);
    expect("a weapon Damage of -2^31 on an enemy's health of 5: kills", sim_head(BLOCK)->kills, 0);
    expect("... its health", sim_enemy_list_count(sim_enemies(BLOCK)) ? sim_enemy_list_at(sim_enemies(BLOCK), 0)->health : 0, INT32_MAX);
    w->weapon.damage = 1;
}

int main(void) {
    sim_world world;
    make_world(&world);
    bounty_at_the_top(&world);
    coin_at_the_top(&world);
    contact_at_the_ends(&world);
    weapon_at_the_bottom(&world);
    return failures ? 1 : 0;
}
