/* game.h - the game around the simulation, on threadlink: the core and its subsystems, the
 * levels (levels.h) with their content scopes, the vaults' stats, the typed events, saves.
 * No SDL here: the window (sdl_main.c) and the headless driver (headless.c) both run on it. */
#ifndef GAME_GAME_H
#define GAME_GAME_H

#include <threadlink/threadlink.h>
#include <threadlink/glue.h>

#include "sim.h"
#include "text.h"

#define GAME_FADE_FRAMES 12 /* the fader's frames to opaque and back */

/* A decoded sprite (the Sprites kind's object): RGBA8, rows top to bottom. */
typedef struct game_image {
    int width, height;
    unsigned char *rgba;
} game_image;

/* A spawn point of a level: one of the level's objects, with an entity scope of its own. */
typedef struct game_spawn {
    struct game_area *area;
    uint32_t index;                     /* into the level's sim_level spawns */
    tl_scope scope;
} game_spawn;

/* What a resident level holds for drawing, beside its sim_level. */
typedef struct game_area {
    uint32_t id;                        /* Nexus.Levels */
    uint32_t asset;                     /* its Levels asset */
    tl_level_hold hold;
    tl_level *level;
    tl_asset floor, wall, exit;         /* in the level's scope */
    tl_asset kind_sprite[SIM_MAX_KINDS]; /* in its spawn points' entity scopes */
    game_spawn spawns[SIM_MAX_SPAWNS];
    tl_lifecycle_object objects[SIM_MAX_SPAWNS];
} game_area;

/* What the game's events told it (the Feed subsystem: typed listeners, HUD text). */
typedef struct game_feed {
    tl_events *registry;
    tl_l10n *text;
    uint32_t kills, pickups, hurts, levels_entered;
    char message[64];
    uint32_t message_frames;
} game_feed;

typedef struct game_desc {
    const char *content_dir; /* the packed Game profile */
    const char *save_dir;    /* NULL: no saves */
    uint64_t seed;
    bool quiet;              /* log warnings and errors only */
    const char *vault_image_dir; /* development builds: where watch writes the vault images
                                    (the generated directory); NULL: TL_VAULT_LIVE_DIR */
    const char *text_dir;    /* the packed Text profile (the locales' text tables); NULL: the
                                folder Text beside content_dir (content/Game, content/Text) */
    const char *locale;      /* NULL: the source locale (en) */
    bool external_fader;     /* the fader's events are provided by someone else (the window's
                                sound), who polls game_display_fader / game_hide_fader */
} game_desc;

typedef struct game {
    tl_events registry;
    tl_lifecycle core;
    tl_time time; /* the frame clock, woven into core first (glue.h) */
    tl_content *content;
    tl_levels *levels;
    tl_save_store *saves;
    tl_l10n *text;           /* every string the game shows: text.h's functions over it */
    tl_scope text_scope;     /* Root/Text: under it, Root/Text/<locale> holds a locale's table */
    tl_scope text_scopes[TEXT_KEYS_LOCALE_COUNT]; /* by text_keys_locales(); valid while its
                                                     table is added (the locale's chain needs it) */
    tl_logger logger;
    game_feed feed;
    game_area areas[SIM_MAX_LEVELS];
    sim_world world;
    unsigned char *block;    /* the frame: SIM_BLOCK_BYTES, zeroed */
    uint64_t seed;
    tl_scope player_scope;   /* moves to the presented level's scope */
    tl_asset player, bolt, coin, heart;
    uint32_t presented;      /* the level shown (Nexus.Levels), 0 before the first */
    int fade;                /* 0 clear .. GAME_FADE_FRAMES opaque */
    int fade_dir;            /* +1 fading in, -1 fading out, 0 still */
    double load_seconds;     /* the levels' load, measured */
    uint32_t input;          /* latched for the next fixed step (the window's OnFixedUpdate) */
    uint32_t tuned;          /* stats changed by live tuning so far */
#if defined(TL_DEVELOPMENT)
    tl_vault_live live;      /* the vaults' images, polled by game_tune */
#endif
    char refusal[1024];      /* why game_open returned false ("" after it opened) */
} game;

/* False when the game cannot start: g->refusal then names what failed in one line (the Game or
   Text folder, the save folder and the system's reason, the levels), for the caller to say last,
   after the lines the runtime logged; what was built by then is released, so the game needs no
   game_close and may be opened again. A desc.locale without a table starts in the source locale
   with a warning. */
/* A count on the command line (game-headless's EVERY, DELAY, FRAMES, ENTITIES; game's --frames
   and --tolerance): a whole decimal number from min to max. Anything else (0 where 1 is the
   least, a word, a sign, trailing letters, past the range) is said on stderr, naming the program
   and the argument: atoi's 0 would divide by zero (EVERY) or run nothing. */
bool count_arg(const char *program, const char *text, const char *name, uint32_t min, uint32_t max, uint32_t *out);

bool game_open(game *g, const game_desc *desc);
void game_close(game *g);
/* A new game: the first level, the seed's streams. */
void game_new(game *g);
/* One fixed frame: the simulation with this input, its events published, the levels, content. */
void game_frame(game *g, uint32_t input);
/* Saves and continues the frame block (save.h): false with the reason logged. */
bool game_save(game *g, const char *slot);
bool game_continue(game *g, const char *slot);
bool game_has_save(game *g, const char *slot);
/* The language of the game's text ("en", "fr"): its tables loaded from the Text profile, the
   ones it does not need released. False, the locale unchanged, if it has no table. */
bool game_set_locale(game *g, const char *locale);
/* The next language of the game's tables, after the last the first (the menu's Language item). */
bool game_next_locale(game *g);
/* Once a frame: development builds (TL_DEVELOPMENT) reload the enemy and weapon stats the
   designer edited while threadlink-gen watch runs, and refill the world; shipped builds do
   nothing. */
void game_tune(game *g);

/* The fader: OnDisplayFader / OnHideFader's providers (ctx: the game), subscribed by game_open
   unless desc.external_fader. True once the fader is opaque / clear. */
bool game_display_fader(void *ctx, tl_levels *levels);
bool game_hide_fader(void *ctx, tl_levels *levels);

const game_area *game_area_of(const game *g, uint32_t level_id);
const game_image *game_image_of(tl_asset asset); /* NULL unless loaded */
double game_seconds_now(void);

#endif
