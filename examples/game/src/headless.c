/* headless.c - the game without a window: replays, rollback, recording, timing.
 *
 *   game-headless CONTENT replay INPUTS [EVERY]     the hash of every EVERYth frame and the last
 *   game-headless CONTENT rollback INPUTS DELAY     late inputs, restore, re-simulate: compare
 *   game-headless CONTENT continue INPUTS SAVEDIR   save halfway, continue in a new game: compare
 *   game-headless CONTENT resume SAVEDIR            continue from the save continue left: its hash
 *   game-headless CONTENT record OUTPUT FRAMES      a bot plays; its inputs are written
 *   game-headless CONTENT language SAVEDIR          a save made in French continues in French
 *   game-headless CONTENT text                      the locales' table assets, in their scopes
 *   game-headless CONTENT bench ENTITIES FRAMES     the simulation's frame time, and the load time
 *   game-headless-dev CONTENT tune IMAGE_DIR        development builds: the Slime's stats after
 *                                                   the vault images in IMAGE_DIR and one game_tune
 *
 * EVERY, DELAY, FRAMES and ENTITIES are whole numbers (ENTITIES from 0, the others from 1); any
 * other word is a usage error (exit 2). Input files are text: '#' comments, then lines "COUNT MASK"
 * (MASK in hex: the SIM_* bits held for COUNT frames). Every mode runs the whole game (core, levels,
 * content) as the window does. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content_text.h"
#include "game.h"
#include "inputs.h"
#include "iris_events.h"
#if defined(TL_DEVELOPMENT)
#include "enemy_kinds.h"
#include "vaults/enemies_data.h"
#endif

#define SEED UINT64_C(0x7468726561646c6b) /* "threadlk" */

static bool open_game(game *g, const char *content, const char *saves) {
    game_desc d;
    memset(&d, 0, sizeof d);
    d.content_dir = content;
    d.save_dir = saves;
    d.seed = SEED;
    d.quiet = true;
    if (game_open(g, &d)) return true;
    fprintf(stderr, "game-headless: the game did not start: %s\n", g->refusal);
    return false;
}

/* The recording, then the game; false (said) with neither left to free. */
static bool open_with_tape(game *g, input_tape *tape, const char *path, const char *content, const char *saves) {
    if (!input_tape_read(tape, path)) return false;
    if (open_game(g, content, saves)) return true;
    input_tape_free(tape);
    return false;
}

/* The end of a run on a recording: the game closed, the tape freed, rc returned. */
static int finish(game *g, input_tape *tape, int rc) {
    game_close(g);
    input_tape_free(tape);
    return rc;
}

static int replay(const char *content, const char *path, uint32_t every) {
    game g;
    input_tape tape;
    uint32_t f;
    if (!open_with_tape(&g, &tape, path, content, NULL)) return 1;
    for (f = 0; f < tape.count; f++) {
        game_frame(&g, tape.frames[f]);
        if ((f + 1) % every == 0 || f + 1 == tape.count)
            printf("%u %016" PRIx64 "\n", f + 1, sim_hash(g.block));
    }
    fprintf(stderr, "score %d, kills %d, deaths %u, level %u\n", sim_head(g.block)->score, sim_head(g.block)->kills,
            sim_head(g.block)->deaths, sim_head(g.block)->level);
    return finish(&g, &tape, 0);
}

/* Rollback as netcode does it: the input of each frame arrives DELAY frames late; until then
 * the frame runs on a prediction (the last input known). When an input arrives that differs from
 * its prediction, the block is restored from the snapshot taken before that frame and the frames
 * since are re-simulated (with the new prediction). Every frame's final hash must equal the
 * straight run's. */
typedef struct rollback_run {
    game *g;
    const input_tape *tape;
    uint32_t *used;           /* the input each frame last ran with */
    unsigned char *snapshots; /* the block before each frame */
    uint64_t *final;
    uint32_t rollbacks, resimulated;
} rollback_run;

static void run_frame(rollback_run *r, uint32_t k) {
    memcpy(r->snapshots + (size_t)k * SIM_BLOCK_BYTES, r->g->block, SIM_BLOCK_BYTES);
    sim_step(r->g->block, &r->g->world, r->used[k]);
    r->final[k] = sim_hash(r->g->block);
}

/* Frame a's input arrives while frame `now` is next to run. */
static void arrive(rollback_run *r, uint32_t a, uint32_t now) {
    uint32_t real = r->tape->frames[a], k;
    if (r->used[a] == real) return; /* the prediction was right */
    memcpy(r->g->block, r->snapshots + (size_t)a * SIM_BLOCK_BYTES, SIM_BLOCK_BYTES);
    r->rollbacks++;
    for (k = a; k < now; k++) {
        r->used[k] = real; /* frame a's own input, then the newest prediction */
        run_frame(r, k);
        r->resimulated += k > a;
    }
}

static int rollback(const char *content, const char *path, uint32_t delay) {
    game g;
    input_tape tape;
    rollback_run r;
    uint64_t *straight;
    uint32_t f, mismatches = 0;
    if (!open_with_tape(&g, &tape, path, content, NULL)) return 1;
    memset(&r, 0, sizeof r);
    r.g = &g;
    r.tape = &tape;
    straight = (uint64_t *)calloc(tape.count, sizeof *straight);
    r.final = (uint64_t *)calloc(tape.count, sizeof *r.final);
    r.used = (uint32_t *)calloc(tape.count, sizeof *r.used);
    r.snapshots = (unsigned char *)malloc((size_t)tape.count * SIM_BLOCK_BYTES);
    if (!straight || !r.final || !r.used || !r.snapshots) return 1;
    for (f = 0; f < tape.count; f++) {
        sim_step(g.block, &g.world, tape.frames[f]);
        straight[f] = sim_hash(g.block);
    }
    game_new(&g);
    for (f = 0; f < tape.count; f++) {
        if (f >= delay) arrive(&r, f - delay, f);
        r.used[f] = f >= delay ? tape.frames[f - delay] : 0; /* predict: the last input known */
        run_frame(&r, f);
    }
    for (f = tape.count > delay ? tape.count - delay : 0; f < tape.count; f++) arrive(&r, f, tape.count);
    for (f = 0; f < tape.count; f++) mismatches += r.final[f] != straight[f];
    printf("frames %u, inputs %u frames late, rollbacks %u, frames re-simulated %u, hash mismatches %u\n",
           tape.count, delay, r.rollbacks, r.resimulated, mismatches);
    game_close(&g);
    free(straight);
    free(r.final);
    free(r.used);
    free(r.snapshots);
    input_tape_free(&tape);
    return mismatches == 0 && r.rollbacks > 0 ? 0 : 1;
}

/* Save halfway through, go on to the end; then a new game continues from the save (save.h) and
 * must end on the same hash. */
static int save_continue(const char *content, const char *path, const char *saves) {
    game g;
    input_tape tape;
    uint32_t f, half;
    uint64_t straight, continued;
    if (!open_with_tape(&g, &tape, path, content, saves)) return 1;
    half = tape.count / 2;
    if (game_has_save(&g, "continue")) { /* the menu offers Continue only once there is a save */
        fprintf(stderr, "game-headless: %s already holds a save\n", saves);
        return finish(&g, &tape, 1);
    }
    for (f = 0; f < tape.count; f++) {
        if (f == half && !game_save(&g, "continue")) return finish(&g, &tape, 1);
        game_frame(&g, tape.frames[f]);
    }
    straight = sim_hash(g.block);
    game_new(&g);
    if (!game_has_save(&g, "continue") || !game_continue(&g, "continue")) return finish(&g, &tape, 1);
    for (f = half; f < tape.count; f++) game_frame(&g, tape.frames[f]);
    continued = sim_hash(g.block);
    printf("saved at frame %u; straight %016" PRIx64 ", continued %016" PRIx64 "\n", half, straight, continued);
    return finish(&g, &tape, straight == continued ? 0 : 1);
}

/* The recording bot: walks towards the nearest enemy (or the exit once it is open, or wanders),
 * firing whenever an enemy is in line. Only reads the frame; its inputs are the recording. */
static uint32_t toward(tl_fpv2 from, tl_fpv2 to, bool away) {
    tl_fpv2 d = tl_fpv2_sub(to, from);
    tl_fp slack = tl_fp_from_fraction(1, 4);
    uint32_t bits = 0;
    if (away) d = tl_fpv2_neg(d);
    if (tl_fp_gt(d.x, slack)) bits |= SIM_RIGHT;
    if (tl_fp_lt(d.x, tl_fp_neg(slack))) bits |= SIM_LEFT;
    if (tl_fp_gt(d.y, slack)) bits |= SIM_DOWN;
    if (tl_fp_lt(d.y, tl_fp_neg(slack))) bits |= SIM_UP;
    return bits;
}

static uint32_t bot_input(const game *g, uint32_t frame) {
    const sim_header *h = sim_head_const(g->block);
    const sim_level *level = &g->world.levels[h->level];
    sim_enemy_list_const enemies = sim_enemies_const(g->block);
    uint32_t i, n = sim_enemy_list_const_count(enemies), best = UINT32_MAX;
    tl_fp best_d = TL_FP_MAX;
    tl_fpv2 exit_at = tl_fpv2_make(tl_fp_add(tl_fp_from_int(level->exit_x), TL_FP_HALF),
                                   tl_fp_add(tl_fp_from_int(level->exit_y), TL_FP_HALF));
    for (i = 0; i < n; i++) {
        tl_fp d = tl_fpv2_sqr_magnitude(tl_fpv2_sub(sim_enemy_list_const_at(enemies, i)->pos, h->player));
        if (tl_fp_lt(d, best_d)) {
            best_d = d;
            best = i;
        }
    }
    if (sim_exit_open(g->block, &g->world)) return toward(h->player, exit_at, false) | ((frame / 7) % 2 ? SIM_FIRE : 0);
    if (best == UINT32_MAX) return ((frame / 40) % 4 == 0 ? SIM_LEFT : (frame / 40) % 4 == 1 ? SIM_UP : (frame / 40) % 4 == 2 ? SIM_RIGHT : SIM_DOWN);
    /* keep some distance: close in when far, back off when near, always firing when aligned */
    return toward(h->player, sim_enemy_list_const_at(enemies, best)->pos, tl_fp_lt(best_d, tl_fp_from_int(9))) | SIM_FIRE;
}

static int record(const char *content, const char *path, uint32_t frames) {
    game g;
    input_tape tape;
    uint32_t f;
    bool ok;
    if (!input_tape_init(&tape, frames)) return 1;
    if (!open_game(&g, content, NULL)) {
        input_tape_free(&tape);
        return 1;
    }
    for (f = 0; f < frames; f++) {
        uint32_t in = bot_input(&g, f);
        tape.frames[tape.count++] = in;
        game_frame(&g, in);
    }
    game_close(&g);
    ok = input_tape_write(&tape, path, "recorded by game-headless record (the bot)"); /* says why not */
    input_tape_free(&tape);
    return ok ? 0 : 1;
}

/* The simulation's frame time with ENTITIES enemies alive (not a pass/fail test). */
static int bench(const char *content, uint32_t entities, uint32_t frames) {
    static volatile uint64_t sink; /* the hashes go somewhere: the loop is not optimised away */
    game g;
    uint32_t f, placed;
    double t0 = game_seconds_now(), t1;
    if (!open_game(&g, content, NULL)) return 1;
    t1 = game_seconds_now();
    printf("game opened in %.2f ms (content mounted, core deployed, ", (t1 - t0) * 1e3);
    g.world.max_enemies = entities < SIM_MAX_ENEMIES ? entities : SIM_MAX_ENEMIES;
    placed = sim_populate(g.block, &g.world, entities);
    t0 = game_seconds_now();
    for (f = 0; f < frames; f++) {
        sim_step(g.block, &g.world, (f / 30) % 2 ? SIM_LEFT | SIM_FIRE : SIM_RIGHT | SIM_FIRE);
        if (sim_enemy_list_count(sim_enemies(g.block)) < g.world.max_enemies)
            sim_populate(g.block, &g.world, g.world.max_enemies - sim_enemy_list_count(sim_enemies(g.block)));
    }
    t1 = game_seconds_now();
    printf("both levels loaded through the levels in %.2f ms of it)\n", g.load_seconds * 1e3);
    printf("%u entities: %.1f us per simulated frame (%u frames); ", placed, (t1 - t0) * 1e6 / frames, frames);
    t0 = game_seconds_now();
    for (f = 0; f < frames; f++) {
        sim_head(g.block)->reserved = f; /* a different block each time: nothing to hoist */
        sink ^= sim_hash(g.block);
    }
    t1 = game_seconds_now();
    printf("the frame's XXH64 over %zu bytes: %.1f us (%s)\n", (size_t)SIM_BLOCK_BYTES, (t1 - t0) * 1e6 / frames,
           sink ? "hashed" : "?");
    sim_head(g.block)->reserved = 0;
    game_close(&g);
    return 0;
}

/* Continues from the save `continue` left (made by this or another machine): the frame's hash, or
 * a failure with the reason logged (a save of the other byte order is refused). */
static int resume(const char *content, const char *saves) {
    game g;
    if (!open_game(&g, content, saves)) return 1;
    if (!game_continue(&g, "continue")) {
        game_close(&g);
        return 1;
    }
    printf("resumed at frame %u: %016" PRIx64 "\n", sim_head(g.block)->frame, sim_hash(g.block));
    game_close(&g);
    return 0;
}

/* Saved pickups whose item is none of this build's Game.Items values (its world's coin and
 * heart): what a save holds once an item's value changed. */
static uint32_t unknown_items(const game *g) {
    sim_pickup_list_const pickups = sim_pickups_const(g->block);
    uint32_t i, unknown = 0;
    for (i = 0; i < sim_pickup_list_const_count(pickups); i++) {
        uint32_t item = sim_pickup_list_const_at(pickups, i)->item;
        unknown += item != g->world.coin_item && item != g->world.heart_item;
    }
    return unknown;
}

/* Continues from the save `continue` left (made by this build, or by an older one: the
 * before-rename fixture) and plays the rest of the recording: the final frame's hash. Items in
 * the saved frame are Game.Items values: each must still be one this build knows, and the run
 * must end on the straight run's hash. */
static int resume_play(const char *content, const char *saves, const char *path) {
    game g;
    input_tape tape;
    uint32_t f, from;
    bool ok;
    if (!open_with_tape(&g, &tape, path, content, saves)) return 1;
    if (!game_continue(&g, "continue")) return finish(&g, &tape, 1);
    from = sim_head(g.block)->frame;
    ok = from <= tape.count;
    if (unknown_items(&g)) {
        fprintf(stderr, "game-headless: the save holds %u pickups of an item this build does not know\n", unknown_items(&g));
        ok = false;
    }
    for (f = from; f < tape.count; f++) game_frame(&g, tape.frames[f]);
    printf("%u %016" PRIx64 "\n", tape.count, sim_hash(g.block));
    return finish(&g, &tape, ok ? 0 : 1);
}

#if defined(TL_DEVELOPMENT)
/* Live tuning: the game opens on its baked stats, reads the images watch wrote into image_dir
   (tl_vault_live_add reads them at once, as a reload), polls once more, and says what the world
   now holds for the Slime. */
static int tune(const char *content, const char *image_dir) {
    game g;
    game_desc d;
    const sim_enemy_stats *slime;
    memset(&d, 0, sizeof d);
    d.content_dir = content;
    d.seed = SEED;
    d.quiet = true;
    d.vault_image_dir = image_dir;
    if (!game_open(&g, &d)) {
        fprintf(stderr, "game-headless-dev: the game did not start: %s\n", g.refusal);
        return 1;
    }
    game_tune(&g);
    slime = &g.world.kinds[enemies_index_by_key(GAME_ENEMYKINDS_U32(Game_EnemyKinds_Slime))];
    printf("Slime max_health %d score %d (%u stats tuned)\n", (int)slime->max_health, (int)slime->score, g.tuned);
    game_close(&g);
    return 0;
}
#endif

/* The language is remembered in the save: made in French, continued by a game opened in English. */
static int language(const char *content, const char *saves) {
    game g;
    bool ok;
    if (!open_game(&g, content, saves)) return 1;
    ok = game_set_locale(&g, "fr") && game_save(&g, "language");
    game_close(&g);
    if (!ok || !open_game(&g, content, saves)) return 1;
    printf("opened in %s, ", tl_l10n_locale(g.text));
    if (!game_continue(&g, "language")) {
        game_close(&g);
        return 1;
    }
    printf("continued in %s: %s\n", tl_l10n_locale(g.text), text_MenuContinue(g.text));
    game_close(&g);
    return 0;
}

/* The text as content (tests/text_assets.sh): at each locale, the table assets the game's text
 * scopes hold and the asset whose bytes the menu's text is read from; then the OnLocaleChanged
 * events seen. */
static void on_locale_changed(void *ctx, const char *locale) {
    char *seen = (char *)ctx;
    size_t n = strlen(seen);
    snprintf(seen + n, 64 - n, " %s", locale);
}

/* The table asset of locale i that the game's scope holds; an invalid asset when none. */
static tl_asset held_table(game *g, uint32_t i) {
    content_text id;
    tl_asset none;
    memset(&none, 0, sizeof none);
    if (!tl_scope_valid(g->text_scopes[i]) || !content_text_from_name(text_keys_locales()[i], &id) ||
        !tl_scope_contains(g->text_scopes[i], CONTENT_TEXT_U32(id)))
        return none;
    return tl_scope_load(g->text_scopes[i], CONTENT_TEXT_U32(id)); /* held: the same asset */
}

static void print_tables(game *g) {
    const char *menu = text_MenuContinue(g->text), *from = "(none)", *sep = " ";
    char path[64];
    uint32_t i;
    printf("%s:", tl_l10n_locale(g->text));
    for (i = 0; i < TEXT_KEYS_LOCALE_COUNT; i++) {
        tl_asset table = held_table(g, i);
        uintptr_t bytes = (uintptr_t)tl_asset_object(table);
        if (!bytes) continue;
        tl_scope_path(g->text_scopes[i], path, sizeof path);
        printf("%s%s in %s", sep, tl_asset_name(table), path);
        sep = ", ";
        if ((uintptr_t)menu >= bytes && (uintptr_t)menu < bytes + tl_asset_size(table)) from = tl_asset_name(table);
    }
    printf("; \"%s\" from the asset %s\n", menu, from);
}

static int text_tables(const char *content) {
    game g;
    char seen[64] = "";
    bool ok;
    if (!open_game(&g, content, NULL)) return 1;
    Iris_Events_OnLocaleChanged_subscribe(&g.registry, on_locale_changed, seen);
    print_tables(&g);
    ok = game_next_locale(&g); /* the menu's Language item */
    if (ok) print_tables(&g);
    ok = ok && game_next_locale(&g);
    if (ok) print_tables(&g);
    printf("OnLocaleChanged:%s\n", seen);
    game_close(&g);
    return ok ? 0 : 1;
}

#define USAGE_ERROR 2 /* a command line the driver does not take */

int main(int argc, char **argv) {
    const char *mode = argc > 2 ? argv[2] : "";
    uint32_t a = 100, b = 0; /* the mode's counts */
    if (argc >= 4 && strcmp(mode, "replay") == 0)
        return argc > 4 && !count_arg("game-headless", argv[4], "EVERY", 1, UINT32_MAX, &a) ? USAGE_ERROR : replay(argv[1], argv[3], a);
    if (argc >= 5 && strcmp(mode, "rollback") == 0)
        return !count_arg("game-headless", argv[4], "DELAY", 1, UINT32_MAX, &a) ? USAGE_ERROR : rollback(argv[1], argv[3], a);
    if (argc >= 5 && strcmp(mode, "continue") == 0) return save_continue(argv[1], argv[3], argv[4]);
    if (argc >= 4 && strcmp(mode, "resume") == 0) return resume(argv[1], argv[3]);
    if (argc >= 5 && strcmp(mode, "resume-play") == 0) return resume_play(argv[1], argv[3], argv[4]);
    if (argc >= 4 && strcmp(mode, "language") == 0) return language(argv[1], argv[3]);
    if (argc >= 3 && strcmp(mode, "text") == 0) return text_tables(argv[1]);
    if (argc >= 5 && strcmp(mode, "record") == 0)
        return !count_arg("game-headless", argv[4], "FRAMES", 1, UINT32_MAX, &a) ? USAGE_ERROR : record(argv[1], argv[3], a);
#if defined(TL_DEVELOPMENT)
    if (argc >= 4 && strcmp(mode, "tune") == 0) return tune(argv[1], argv[3]);
#endif
    if (argc >= 5 && strcmp(mode, "bench") == 0)
        return !count_arg("game-headless", argv[3], "ENTITIES", 0, UINT32_MAX, &a) || !count_arg("game-headless", argv[4], "FRAMES", 1, UINT32_MAX, &b) ? USAGE_ERROR : bench(argv[1], a, b);
    fprintf(stderr, "usage: game-headless CONTENT replay|rollback|continue|resume|resume-play|language|text|record|bench ... (see headless.c)\n");
    return USAGE_ERROR;
}
