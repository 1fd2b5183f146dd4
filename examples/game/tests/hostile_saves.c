/* hostile_saves.c - game-hostile-saves: a save whose checksums are right (written through save.h's
 * own transaction API, as a save editor, a save shared online or one of a modded build is) but
 * whose frame block holds a value the simulation uses as an index or a count past what this game
 * has: an enemy's kind, the level, a collection's count, a position outside the map. Each is
 * refused by game_continue with a message naming the field, and the frame shown stays as it was;
 * the untouched save still continues and plays on.
 *   game-hostile-saves CONTENT_DIR INPUTS */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "inputs.h"

#define GOOD_SLOT "continue"
#define EDITED_SLOT "edited"

/* ---- the edits: one field of the block set out of range ------------------------------------- */

typedef enum block_field {
    LEVEL, ENEMY_KIND, ENEMY_COUNT, BOLT_COUNT, PICKUP_COUNT, EVENT_COUNT, /* indices and counts */
    PLAYER_X, PLAYER_Y, ENEMY_X, BOLT_Y, PICKUP_X                         /* positions (raw Q32.32) */
} block_field;

#define PAST_THE_WORLD (-1)                       /* the world's level or kind count: one past its last */
#define FP_INT(n) ((int64_t)(n) * ((int64_t)1 << 32)) /* a whole number's raw Q32.32 */

typedef struct hostile_case {
    const char *name;   /* what the editor changed */
    const char *expect; /* what the refusal must name */
    block_field field;
    int64_t value;      /* a count or index, or a position's raw value */
} hostile_case;

static const hostile_case cases[] = {
    {"the level, one past the world's", "level", LEVEL, PAST_THE_WORLD},
    {"the level, 2^32-1", "level", LEVEL, UINT32_MAX},
    {"an enemy's kind, one past the world's kinds", "kind", ENEMY_KIND, PAST_THE_WORLD},
    {"an enemy's kind, 0x10000000", "kind", ENEMY_KIND, 0x10000000},
    {"an enemy's kind, 2^32-1", "kind", ENEMY_KIND, UINT32_MAX},
    {"the enemies' count, one past their slots", "enemies", ENEMY_COUNT, SIM_MAX_ENEMIES + 1},
    {"the bolts' count, 2^32-1", "bolts", BOLT_COUNT, UINT32_MAX},
    {"the pickups' count, one past their slots", "pickups", PICKUP_COUNT, SIM_MAX_PICKUPS + 1},
    {"the events' count, one past their slots", "events", EVENT_COUNT, SIM_MAX_EVENTS + 1},
    {"the player, left of the map", "player", PLAYER_X, FP_INT(-1)},
    {"the player, below the map", "player", PLAYER_Y, FP_INT(SIM_MAP_H)},
    {"an enemy, at the smallest x", "enemy", ENEMY_X, INT64_MIN},
    {"a bolt, at the largest y", "bolt", BOLT_Y, INT64_MAX},
    {"a pickup, right of the map", "pickup", PICKUP_X, FP_INT(SIM_MAP_W)},
};

/* A collection's stored count (mem.h: its header's bytes 0-3, little-endian). */
static void set_count(unsigned char *block, size_t offset, uint32_t count) {
    unsigned char *h = block + offset;
    h[0] = (unsigned char)count;
    h[1] = (unsigned char)(count >> 8);
    h[2] = (unsigned char)(count >> 16);
    h[3] = (unsigned char)(count >> 24);
}

static uint32_t index_value(const hostile_case *c, uint32_t world_count) {
    return c->value == PAST_THE_WORLD ? world_count : (uint32_t)c->value;
}

static void edit(unsigned char *b, const sim_world *w, const hostile_case *c) {
    tl_fp at = tl_fp_from_raw(c->value);
    switch (c->field) {
    case LEVEL: sim_head(b)->level = index_value(c, w->level_count); break;
    case ENEMY_KIND: sim_enemy_list_at(sim_enemies(b), 0)->kind = index_value(c, w->kind_count); break;
    case ENEMY_COUNT: set_count(b, SIM_OFFSET_ENEMIES, (uint32_t)c->value); break;
    case BOLT_COUNT: set_count(b, SIM_OFFSET_BOLTS, (uint32_t)c->value); break;
    case PICKUP_COUNT: set_count(b, SIM_OFFSET_PICKUPS, (uint32_t)c->value); break;
    case EVENT_COUNT: set_count(b, SIM_OFFSET_EVENTS, (uint32_t)c->value); break;
    case PLAYER_X: sim_head(b)->player.x = at; break;
    case PLAYER_Y: sim_head(b)->player.y = at; break;
    case ENEMY_X: sim_enemy_list_at(sim_enemies(b), 0)->pos.x = at; break;
    case BOLT_Y: sim_bolt_list_at(sim_bolts(b), 0)->pos.y = at; break;
    case PICKUP_X: sim_pickup_list_at(sim_pickups(b), 0)->pos.x = at; break;
    }
}

/* ---- the game's log, kept (the refusal's line) ----------------------------------------------- */

static char last_error[TL_LOG_LINE_MAX];

static void keep_errors(void *user, const tl_log_record *record) {
    (void)user;
    if (record->level == TL_LOG_LEVEL_ERROR) snprintf(last_error, sizeof last_error, "%s", record->line);
}

/* ---- the save, as a save editor writes it back ----------------------------------------------- */

/* The good save's records, the frame edited, committed to the edited slot through save.h. */
static bool write_edited(game *g, const hostile_case *c) {
    static unsigned char frame[SIM_BLOCK_BYTES];
    uint32_t order = 0;
    char locale[32];
    size_t n = 0, locale_n = 0;
    tl_save_txn txn;
    tl_save_result r = tl_save_read(g->saves, GOOD_SLOT, "byte-order", &order, sizeof order, &n);
    if (r == TL_SAVE_OK) r = tl_save_read(g->saves, GOOD_SLOT, "frame", frame, sizeof frame, &n);
    if (r == TL_SAVE_OK) r = tl_save_read(g->saves, GOOD_SLOT, "locale", locale, sizeof locale, &locale_n);
    if (r != TL_SAVE_OK) return false;
    edit(frame, &g->world, c);
    r = tl_save_begin(g->saves, EDITED_SLOT, &txn);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "byte-order", &order, sizeof order);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "frame", frame, sizeof frame);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "locale", locale, locale_n);
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn);
    return r == TL_SAVE_OK;
}

/* Refused, naming the field, the frame untouched. */
static bool refused(game *g, const hostile_case *c) {
    uint64_t before = sim_hash(g->block);
    last_error[0] = 0;
    if (!write_edited(g, c)) {
        printf("FAIL: %s: the edited save could not be written\n", c->name);
        return false;
    }
    if (game_continue(g, EDITED_SLOT)) {
        printf("FAIL: %s: continued\n", c->name);
        return false;
    }
    if (sim_hash(g->block) != before) {
        printf("FAIL: %s: refused, but the frame changed\n", c->name);
        return false;
    }
    if (!strstr(last_error, c->expect)) {
        printf("FAIL: %s: the refusal does not name the %s: \"%s\"\n", c->name, c->expect, last_error);
        return false;
    }
    printf("ok: %s: %s\n", c->name, last_error);
    return true;
}

/* ---- the good save: a frame with enemies, bolts and pickups ---------------------------------- */

static bool has_everything(const game *g) {
    return sim_enemy_list_const_count(sim_enemies_const(g->block)) > 0 && sim_bolt_list_const_count(sim_bolts_const(g->block)) > 0 &&
           sim_pickup_list_const_count(sim_pickups_const(g->block)) > 0;
}

/* Plays the inputs until the frame holds each kind of record, and saves it; *at: the next frame. */
static bool save_good(game *g, const input_tape *tape, uint32_t *at) {
    uint32_t f;
    for (f = 0; f < tape->count && !has_everything(g); f++) game_frame(g, tape->frames[f]);
    *at = f;
    if (f == tape->count) printf("FAIL: no frame of the inputs holds an enemy, a bolt and a pickup\n");
    return f < tape->count && game_save(g, GOOD_SLOT);
}

/* The untouched save continues and plays 600 frames on. */
static bool good_continues(game *g, const input_tape *tape, uint32_t at) {
    uint32_t f;
    game_new(g);
    if (!game_continue(g, GOOD_SLOT) || sim_head(g->block)->frame != at) {
        printf("FAIL: the untouched save did not continue: %s\n", last_error);
        return false;
    }
    for (f = at; f < tape->count && f < at + 600; f++) game_frame(g, tape->frames[f]);
    printf("ok: the untouched save continues at frame %u and plays on to %u\n", at, f);
    return true;
}

int main(int argc, char **argv) {
    char saves[] = "/tmp/game-hostile-saves-XXXXXX";
    game g;
    game_desc d;
    input_tape tape;
    uint32_t at = 0, i, failed = 0;
    char cleanup[64];
    bool ok;
    if (argc != 3) {
        fprintf(stderr, "usage: game-hostile-saves CONTENT_DIR INPUTS\n");
        return 2;
    }
    if (!mkdtemp(saves) || !input_tape_read(&tape, argv[2])) return 1;
    memset(&d, 0, sizeof d);
    d.content_dir = argv[1];
    d.save_dir = saves;
    d.quiet = true;
    if (!game_open(&g, &d)) return 1;
    g.logger.sink = keep_errors; /* game_continue logs through it */
    ok = save_good(&g, &tape, &at);
    for (i = 0; ok && i < sizeof cases / sizeof cases[0]; i++) failed += !refused(&g, &cases[i]);
    ok = ok && good_continues(&g, &tape, at) && failed == 0;
    game_close(&g);
    input_tape_free(&tape);
    snprintf(cleanup, sizeof cleanup, "rm -rf '%s'", saves);
    if (system(cleanup) != 0) fprintf(stderr, "game-hostile-saves: %s left behind\n", saves);
    return ok ? 0 : 1;
}
