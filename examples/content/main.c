/* The content example: assets loaded through scopes, never released by hand.
 *
 * A level scope holds the level; each entity of the level gets a scope of its own under it,
 * holding the sprite it is drawn with (two slimes share one sprite: one slot, two references).
 * An entity that goes away takes its references with it; when the level ends, everything under
 * it goes, and a popup scope that was never disposed is reported with its path. The tree is
 * printed at each step.
 *
 *   threadlink-gen pack -C examples/content          (the packed directory, lz4)
 *   example-content build/content/Game
 *
 * Asset ids come from the generated header (content_game.h); names work too.
 *
 * Development mode (example-content-dev, built with -DTL_CONTENT_LIVE): the profile served from
 * its source tree, no pack needed, edits reloaded while it runs:
 *   example-content-dev --source examples/content/assets [--poll]
 * Edit a sprite or the level and it prints what reloaded. Commands on stdin, one a line:
 * `load NAME` (into a console scope: prints it, or why not), `check` (every handle the level holds
 * still valid?), `quit` (or end of input). */
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4 /* the profile packs with lz4: this runtime decodes it (links liblz4) */
#include <threadlink/content.h>

#include "content_game_catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef TL_CONTENT_LIVE
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#endif

/* ---- the game's objects: what the decoders make of the bytes --------------------------------- */

typedef struct sprite { int width, height; char glyph; } sprite;
typedef struct level {
    int count;
    char entity[16][32];
    char sprite[16][64];
} level;

/* Lines starting with '#' are comments. */
static const char *next_line(const char *p, const char *end, char *line, size_t cap) {
    size_t n = 0;
    while (p < end && *p != '\n') {
        if (n + 1 < cap) line[n++] = *p;
        p++;
    }
    line[n] = 0;
    return p < end ? p + 1 : end;
}

static void *decode_sprite(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    const char *p = (const char *)bytes, *end = p + size;
    char line[128];
    sprite *s = (sprite *)malloc(sizeof *s);
    (void)user;
    (void)info;
    if (!s) return NULL;
    while (p < end) {
        p = next_line(p, end, line, sizeof line);
        if (line[0] == '#' || !line[0]) continue;
        if (sscanf(line, "%d %d %c", &s->width, &s->height, &s->glyph) == 3) return s;
    }
    free(s);
    return NULL; /* not a sprite: the load fails, and says so */
}

static void *decode_level(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    const char *p = (const char *)bytes, *end = p + size;
    char line[128];
    level *l = (level *)calloc(1, sizeof *l);
    (void)user;
    (void)info;
    if (!l) return NULL;
    while (p < end && l->count < 16) {
        p = next_line(p, end, line, sizeof line);
        if (line[0] == '#' || !line[0]) continue;
        if (sscanf(line, "%31s %63s", l->entity[l->count], l->sprite[l->count]) == 2) l->count++;
    }
    return l;
}

static void destroy_object(void *user, const tl_content_info *info, void *object) {
    (void)user;
    printf("  (collect: %s released)\n", info->name);
    free(object);
}

static void print_tree(tl_content *content, const char *when) {
    char tree[2048];
    tl_content_stats st = tl_content_get_stats(content);
    tl_content_dump_tree(content, tree, sizeof tree);
    printf("\n-- %s: %u live assets, %u references --\n%s", when, st.live_assets, st.references, tree);
}

#ifdef TL_CONTENT_LIVE
/* ---- development mode: served from the source tree, reloaded while it runs -------------------- */

static void print_sprite(const char *what, const char *name, const sprite *s) {
    printf("%s %s: %dx%d '%c'\n", what, name, s->width, s->height, s->glyph);
}

/* What the game does with a reload: here, say what changed (it would repoint its draw lists). */
static void reload_sprite(void *user, const tl_content_info *info, void *old_object, void *new_object) {
    (void)user;
    (void)old_object;
    print_sprite("reloaded", info->name, (const sprite *)new_object);
}

static void reload_level(void *user, const tl_content_info *info, void *old_object, void *new_object) {
    (void)user;
    printf("reloaded %s: %d entities (was %d)\n", info->name, ((const level *)new_object)->count,
           ((const level *)old_object)->count);
}

static void destroy_quietly(void *user, const tl_content_info *info, void *object) {
    (void)user;
    (void)info;
    free(object);
}

static tl_content *dev_create(const char *source, bool poll) {
    tl_content_source_desc src = content_game_source_desc(); /* as threadlink.json declares it */
    tl_content_kind_desc kind;
    tl_content *content = tl_content_create(NULL);
    memset(&kind, 0, sizeof kind);
    kind.category = "Sprites";
    kind.decode = decode_sprite;
    kind.destroy = destroy_quietly;
    kind.reload = reload_sprite;
    tl_content_register_kind(content, &kind);
    kind.category = "Levels";
    kind.decode = decode_level;
    kind.reload = reload_level;
    tl_content_register_kind(content, &kind);
    src.watch = poll ? TL_CONTENT_WATCH_POLL : TL_CONTENT_WATCH_AUTO;
    if (tl_content_dir_valid(tl_content_register_source(content, CONTENT_GAME_PROFILE, source, &src))) return content;
    tl_content_shutdown(content);
    return NULL;
}

typedef struct dev_level { tl_scope field, console; tl_asset held[17]; int count; } dev_level;

static void dev_load_level(tl_content *content, dev_level *dl) {
    const level *lv;
    int i;
    dl->field = tl_scope_create(tl_content_root(content), "Field", TL_SCOPE_LEVEL);
    dl->console = tl_scope_create(tl_content_root(content), "Console", TL_SCOPE_OWNED);
    dl->held[0] = tl_scope_load(dl->field, Content_Game_Levels_field);
    lv = (const level *)tl_asset_object(dl->held[0]);
    dl->count = 1;
    for (i = 0; lv && i < lv->count; i++) {
        tl_scope entity = tl_scope_create(dl->field, lv->entity[i], TL_SCOPE_ENTITY);
        dl->held[dl->count++] = tl_scope_load_name(entity, lv->sprite[i]);
    }
    printf("serving profile Game from its source tree: %d assets held\n", dl->count);
}

static void dev_load_command(dev_level *dl, const char *name) {
    tl_asset a = tl_scope_load_name(dl->console, name);
    if (!tl_asset_valid(a)) printf("failed %s\n", name);
    else if (strncmp(name, "Sprites/", 8) == 0) print_sprite("loaded", name, (const sprite *)tl_asset_object(a));
    else printf("loaded %s: %zu bytes\n", name, tl_asset_size(a));
}

static void dev_check_command(const dev_level *dl) {
    int i, valid = 0;
    for (i = 0; i < dl->count; i++) valid += tl_asset_valid(dl->held[i]) && tl_asset_get_status(dl->held[i]) == TL_ASSET_READY;
    printf("handles: %d of %d valid\n", valid, dl->count);
}

/* One command line; false on quit. */
static bool dev_command(dev_level *dl, const char *line) {
    if (strncmp(line, "load ", 5) == 0) dev_load_command(dl, line + 5);
    else if (strcmp(line, "check") == 0) dev_check_command(dl);
    else if (strcmp(line, "quit") == 0) return false;
    else printf("unknown command: %s\n", line);
    return true;
}

/* Commands that arrived since the last frame (stdin is non-blocking); false on quit or end. */
static bool dev_commands(dev_level *dl, char *pending, size_t *len, size_t cap) {
    ssize_t n = read(0, pending + *len, cap - 1 - *len);
    char *nl;
    if (n == 0) return false;
    if (n > 0) *len += (size_t)n;
    pending[*len] = 0;
    while ((nl = strchr(pending, '\n')) != NULL) {
        *nl = 0;
        if (!dev_command(dl, pending)) return false;
        *len -= (size_t)(nl + 1 - pending);
        memmove(pending, nl + 1, *len + 1);
    }
    return true;
}

static int run_development(const char *source, bool poll) {
    tl_content *content = dev_create(source, poll);
    dev_level dl;
    char pending[1024];
    size_t len = 0;
    struct timespec frame = {0, 10 * 1000000L};
    if (!content) return 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
    dev_load_level(content, &dl);
    while (dev_commands(&dl, pending, &len, sizeof pending)) {
        tl_content_update(content); /* notices edits, reloads what is held */
        nanosleep(&frame, NULL);
    }
    tl_content_shutdown(content);
    return 0;
}
#endif

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "build/content/Game";
    tl_content *content;
    tl_content_desc desc;
    tl_content_kind_desc kind;
    tl_scope field, popup, entities[16];
    tl_asset music, sprites[16];
    const level *lv;
    int i, failures = 0, frame;

#ifdef TL_CONTENT_LIVE
    if (argc > 2 && strcmp(argv[1], "--source") == 0) return run_development(argv[2], argc > 3 && strcmp(argv[3], "--poll") == 0);
#endif
    memset(&desc, 0, sizeof desc); /* zero: defaults (release after 1 frame, stderr log) */
    desc.capture_origin = true;    /* leak warnings say where the scope was created */
    content = tl_content_create(&desc);
    memset(&kind, 0, sizeof kind);
    kind.category = "Sprites";
    kind.decode = decode_sprite;
    kind.destroy = destroy_object;
    tl_content_register_kind(content, &kind);
    kind.category = "Levels";
    kind.decode = decode_level;
    tl_content_register_kind(content, &kind);
    /* Music has no kind: it stays its bytes. */
    if (!tl_content_dir_valid(tl_content_register_dir(content, dir))) {
        fprintf(stderr, "example-content: cannot register %s (run threadlink-gen pack -C examples/content)\n", dir);
        tl_content_shutdown(content);
        return 1;
    }

    /* The level: its own scope; the level asset by its generated id. */
    field = TL_SCOPE_CREATE(tl_content_root(content), "Field", TL_SCOPE_LEVEL);
    lv = (const level *)tl_asset_object(tl_scope_load(field, Content_Game_Levels_field));
    if (!lv) return 1;
    music = tl_scope_load_async(field, Content_Game_Music_theme); /* ready after a frame */

    /* One scope per entity, holding its sprite (by name, from the level's data). */
    for (i = 0; i < lv->count; i++) {
        const sprite *s;
        entities[i] = tl_scope_create(field, lv->entity[i], TL_SCOPE_ENTITY);
        sprites[i] = tl_scope_load_name(entities[i], lv->sprite[i]);
        s = (const sprite *)tl_asset_object(sprites[i]);
        if (!s) return 1;
        printf("%-8s %-14s %2dx%-2d '%c'\n", lv->entity[i], lv->sprite[i], s->width, s->height, s->glyph);
    }
    /* Loading a held sprite again (say, every frame) never grows its scope. */
    for (frame = 0; frame < 3; frame++) tl_scope_load(entities[0], Content_Game_Sprites_hero);
    if (tl_scope_count(entities[0]) != 1) failures++;
    /* The two slimes share one slot. */
    if (tl_asset_count(sprites[1]) != 2 || sprites[1].slot != sprites[2].slot) failures++;

    /* A popup that the game forgets to dispose. */
    popup = TL_SCOPE_CREATE(field, "AlertPopup", TL_SCOPE_EXPLICIT);
    tl_scope_load(popup, Content_Game_Sprites_alert);

    tl_content_update(content); /* end of frame 0: the music load completes */
    if (tl_asset_get_status(music) != TL_ASSET_READY) failures++;
    printf("music: %zu bytes (the catalog says %llu)\n", tl_asset_size(music),
           (unsigned long long)content_game_info(Content_Game_Music_theme)->size);
    print_tree(content, "the level is running");

    /* slime-a is destroyed: its scope goes, the sprite stays for slime-b. */
    tl_scope_dispose(entities[1]);
    tl_content_update(content);
    tl_content_update(content);
    if (!tl_asset_valid(sprites[2]) || tl_asset_count(sprites[2]) != 1) failures++;
    print_tree(content, "slime-a is gone");

    /* The level ends: every entity, the forgotten popup (with a warning) and the level go. */
    tl_scope_dispose(field);
    printf("\n-- the level ends; collect runs at the end of the next frames --\n");
    tl_content_update(content);
    tl_content_update(content);
    if (tl_content_live_assets(content) != 0) failures++;
    if (tl_asset_valid(sprites[0])) failures++; /* a stale handle is detected, never used */
    print_tree(content, "after the level");

    tl_content_shutdown(content);
    if (failures) fprintf(stderr, "example-content: %d expectation(s) failed\n", failures);
    return failures ? 1 : 0;
}
