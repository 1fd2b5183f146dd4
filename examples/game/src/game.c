/* game.c - the threadlink glue around the simulation (see game.h).
 *
 * Deployment (lifecycle.h): the core weaves two subsystems. "World" preloads the levels: it
 * creates the levels and holds both areas, and its preload stays pending until both are resident
 * (the simulation runs every area's data; the one shown is the presented level). Its boot builds
 * the sim_world from the levels and the vaults. "Feed" subscribes to the game's typed events in
 * its initialize and keeps what the HUD shows.
 *
 * Each level (levels.h) loads its map into the level's content scope; its spawn points are the
 * level's objects (a lifecycle batch), each booting an entity scope under the level scope that
 * holds the sprites of the enemies it spawns (loaded through the vault's AssetRef). The player's
 * entity scope moves to the presented level's scope with tl_scope_reparent. */
#include "game.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "content_game.h"
#include "content_text.h"
#include "enemy_kinds.h"
#include "iris_events.h"
#include "items.h"
#include "levels.h"
#include "rng_domains.h"
#include "spawn_points.h"
#include "vaults/enemies_data.h"
#include "vaults/maps_data.h"
#include "vaults/weapons_data.h"

#include <stb/stb_image.h>

/* Processor time (C89's clock, everywhere): what the timings measure is computation. */
double game_seconds_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* ---- content kinds: PNG sprites (stb_image) and level maps (text) ----------------------------- */

static void *decode_sprite(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    game_image *img = (game_image *)calloc(1, sizeof *img);
    int channels;
    (void)user;
    (void)info;
    if (img && size <= 0x7fffffff)
        img->rgba = stbi_load_from_memory((const unsigned char *)bytes, (int)size, &img->width, &img->height, &channels, 4);
    if (img && img->rgba) return img;
    free(img); /* not a PNG: the load fails, and content.h says so */
    return NULL;
}

static void destroy_sprite(void *user, const tl_content_info *info, void *object) {
    game_image *img = (game_image *)object;
    (void)user;
    (void)info;
    stbi_image_free(img->rgba);
    free(img);
}

/* A level map as decoded: the simulation's part and the names the loader resolves. */
typedef struct level_def {
    sim_level sim;
    char floor[64];
} level_def;

typedef struct level_parse {
    level_def *def;
    char legend[SIM_MAX_SPAWNS];
    uint32_t points[SIM_MAX_SPAWNS];
    uint32_t legend_count;
    int map_row; /* -1 before "map" */
} level_parse;

/* "enemies KIND WEIGHT ...": Game.EnemyKinds names; the Enemy vault's instances are keyed by them. */
static bool parse_enemies(level_def *def, const char *rest) {
    char name[32];
    unsigned weight;
    int used;
    uint32_t k;
    game_enemykinds kind;
    while (sscanf(rest, "%31s %u%n", name, &weight, &used) == 2) {
        if (!game_enemykinds_from_name(name, &kind)) return false;
        k = enemies_index_by_key(GAME_ENEMYKINDS_U32(kind));
        if (k >= ENEMIES_COUNT || k >= SIM_MAX_KINDS) return false; /* a kind without stats */
        def->sim.kind_weights[k] = weight;
        rest += used;
    }
    return true;
}

static bool parse_directive(level_parse *p, const char *line) {
    char word[32], a[64], b[64];
    int n = sscanf(line, "%31s %63s %63s", word, a, b);
    nexus_levels next;
    nexus_spawnpoints point;
    if (n >= 2 && strcmp(word, "floor") == 0) return snprintf(p->def->floor, sizeof p->def->floor, "%s", a) > 0;
    if (n >= 2 && strcmp(word, "next") == 0 && nexus_levels_from_name(a, &next)) {
        p->def->sim.next = NEXUS_LEVELS_U32(next);
        return true;
    }
    if (n >= 2 && strcmp(word, "exit_score") == 0) {
        p->def->sim.exit_score = atoi(a);
        return true;
    }
    if (n >= 2 && strcmp(word, "enemies") == 0) return parse_enemies(p->def, line + strlen("enemies"));
    if (n == 3 && strcmp(word, "spawn") == 0 && p->legend_count < SIM_MAX_SPAWNS && nexus_spawnpoints_from_name(b, &point)) {
        p->legend[p->legend_count] = a[0];
        p->points[p->legend_count++] = NEXUS_SPAWNPOINTS_U32(point);
        return true;
    }
    if (n == 1 && strcmp(word, "map") == 0) {
        p->map_row = 0;
        return true;
    }
    return false;
}

static void place_spawn(level_parse *p, char c, int32_t x, int32_t y) {
    sim_level *s = &p->def->sim;
    uint32_t i;
    for (i = 0; i < p->legend_count; i++) {
        if (p->legend[i] != c || s->spawn_count >= SIM_MAX_SPAWNS) continue;
        if (c == 'P') { /* the player's start is spawns[0] */
            memmove(&s->spawns[1], &s->spawns[0], s->spawn_count * sizeof s->spawns[0]);
            s->spawns[0].point = p->points[i];
            s->spawns[0].x = x;
            s->spawns[0].y = y;
        } else {
            s->spawns[s->spawn_count].point = p->points[i];
            s->spawns[s->spawn_count].x = x;
            s->spawns[s->spawn_count].y = y;
        }
        s->spawn_count++;
    }
}

static bool parse_map_row(level_parse *p, const char *line) {
    int32_t x, y = p->map_row;
    if (y >= SIM_MAP_H || strlen(line) != SIM_MAP_W) return false;
    for (x = 0; x < SIM_MAP_W; x++) {
        char c = line[x];
        p->def->sim.tiles[y][x] = c == '#' ? '#' : '.';
        if (c == 'X') {
            p->def->sim.exit_x = x;
            p->def->sim.exit_y = y;
        }
        else if (c != '#' && c != '.') place_spawn(p, c, x, y);
    }
    p->map_row++;
    return true;
}

static void *decode_level(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    const char *s = (const char *)bytes, *end = s + size;
    level_parse p;
    char line[128];
    bool ok = true;
    (void)user;
    memset(&p, 0, sizeof p);
    p.map_row = -1;
    if (!(p.def = (level_def *)calloc(1, sizeof *p.def))) return NULL;
    while (ok && s < end) {
        size_t n = 0;
        while (s < end && *s != '\n') {
            if (n + 1 < sizeof line) line[n++] = *s;
            s++;
        }
        s += s < end;
        line[n] = 0;
        if (line[0] == '#' && p.map_row < 0) continue;
        if (!line[0]) continue;
        ok = p.map_row < 0 ? parse_directive(&p, line) : parse_map_row(&p, line);
        if (!ok) fprintf(stderr, "%s: cannot read the line '%s'\n", info->name, line);
    }
    if (ok && p.map_row == SIM_MAP_H && p.def->sim.spawn_count >= 2) return p.def;
    if (ok) fprintf(stderr, "%s: needs %d map rows, a player start and a spawn point\n", info->name, SIM_MAP_H);
    free(p.def);
    return NULL;
}

static void destroy_level(void *user, const tl_content_info *info, void *object) {
    (void)user;
    (void)info;
    free(object);
}

const game_image *game_image_of(tl_asset asset) { return (const game_image *)tl_asset_object(asset); }

/* ---- the levels: loader, spawn point objects --------------------------------------------------- */

static uint32_t area_index(const game *g, uint32_t id) {
    uint32_t i;
    for (i = 0; i < SIM_MAX_LEVELS && g->areas[i].id != id; i++) {}
    return i;
}
static game_area *area_by_id(game *g, uint32_t id) {
    uint32_t i = area_index(g, id);
    return i < SIM_MAX_LEVELS ? &g->areas[i] : NULL;
}
const game_area *game_area_of(const game *g, uint32_t level_id) {
    uint32_t i = area_index(g, level_id);
    return i < SIM_MAX_LEVELS ? &g->areas[i] : NULL;
}

/* A spawn point: an entity scope under the level's, holding the sprites of what spawns there. */
static void spawn_boot(void *self, void *ctx) {
    game_spawn *s = (game_spawn *)self;
    tl_scope level_scope = tl_glue_level_scope(s->area->level);
    const level_def *def = (const level_def *)tl_asset_object(tl_scope_load(level_scope, s->area->asset));
    uint32_t k, point = def->sim.spawns[s->index].point;
    (void)ctx;
    s->scope = tl_scope_create(level_scope, nexus_spawnpoints_name(point), TL_SCOPE_ENTITY);
    for (k = 0; k < ENEMIES_COUNT && k < SIM_MAX_KINDS; k++)
        if (def->sim.kind_weights[k]) s->area->kind_sprite[k] = enemy_vault_load_Sprite(enemies_by_index(k), s->scope);
}

static void spawn_discard(void *self, void *ctx) {
    game_spawn *s = (game_spawn *)self;
    (void)ctx;
    tl_scope_dispose(s->scope);
    memset(&s->scope, 0, sizeof s->scope);
}

static const tl_lifecycle_object_vtable spawn_vtable = {"SpawnPoint", NULL, NULL, spawn_boot, NULL, spawn_discard, NULL};

static tl_levels_status begin_load(void *ctx, tl_level *level) {
    game *g = (game *)ctx;
    game_area *area = area_by_id(g, tl_level_id(level));
    tl_scope scope = tl_glue_level_scope(level);
    const level_def *def;
    uint32_t i, n = 0;
    if (!area) return TL_LEVELS_FAILED;
    area->level = level;
    def = (const level_def *)tl_asset_object(tl_scope_load(scope, area->asset));
    if (!def) {
        tl_level_fail(level, "its map did not load");
        return TL_LEVELS_FAILED;
    }
    area->floor = tl_scope_load_name(scope, def->floor);
    area->wall = tl_scope_load(scope, Content_Game_Sprites_wall);
    area->exit = tl_scope_load(scope, Content_Game_Sprites_exit);
    for (i = 1; i < def->sim.spawn_count; i++, n++) {
        area->spawns[n].area = area;
        area->spawns[n].index = i;
        area->objects[n].vtable = &spawn_vtable;
        area->objects[n].self = &area->spawns[n];
        area->objects[n].name = nexus_spawnpoints_name(def->sim.spawns[i].point);
        area->objects[n].parent = TL_LIFECYCLE_BATCH_NO_PARENT;
    }
    return tl_glue_level_set_objects(level, area->objects, n) == TL_LEVELS_OK ? TL_LEVELS_DONE
                                                                          : TL_LEVELS_FAILED;
}

static void unload_level(void *ctx, tl_level *level) {
    game_area *area = area_by_id((game *)ctx, tl_level_id(level));
    if (area) area->level = NULL; /* its assets went with its scope */
}

/* ---- the World subsystem: the levels held and the simulation's world built ---------------------- */

/* The levels are the Level vault's instances (maps.vaultdata.json, keyed by Nexus.Levels). */
typedef char game_levels_are_the_maps[MAPS_COUNT == SIM_MAX_LEVELS ? 1 : -1];

static tl_lifecycle_status world_preload(void *self, tl_lifecycle *core) {
    game *g = (game *)self;
    uint32_t i, resident = 0;
    (void)core;
    if (!g->areas[0].hold.levels) {
        g->load_seconds = game_seconds_now();
        for (i = 0; i < SIM_MAX_LEVELS; i++) g->areas[i].hold = tl_levels_hold(g->levels, g->areas[i].id);
    }
    tl_levels_update(g->levels, 0.0);
    for (i = 0; i < SIM_MAX_LEVELS; i++) {
        tl_level_hold_status st = tl_level_hold_status_of(g->areas[i].hold);
        if (st == TL_LEVEL_HOLD_FAILED || st == TL_LEVEL_HOLD_INVALID) return TL_LIFECYCLE_FAILED; /* the levels logged why */
        resident += st == TL_LEVEL_HOLD_RESIDENT;
    }
    if (resident < SIM_MAX_LEVELS) return TL_LIFECYCLE_PENDING;
    g->load_seconds = game_seconds_now() - g->load_seconds;
    return TL_LIFECYCLE_DONE;
}

static void fill_kinds(sim_world *w) {
    uint32_t k;
    w->kind_count = ENEMIES_COUNT < SIM_MAX_KINDS ? ENEMIES_COUNT : SIM_MAX_KINDS;
    for (k = 0; k < w->kind_count; k++) {
        const enemy_vault *v = enemies_by_index(k);
        w->kinds[k].kind = enemies_keys[k]; /* the Game.EnemyKinds entry the instance is */
        w->kinds[k].max_health = enemy_vault_get_MaxHealth(v);
        w->kinds[k].contact_damage = enemy_vault_get_ContactDamage(v);
        w->kinds[k].score = enemy_vault_get_Bounty(v);
        w->kinds[k].move_speed = enemy_vault_get_MoveSpeed(v);
        w->kinds[k].drop_chance = enemy_vault_get_DropChance(v);
    }
}

static void fill_weapon(sim_world *w) {
    const weapon_vault *v = weapons_by_index(0);
    w->weapon.damage = weapon_vault_get_Damage(v);
    w->weapon.cooldown = weapon_vault_get_Cooldown(v);
    w->weapon.lifetime = weapon_vault_get_Lifetime(v);
    w->weapon.bolt_speed = weapon_vault_get_BulletSpeed(v);
    w->weapon.spread = weapon_vault_get_Spread(v);
}

/* The simulation's world: the resident levels' maps and the vaults' stats, copied. */
static void world_boot(void *self, tl_lifecycle *core) {
    game *g = (game *)self;
    sim_world *w = &g->world;
    uint32_t i;
    (void)core;
    memset(w, 0, sizeof *w);
    w->level_count = SIM_MAX_LEVELS;
    for (i = 0; i < SIM_MAX_LEVELS; i++) {
        game_area *a = &g->areas[i];
        w->levels[i] = ((const level_def *)tl_asset_object(tl_scope_load(tl_glue_level_scope(a->level), a->asset)))->sim;
        w->levels[i].id = a->id;
    }
    fill_kinds(w);
    fill_weapon(w); /* again on every tuned stat in development builds (game_tune) */
    w->max_enemies = 48;
    w->coin_item = GAME_ITEMS_U32(Game_Items_Gem);
    w->heart_item = GAME_ITEMS_U32(Game_Items_Heart);
    w->rng_spawn_pick = GAME_RNG_U32(Game_Rng_SpawnPick);
    w->rng_spawn_kind = GAME_RNG_U32(Game_Rng_SpawnKind);
    w->rng_wander = GAME_RNG_U32(Game_Rng_Wander);
    w->rng_drop = GAME_RNG_U32(Game_Rng_Drop);
    w->rng_spread = GAME_RNG_U32(Game_Rng_Spread);
}

static const tl_lifecycle_subsystem world_subsystem = {"World", world_preload, world_boot, NULL, NULL};

/* ---- the Feed subsystem: the game's events, typed ----------------------------------------------- */

static void feed_say(game_feed *f, const char *text) {
    snprintf(f->message, sizeof f->message, "%s", text);
    f->message_frames = 90;
}
static void on_enemy_killed(void *ctx, const struct sim_kill *kill) {
    game_feed *f = (game_feed *)ctx;
    const char *name = kill->kind == GAME_ENEMYKINDS_U32(Game_EnemyKinds_Bat) ? text_EnemyBat(f->text) : text_EnemySlime(f->text);
    char text[64];
    f->kills++;
    text_FeedKill(f->text, text, sizeof text, name, kill->score);
    feed_say(f, text);
}
static void on_item_picked(void *ctx, uint32_t item) {
    game_feed *f = (game_feed *)ctx;
    f->pickups++;
    feed_say(f, item == GAME_ITEMS_U32(Game_Items_Heart) ? text_ItemHeart(f->text) : text_ItemGem(f->text));
}
static void on_player_hurt(void *ctx, int32_t health) {
    game_feed *f = (game_feed *)ctx;
    f->hurts++;
    if (health <= 0) feed_say(f, text_FeedDown(f->text));
}
static void on_level_entered(void *ctx, uint32_t level) {
    game_feed *f = (game_feed *)ctx;
    const level_vault *map = maps_by_key(level);
    f->levels_entered++;
    feed_say(f, map ? level_vault_text_Title(map, tl_l10n_text_of_key, f->text) : "");
}

static void feed_initialize(void *self, tl_lifecycle *core) {
    game_feed *f = (game_feed *)self;
    (void)core;
    Iris_Events_OnEnemyKilled_subscribe(f->registry, on_enemy_killed, f);
    Iris_Events_OnItemPicked_subscribe(f->registry, on_item_picked, f);
    Iris_Events_OnPlayerHurt_subscribe(f->registry, on_player_hurt, f);
    Iris_Events_OnLevelEntered_subscribe(f->registry, on_level_entered, f);
}
static void feed_discard(void *self, tl_lifecycle *core) {
    game_feed *f = (game_feed *)self;
    (void)core;
    Iris_Events_OnEnemyKilled_unsubscribe(f->registry, on_enemy_killed, f);
    Iris_Events_OnItemPicked_unsubscribe(f->registry, on_item_picked, f);
    Iris_Events_OnPlayerHurt_unsubscribe(f->registry, on_player_hurt, f);
    Iris_Events_OnLevelEntered_unsubscribe(f->registry, on_level_entered, f);
}

static const tl_lifecycle_subsystem feed_subsystem = {"Feed", NULL, NULL, feed_initialize, feed_discard};

/* ---- the fader: the transition's single providers ------------------------------------------- */

bool game_display_fader(void *ctx, tl_levels *levels) {
    game *g = (game *)ctx;
    (void)levels;
    g->fade_dir = g->fade < GAME_FADE_FRAMES ? 1 : 0;
    return g->fade >= GAME_FADE_FRAMES;
}
bool game_hide_fader(void *ctx, tl_levels *levels) {
    game *g = (game *)ctx;
    (void)levels;
    g->fade_dir = g->fade > 0 ? -1 : 0;
    return g->fade <= 0;
}
static void on_presented(void *ctx, tl_level *level) {
    game *g = (game *)ctx;
    g->presented = tl_level_id(level);
    tl_scope_reparent(g->player_scope, tl_glue_level_scope(level)); /* the player goes along */
}

/* ---- open, frames, close ------------------------------------------------------------------- */

/* Why game_open refused: one line naming what failed, kept in g->refusal for the caller to say
   last (the lines content.h, save.h or the levels logged before it give the detail). False, for
   `return refuse(...)`. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static bool refuse(game *g, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(g->refusal, sizeof g->refusal, format, args);
    va_end(args);
    return false;
}

/* Mounts a packed profile's folder; refused, naming the folder, when content.h cannot (the line
   it logged says why) or when the folder holds another profile (the other of the two folders).
   `what` opens the refusal ("no text tables: "). */
static bool register_profile(game *g, const char *dir, const char *profile, const char *what) {
    tl_content_dir d = tl_content_register_dir(g->content, dir);
    const char *found = tl_content_dir_valid(d) ? tl_content_dir_profile(d) : NULL;
    if (!tl_content_dir_valid(d))
        return refuse(g, "%s%s is not the packed %s profile (threadlink-gen pack --profile %s): %s", what, dir, profile, profile,
                      tl_content_result_message(tl_content_last_result(g->content)));
    if (found && strcmp(found, profile) == 0) return true;
    return refuse(g, "%s%s holds the packed %s profile, not the %s profile", what, dir, found ? found : "(unnamed)", profile);
}

/* The content context, the game's kinds, and the Game profile's folder (threadlink.json's
   profiles: Game, and Text beside it). */
static bool open_content(game *g, const game_desc *desc) {
    tl_content_desc content_desc;
    tl_content_kind_desc kind;
    memset(&content_desc, 0, sizeof content_desc);
    content_desc.logger = g->logger;
    if (!(g->content = tl_content_create(&content_desc))) return refuse(g, "out of memory (the content context)");
    memset(&kind, 0, sizeof kind);
    kind.category = "Sprites";
    kind.decode = decode_sprite;
    kind.destroy = destroy_sprite;
    tl_content_register_kind(g->content, &kind);
    kind.category = "Glyphs"; /* the prompts' glyphs (input/game.actions.json), PNGs too */
    tl_content_register_kind(g->content, &kind);
    kind.category = "Levels";
    kind.decode = decode_level;
    kind.destroy = destroy_level;
    tl_content_register_kind(g->content, &kind);
    return register_profile(g, desc->content_dir, "Game", "");
}

static bool open_runtime(game *g, const game_desc *desc) {
    static const tl_lifecycle_events core_events = TL_LIFECYCLE_EVENTS_INIT(Iris_Events_);
    static const tl_time_events time_events = TL_TIME_EVENTS_INIT(Iris_Events_);
    tl_time_desc td;
    static const tl_levels_events nexus_events = TL_LEVELS_EVENTS_INIT(Iris_Events_);
    tl_lifecycle_desc cd;
    tl_levels_desc nd;
    if (iris_events_init(&g->registry, NULL) != TL_EVENTS_OK) return refuse(g, "out of memory (the events table)");
    memset(&cd, 0, sizeof cd);
    cd.registry = &g->registry;
    cd.events = &core_events;
    cd.logger = &g->logger;
    if (tl_lifecycle_init(&g->core, &cd) != TL_LIFECYCLE_OK) return refuse(g, "the core could not be made (logged above)");
    memset(&td, 0, sizeof td);
    td.registry = &g->registry;
    td.events = &time_events;
    td.logger = &g->logger;
    td.fixed_steps_per_second = 60; /* exact steps: SIM's frames are 1/60 s */
    tl_time_init(&g->time, &td);
    if (tl_glue_weave_time(&g->core, &g->time) != TL_LIFECYCLE_OK) return refuse(g, "the time service could not join the core");
    if (!open_content(g, desc)) return false;
    memset(&nd, 0, sizeof nd);
    nd.loader.ctx = g;
    nd.loader.begin_load = begin_load;
    nd.loader.unload = unload_level;
    nd.registry = &g->registry;
    nd.events = &nexus_events;
    nd.objects = tl_glue_levels_objects();
    nd.scopes = tl_glue_levels_scopes(g->content);
    nd.logger = &g->logger;
    nd.level_name = nexus_levels_name; /* log lines name levels */
    if (!(g->levels = tl_levels_create(&nd))) return refuse(g, "out of memory (the levels)");
    if (tl_glue_levels_attach(&g->core, g->levels) != TL_LIFECYCLE_OK) return refuse(g, "the levels could not join the core");
    return true; /* the levels shut down first */
}

/* ---- text: each locale's table is an asset of the packed Text profile ----------------------- */
/* threadlink.json's Text profile packs the text stage's tables folder (generated/text): its
   assets are the locales' tables, named by locale (Content_Text_fr). A locale's table is loaded
   into a scope of its own, Root/Text/<locale>, while the current locale's fallback chain needs
   it, and l10n.h reads the asset's bytes in place. */

/* The Text profile's folder: desc->text_dir, or "Text" beside the Game profile's folder (the
   builds pack both into one content folder: content/Game, content/Text). */
static void text_dir_of(const game_desc *desc, char *out, size_t size) {
    const char *c = desc->content_dir;
    size_t n = strlen(c), cut;
    if (desc->text_dir) {
        snprintf(out, size, "%s", desc->text_dir);
        return;
    }
    while (n > 1 && (c[n - 1] == '/' || c[n - 1] == '\\')) n--; /* "content/Game/" */
    for (cut = n; cut > 0 && c[cut - 1] != '/' && c[cut - 1] != '\\'; cut--) {}
    snprintf(out, size, "%.*sText", (int)cut, c);
}

/* Two characters of locale names, as l10n.h compares them: ASCII case and '-'/'_' ignored. */
static bool same_locale_char(char a, char b) {
    if (a == '-') a = '_';
    if (b == '-') b = '_';
    return (a >= 'A' && a <= 'Z' ? a + 32 : a) == (b >= 'A' && b <= 'Z' ? b + 32 : b);
}
/* Whether `table` is `locale` or a shorter name of it, cut at '_', '-' or '@' ("fr" of "fr_CA"). */
static bool names_locale(const char *table, const char *locale) {
    size_t i;
    for (i = 0; table[i]; i++)
        if (!same_locale_char(table[i], locale[i])) return false;
    return locale[i] == 0 || locale[i] == '_' || locale[i] == '-' || locale[i] == '@';
}
/* Whether the table of locale `table` is in `locale`'s chain as l10n.h makes it: the locale,
   each shorter name of it, then the source locale. */
static bool table_needed(const char *table, const char *locale) {
    return strcmp(table, TEXT_KEYS_SOURCE_LOCALE) == 0 || names_locale(table, locale);
}
/* Whether the game has a table for the locale or a shorter name of it (l10n.h refuses a locale
   with none, unless cutting it reaches the source locale: en_GB). */
static bool has_text_in(const char *locale) {
    uint32_t i;
    for (i = 0; i < TEXT_KEYS_LOCALE_COUNT; i++)
        if (names_locale(text_keys_locales()[i], locale)) return true;
    return false;
}

/* Loads locale i's table asset into its scope and adds its bytes to the text; false (logged by
   content.h, l10n.h or here) leaves neither. */
static bool load_table(game *g, uint32_t i) {
    const char *name = text_keys_locales()[i];
    content_text id;
    tl_asset table;
    if (tl_scope_valid(g->text_scopes[i])) return true;
    if (!content_text_from_name(name, &id)) {
        tl_log(&g->logger, TL_LOG_LEVEL_ERROR, "Game", "no table of %s in the Text profile's catalog", name);
        return false;
    }
    g->text_scopes[i] = tl_scope_create(g->text_scope, name, TL_SCOPE_OWNED);
    table = tl_scope_load(g->text_scopes[i], CONTENT_TEXT_U32(id));
    if (tl_asset_object(table) && tl_l10n_add_table(g->text, tl_asset_object(table), tl_asset_size(table)) == TL_L10N_OK)
        return true;
    tl_scope_dispose(g->text_scopes[i]);
    memset(&g->text_scopes[i], 0, sizeof g->text_scopes[i]);
    return false;
}

/* Takes locale i's table out of the text and releases its asset (the scope ends). */
static void unload_table(game *g, uint32_t i) {
    if (!tl_scope_valid(g->text_scopes[i]) || tl_l10n_remove_table(g->text, text_keys_locales()[i]) != TL_L10N_OK) return;
    tl_scope_dispose(g->text_scopes[i]);
    memset(&g->text_scopes[i], 0, sizeof g->text_scopes[i]);
}

/* "en, fr": the locales the game has tables for. */
static void list_locales(char *out, size_t size) {
    uint32_t i;
    out[0] = 0;
    for (i = 0; i < TEXT_KEYS_LOCALE_COUNT; i++)
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? ", " : "", text_keys_locales()[i]);
}

/* The locale asked for (desc.locale) when the game has text in it; otherwise the source locale,
   with a warning naming the locales there are (a player asking for German gets English). */
static bool start_locale(game *g, const char *asked, const char *dir) {
    char have[128];
    if (asked && has_text_in(asked) && game_set_locale(g, asked)) return true;
    if (asked) {
        list_locales(have, sizeof have);
        tl_log(&g->logger, TL_LOG_LEVEL_WARNING, "Game", "no text in \"%s\" (the game's locales: %s): starting in %s", asked, have,
               TEXT_KEYS_SOURCE_LOCALE);
    }
    return game_set_locale(g, TEXT_KEYS_SOURCE_LOCALE) ||
           refuse(g, "no text tables: the %s table in %s did not load (the lines above say why)", TEXT_KEYS_SOURCE_LOCALE, dir);
}

static bool open_text(game *g, const game_desc *desc) {
    static const tl_l10n_events text_events = TL_L10N_EVENTS_INIT(Iris_Events_);
    char dir[512];
    tl_l10n_desc td;
    memset(&td, 0, sizeof td);
    td.keys = text_keys_l10n();
    td.registry = &g->registry;
    td.events = &text_events;
    td.logger = &g->logger;
    if (!(g->text = tl_l10n_create(&td))) return refuse(g, "out of memory (the text)");
    text_dir_of(desc, dir, sizeof dir);
    if (!register_profile(g, dir, "Text", "no text tables: ")) return false;
    g->text_scope = tl_scope_create(tl_content_root(g->content), "Text", TL_SCOPE_OWNED);
    g->feed.text = g->text;
    return start_locale(g, desc->locale, dir);
}

/* Loads the tables the locale's chain needs, switches, then releases those the locale shown
   (the new one, or the old one when refused) does not need. */
bool game_set_locale(game *g, const char *locale) {
    uint32_t i;
    bool ok = locale != NULL;
    for (i = 0; ok && i < TEXT_KEYS_LOCALE_COUNT; i++)
        if (table_needed(text_keys_locales()[i], locale) && !load_table(g, i)) ok = false;
    ok = ok && tl_l10n_set_locale(g->text, locale) == TL_L10N_OK;
    for (i = 0; i < TEXT_KEYS_LOCALE_COUNT; i++)
        if (!table_needed(text_keys_locales()[i], tl_l10n_locale(g->text))) unload_table(g, i);
    return ok;
}

bool game_next_locale(game *g) {
    uint32_t i;
    for (i = 0; i < TEXT_KEYS_LOCALE_COUNT; i++)
        if (strcmp(text_keys_locales()[i], tl_l10n_locale(g->text)) == 0) break;
    return game_set_locale(g, text_keys_locales()[(i + 1) % TEXT_KEYS_LOCALE_COUNT]);
}

static bool open_saves(game *g, const char *dir) {
    tl_save_store_desc sd;
    tl_save_open_detail why;
    if (!dir) return true;
    memset(&sd, 0, sizeof sd);
    sd.root = dir;
    sd.logger = g->logger;
    if ((g->saves = tl_save_store_open(&sd, &why)) != NULL) return true;
    return refuse(g, "the save folder %s cannot be used: %s", dir,
                  why.native_error ? strerror(why.native_error) : tl_save_result_message(why.result));
}

static void load_player(game *g) {
    g->player_scope = tl_scope_create(tl_content_root(g->content), "Player", TL_SCOPE_ENTITY);
    g->player = tl_scope_load(g->player_scope, Content_Game_Sprites_player);
    g->bolt = weapon_vault_load_Sprite(weapons_by_index(0), g->player_scope);
    g->coin = tl_scope_load(g->player_scope, Content_Game_Sprites_coin);
    g->heart = tl_scope_load(g->player_scope, Content_Game_Sprites_heart);
}

static void subscribe_presentation(game *g, bool external_fader) {
    if (!external_fader) Iris_Events_OnDisplayFader_subscribe(&g->registry, game_display_fader, g);
    if (!external_fader) Iris_Events_OnHideFader_subscribe(&g->registry, game_hide_fader, g);
    Iris_Events_OnScenePresented_subscribe(&g->registry, on_presented, g);
}

/* ---- live tuning (development builds): the vaults follow the designer's edits --------------- */
#if defined(TL_DEVELOPMENT)
/* A stat changed (an image threadlink-gen watch wrote): the world copies the vaults again. The
   world is read-only to the simulation, so the value takes effect at the next frame. */
static void on_stat_tuned(void *user, void *vault, uint32_t field_id) {
    game *g = (game *)user;
    (void)vault;
    (void)field_id;
    fill_kinds(&g->world);
    fill_weapon(&g->world);
    g->tuned++;
}

static bool open_live(game *g, const char *image_dir) {
    tl_vault_live_desc d;
    memset(&d, 0, sizeof d);
    d.image_dir = image_dir;
    d.logger = &g->logger;
    return tl_vault_live_init(&g->live, &d) == TL_VAULT_OK &&
           tl_vault_subscribe_all(tl_vault_live_listeners(&g->live), NULL, on_stat_tuned, g) == TL_VAULT_OK &&
           tl_vault_live_add(&g->live, &enemies_live) == TL_VAULT_OK &&
           tl_vault_live_add(&g->live, &weapons_live) == TL_VAULT_OK;
}

void game_tune(game *g) { tl_vault_live_update(&g->live); }
#else
void game_tune(game *g) { (void)g; } /* shipped: the vaults are const data */
#endif

/* Deploys the core (the World preload waits for both levels), at most a few hundred polls. */
static bool deploy(game *g) {
    tl_lifecycle_deploy_status st = TL_LIFECYCLE_DEPLOY_PENDING;
    int polls;
    g->feed.registry = &g->registry;
    tl_lifecycle_weave(&g->core, &world_subsystem, g);
    tl_lifecycle_weave(&g->core, &feed_subsystem, &g->feed);
    for (polls = 0; polls < 600 && st == TL_LIFECYCLE_DEPLOY_PENDING; polls++) st = tl_lifecycle_deploy(&g->core);
    return st == TL_LIFECYCLE_DEPLOY_DONE;
}

/* Everything game_open builds, in order; false at the first part that fails, g->refusal naming it. */
static bool open_parts(game *g, const game_desc *desc) {
    if (!open_runtime(g, desc) || !open_text(g, desc) || !open_saves(g, desc->save_dir)) return false;
    load_player(g);
    subscribe_presentation(g, desc->external_fader);
    if (!deploy(g)) return refuse(g, "the levels did not load from %s (the lines above say why)", desc->content_dir);
#if defined(TL_DEVELOPMENT)
    if (!open_live(g, desc->vault_image_dir))
        return refuse(g, "the vault images in %s cannot be followed (the lines above say why)", desc->vault_image_dir ? desc->vault_image_dir : TL_VAULT_LIVE_DIR);
#endif
    if (!(g->block = (unsigned char *)tl_mem_alloc_zeroed(SIM_BLOCK_BYTES, 0))) return refuse(g, "out of memory (the frame block)");
    return true;
}

bool game_open(game *g, const game_desc *desc) {
    uint32_t i;
    memset(g, 0, sizeof *g);
    g->logger.min_level = desc->quiet ? TL_LOG_LEVEL_WARNING : 0;
    g->seed = desc->seed;
    for (i = 0; i < SIM_MAX_LEVELS; i++) {
        g->areas[i].id = maps_keys[i];
        g->areas[i].asset = level_vault_get_Map(maps_by_index(i)).id;
    }
    if (!open_parts(g, desc)) {
        char refusal[sizeof g->refusal];
        memcpy(refusal, g->refusal, sizeof refusal);
        game_close(g); /* what was built before the refusal: a caller may try again */
        memcpy(g->refusal, refusal, sizeof refusal);
        return false;
    }
    game_new(g);
    return true;
}

void game_new(game *g) {
    sim_start(g->block, &g->world, g->seed);
    g->feed.message[0] = 0;
}

/* The frame's events, published as the typed events of the generated header. */
static void publish_events(game *g) {
    sim_event_list_const events = sim_events_const(g->block);
    uint32_t i, n = sim_event_list_const_count(events);
    for (i = 0; i < n; i++) {
        const sim_event *e = sim_event_list_const_at(events, i);
        sim_kill kill;
        switch (e->type) {
        case SIM_EVENT_KILL:
            kill.enemy_id = e->a;
            kill.kind = e->b;
            kill.score = e->c;
            kill.total = e->d;
            Iris_Events_OnEnemyKilled_publish(&g->registry, &kill);
            break;
        case SIM_EVENT_PICKUP: Iris_Events_OnItemPicked_publish(&g->registry, e->b); break;
        case SIM_EVENT_HURT: Iris_Events_OnPlayerHurt_publish(&g->registry, e->d); break;
        case SIM_EVENT_LEVEL: Iris_Events_OnLevelEntered_publish(&g->registry, e->a); break;
        default: break;
        }
    }
}

/* The shown level follows the simulation's, behind the fader (the other stays resident). */
static void follow_level(game *g) {
    uint32_t level = g->world.levels[sim_head(g->block)->level].id;
    if (!g->presented && !tl_levels_presentations_pending(g->levels)) tl_levels_present(g->levels, level);
    else if (g->presented && g->presented != level && !tl_levels_presentations_pending(g->levels))
        tl_levels_transition(g->levels, level);
    g->fade += g->fade_dir;
    if (g->fade < 0) g->fade = 0;
    if (g->fade > GAME_FADE_FRAMES) g->fade = GAME_FADE_FRAMES;
}

void game_frame(game *g, uint32_t input) {
    sim_step(g->block, &g->world, input);
    publish_events(g);
    if (g->feed.message_frames > 0 && --g->feed.message_frames == 0) g->feed.message[0] = 0;
    follow_level(g);
    tl_levels_update(g->levels, 1.0 / 60.0);
    tl_content_update(g->content);
}

/* Also what a refused game_open built, whatever part it reached: each part is released only when
   made (a zeroed core has nothing to discard). */
void game_close(game *g) {
#if defined(TL_DEVELOPMENT)
    tl_vault_live_discard(&g->live);
#endif
    tl_lifecycle_discard(&g->core); /* the levels shuts down first, then the subsystems */
    tl_levels_destroy(g->levels);
    tl_l10n_destroy(g->text); /* before the content that holds its tables' bytes */
    if (g->content) tl_content_shutdown(g->content);
    if (g->saves) tl_save_store_close(g->saves);
    tl_mem_free(g->block);
    tl_events_discard(&g->registry);
    memset(g, 0, sizeof *g);
}

/* ---- saves: the frame block is the save ---------------------------------------------------- */
/* The block is saved in the machine's own byte order (save.h's framing is little-endian, the
   records are the caller's bytes), with a marker record in that order: a save carried to a
   machine of the other byte order is refused, not misread. The frame hash does not depend on it
   (sim_hash walks the fields little-endian). */
static const uint32_t save_byte_order = 0x01020304u;

bool game_save(game *g, const char *slot) {
    tl_save_txn txn;
    tl_save_result r;
    if (!g->saves) return false;
    r = tl_save_begin(g->saves, slot, &txn);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "byte-order", &save_byte_order, sizeof save_byte_order);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "frame", g->block, SIM_BLOCK_BYTES);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "locale", tl_l10n_locale(g->text), strlen(tl_l10n_locale(g->text)));
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn);
    if (r != TL_SAVE_OK) tl_log(&g->logger, TL_LOG_LEVEL_ERROR, "Game", "save %s: %s", slot, tl_save_result_message(r));
    return r == TL_SAVE_OK;
}

/* The language the save was made in, if it has one (saves before issue 46 do not): a locale
   without a table is logged and left. */
static void continue_locale(game *g, const char *slot) {
    char locale[32];
    size_t n = 0;
    tl_save_result r = tl_save_read(g->saves, slot, "locale", locale, sizeof locale - 1, &n);
    if (r != TL_SAVE_OK || n == 0) return;
    locale[n] = 0;
    if (!game_set_locale(g, locale)) tl_log(&g->logger, TL_LOG_LEVEL_WARNING, "Game", "continue %s: no text in %s", slot, locale);
}

bool game_continue(game *g, const char *slot) {
    unsigned char *frame = (unsigned char *)tl_mem_alloc_zeroed(SIM_BLOCK_BYTES, 0);
    size_t n = 0;
    uint32_t order = 0;
    tl_save_result r;
    char why[128] = "the frame's size is not this game's";
    bool ok;
    if (!g->saves || !frame) {
        tl_mem_free(frame);
        return false;
    }
    r = tl_save_read(g->saves, slot, "byte-order", &order, sizeof order, &n);
    if (r == TL_SAVE_OK && (n != sizeof order || order != save_byte_order)) {
        tl_log(&g->logger, TL_LOG_LEVEL_ERROR, "Game", "continue %s: saved on a machine of the other byte order", slot);
        tl_mem_free(frame);
        return false;
    }
    if (r == TL_SAVE_OK) r = tl_save_read(g->saves, slot, "frame", frame, SIM_BLOCK_BYTES, &n);
    /* checked whole before it replaces the frame: the simulation indexes with its values */
    ok = r == TL_SAVE_OK && n == SIM_BLOCK_BYTES && sim_check(frame, &g->world, why, sizeof why);
    if (ok) memcpy(g->block, frame, SIM_BLOCK_BYTES), continue_locale(g, slot);
    else if (r == TL_SAVE_OK) tl_log(&g->logger, TL_LOG_LEVEL_ERROR, "Game", "continue %s: not a frame of this game: %s", slot, why);
    else tl_log(&g->logger, TL_LOG_LEVEL_ERROR, "Game", "continue %s: %s", slot, tl_save_result_message(r));
    tl_mem_free(frame);
    return ok;
}

bool game_has_save(game *g, const char *slot) {
    tl_save_info info;
    return g->saves && tl_save_stat(g->saves, slot, &info) == TL_SAVE_OK;
}

bool count_arg(const char *program, const char *text, const char *name, uint32_t min, uint32_t max, uint32_t *out) {
    char *end = NULL;
    unsigned long long v = 0;
    bool ok = text[0] >= '0' && text[0] <= '9';
    if (ok) {
        errno = 0;
        v = strtoull(text, &end, 10);
        ok = errno == 0 && *end == 0 && v >= min && v <= max;
    }
    if (!ok) fprintf(stderr, "%s: %s must be a whole number from %u to %u, not \"%s\"\n", program, name, min, max, text);
    *out = (uint32_t)v;
    return ok;
}
