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
 * Asset ids come from the generated header (content_game.h); names work too. */
#define TL_IMPLEMENTATION
#define TL_CONTENT_LZ4 /* the profile packs with lz4: this runtime decodes it (links liblz4) */
#include <threadlink/content.h>

#include "content_game_catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "build/content/Game";
    tl_content *content;
    tl_content_desc desc;
    tl_content_kind_desc kind;
    tl_scope field, popup, entities[16];
    tl_asset music, sprites[16];
    const level *lv;
    int i, failures = 0, frame;

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
