/* sim.h - the game's simulation: a pure function of (frame block, world, input).
 *
 * All game state lives in one zeroed block of SIM_BLOCK_BYTES: a header, then mem.h's inline
 * collections (enemies, bolts, pickups, this frame's events) at fixed offsets, so a rollback is a
 * memcpy, a save is the block's bytes and a desync is a different XXH64. Positions and physics
 * are fp.h's Q32.32; every random number is an rng.h stream keyed by a Game.Rng domain and the
 * entity (or frame) it is for. Nothing here touches SDL, files, clocks or globals: the same block,
 * world and input give the same next block on every compiler and machine.
 *
 * The world (sim_world) is the read-only designer data the glue builds from the levels' content
 * and the vaults; the simulation never writes it. */
#ifndef GAME_SIM_H
#define GAME_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <threadlink/collections.h>
#include <threadlink/rng.h>

#define SIM_MAP_W 20
#define SIM_MAP_H 15
#define SIM_MAX_LEVELS 2
#define SIM_MAX_SPAWNS 8
#define SIM_MAX_KINDS 4
#define SIM_MAX_ENEMIES 1024
#define SIM_MAX_BOLTS 128
#define SIM_MAX_PICKUPS 64
#define SIM_MAX_EVENTS 64

/* Input bits of one frame. */
enum { SIM_UP = 1, SIM_DOWN = 2, SIM_LEFT = 4, SIM_RIGHT = 8, SIM_FIRE = 16 };

/* ---- the world: read-only data ---------------------------------------------------------------- */
typedef struct sim_spawn {
    uint32_t point;      /* a Nexus.SpawnPoints value */
    int32_t x, y;        /* its tile */
} sim_spawn;

typedef struct sim_level {
    uint32_t id;         /* a Nexus.Levels value */
    uint32_t next;       /* the level its exit leads to */
    int32_t exit_score;  /* the exit opens at this score */
    uint32_t spawn_count;
    sim_spawn spawns[SIM_MAX_SPAWNS]; /* spawns[0] is where the player starts */
    uint32_t kind_weights[SIM_MAX_KINDS]; /* how often each world kind spawns here */
    int32_t exit_x, exit_y;
    char tiles[SIM_MAP_H][SIM_MAP_W]; /* '#' wall, anything else floor */
} sim_level;

typedef struct sim_enemy_stats {
    uint32_t kind;       /* a Game.EnemyKinds value */
    int32_t max_health, contact_damage, score;
    tl_fp move_speed, drop_chance;
} sim_enemy_stats;

typedef struct sim_weapon_stats {
    int32_t damage, cooldown, lifetime;
    tl_fp bolt_speed, spread;
} sim_weapon_stats;

typedef struct sim_world {
    uint32_t level_count, kind_count;
    sim_level levels[SIM_MAX_LEVELS];
    sim_enemy_stats kinds[SIM_MAX_KINDS];
    sim_weapon_stats weapon;
    uint32_t max_enemies;    /* at most SIM_MAX_ENEMIES */
    uint32_t coin_item, heart_item; /* Game.Items values */
    uint32_t rng_spawn_pick, rng_spawn_kind, rng_wander, rng_drop, rng_spread; /* Game.Rng */
} sim_world;

/* ---- the frame block -------------------------------------------------------------------------- */
/* Every record is a whole number of 8-byte words with no implicit padding: the block's bytes
   (and so its hash) depend only on the operations performed. */
typedef struct sim_header {
    uint32_t frame, level;   /* frames simulated; the index of the current level in the world */
    int32_t score, health;
    int32_t max_health, kills;
    uint32_t next_entity, cooldown; /* the next entity id; frames until the weapon fires again */
    uint32_t spawn_timer, invulnerable;
    uint32_t deaths, reserved;
    uint64_t seed;
    tl_fpv2 player, facing;
} sim_header;

typedef struct sim_enemy {
    tl_fpv2 pos;
    uint32_t id, kind;       /* kind: an index into world->kinds */
    int32_t health;
    uint32_t spawn_point;
} sim_enemy;

typedef struct sim_bolt {
    tl_fpv2 pos, vel;
    uint32_t id, life;
} sim_bolt;

typedef struct sim_pickup {
    tl_fpv2 pos;
    uint32_t id, item;       /* item: a Game.Items value */
} sim_pickup;

/* What a kill tells the game (the OnEnemyKilled event's argument). */
typedef struct sim_kill {
    uint32_t enemy_id, kind; /* kind: a Game.EnemyKinds value */
    int32_t score, total;    /* the kill's score and the score after it */
} sim_kill;

enum sim_event_type { SIM_EVENT_KILL = 1, SIM_EVENT_PICKUP = 2, SIM_EVENT_HURT = 3, SIM_EVENT_LEVEL = 4 };
typedef struct sim_event {
    uint32_t type, a;
    uint32_t b;
    int32_t c, d, reserved;
} sim_event;

TL_INLINE_LIST_TYPE(sim_enemy_list, sim_enemy)
TL_INLINE_LIST_TYPE(sim_bolt_list, sim_bolt)
TL_INLINE_LIST_TYPE(sim_pickup_list, sim_pickup)
TL_INLINE_LIST_TYPE(sim_event_list, sim_event)

#define SIM_OFFSET_ENEMIES TL_LAYOUT_ALIGN(sizeof(sim_header))
#define SIM_OFFSET_BOLTS (SIM_OFFSET_ENEMIES + TL_LAYOUT_SEQUENCE_BYTES(SIM_MAX_ENEMIES, sizeof(sim_enemy)))
#define SIM_OFFSET_PICKUPS (SIM_OFFSET_BOLTS + TL_LAYOUT_SEQUENCE_BYTES(SIM_MAX_BOLTS, sizeof(sim_bolt)))
#define SIM_OFFSET_EVENTS (SIM_OFFSET_PICKUPS + TL_LAYOUT_SEQUENCE_BYTES(SIM_MAX_PICKUPS, sizeof(sim_pickup)))
#define SIM_BLOCK_BYTES (SIM_OFFSET_EVENTS + TL_LAYOUT_SEQUENCE_BYTES(SIM_MAX_EVENTS, sizeof(sim_event)))

/* Views over a block (no copies). */
static inline sim_header *sim_head(void *block) { return (sim_header *)block; }
static inline const sim_header *sim_head_const(const void *block) { return (const sim_header *)block; }
static inline sim_enemy_list sim_enemies(void *block) {
    return sim_enemy_list_view((unsigned char *)block + SIM_OFFSET_ENEMIES, SIM_MAX_ENEMIES);
}
static inline sim_bolt_list sim_bolts(void *block) {
    return sim_bolt_list_view((unsigned char *)block + SIM_OFFSET_BOLTS, SIM_MAX_BOLTS);
}
static inline sim_pickup_list sim_pickups(void *block) {
    return sim_pickup_list_view((unsigned char *)block + SIM_OFFSET_PICKUPS, SIM_MAX_PICKUPS);
}
static inline sim_event_list sim_events(void *block) {
    return sim_event_list_view((unsigned char *)block + SIM_OFFSET_EVENTS, SIM_MAX_EVENTS);
}
static inline sim_enemy_list_const sim_enemies_const(const void *block) {
    return sim_enemy_list_const_view((const unsigned char *)block + SIM_OFFSET_ENEMIES, SIM_MAX_ENEMIES);
}
static inline sim_bolt_list_const sim_bolts_const(const void *block) {
    return sim_bolt_list_const_view((const unsigned char *)block + SIM_OFFSET_BOLTS, SIM_MAX_BOLTS);
}
static inline sim_pickup_list_const sim_pickups_const(const void *block) {
    return sim_pickup_list_const_view((const unsigned char *)block + SIM_OFFSET_PICKUPS, SIM_MAX_PICKUPS);
}
static inline sim_event_list_const sim_events_const(const void *block) {
    return sim_event_list_const_view((const unsigned char *)block + SIM_OFFSET_EVENTS, SIM_MAX_EVENTS);
}

/* A new game in a zeroed block: the first level, the player at its start. */
void sim_start(void *block, const sim_world *world, uint64_t seed);
/* One frame (1/60 s): the inputs are SIM_* bits. The frame's events replace the previous ones. */
void sim_step(void *block, const sim_world *world, uint32_t input);
/* The frame's fingerprint: XXH64 of the whole block in its little-endian form (every field of
   every record, live or not, and mem.h's collection headers, in block order; tl_hash64_stream),
   so the same on big- and little-endian machines; on a little-endian one it is tl_hash64 of the
   block's bytes. */
uint64_t sim_hash(const void *block);
/* Whether a block from outside (a save) is one the simulation can step with this world: every
   value it (or the game drawing it) uses as an index or a count within what the world and the
   block have (the level, each enemy's kind, each collection's count) and every position inside
   the map, as sim_start and sim_step keep them. False with the first problem in why (size bytes),
   naming the field. */
bool sim_check(const void *block, const sim_world *world, char *why, size_t size);
/* Places count enemies at once (the 1,000-entity benchmark); returns how many fit. */
uint32_t sim_populate(void *block, const sim_world *world, uint32_t count);
/* Whether the current level's exit is open. */
bool sim_exit_open(const void *block, const sim_world *world);

#endif
