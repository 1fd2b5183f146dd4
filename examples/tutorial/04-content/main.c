/* Tutorial step 4: content (docs/tutorial.md).
 *
 * threadlink.json declares the content profile Game: the files under assets/, in the categories
 * Text and Maps. The generator names every asset (content_game.h: Content_Game_Text_greeting) and
 * lists them (content_game_catalog.h); `threadlink-gen pack` packs them into a folder that
 * content.h mounts. Assets are loaded into scopes and released with them. */
#define TL_CONTENT_IMPL /* content.h is implemented in this file */
#include <threadlink/content.h>

#include "content_game.h"         /* Content_Game_Maps_meadow ... */
#include "content_game_catalog.h" /* names, sizes, categories */

#include <stdio.h>
#include <stdlib.h>

#ifndef CONTENT_DIR
#define CONTENT_DIR "build/content/Game" /* the profile's "output": where `pack` writes */
#endif

/* A map decoded from its bytes: the Maps category's kind. The object lives while a scope holds it. */
typedef struct map {
    int width, height;
} map;

static void *decode_map(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    const char *text = (const char *)bytes;
    map *m = (map *)calloc(1, sizeof *m);
    size_t i, column = 0;
    (void)user;
    (void)info;
    if (!m) return NULL; /* NULL: the load fails, logged */
    for (i = 0; i < size; i++, column++) {
        if (text[i] != '\n') continue;
        if ((int)column > m->width) m->width = (int)column;
        m->height++;
        column = (size_t)-1;
    }
    return m;
}

static void destroy_map(void *user, const tl_content_info *info, void *object) {
    (void)user;
    (void)info;
    free(object);
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : CONTENT_DIR;
    tl_content *content = tl_content_create(NULL); /* NULL: defaults */
    tl_content_kind_desc maps = {0};
    tl_scope level;
    tl_asset greeting, meadow, credits;
    const map *m;

    if (!content) return 1;
    maps.category = "Maps";
    maps.decode = decode_map;
    maps.destroy = destroy_map;
    tl_content_register_kind(content, &maps); /* Text has no kind: its assets stay bytes */
    if (!tl_content_dir_valid(tl_content_register_dir(content, dir))) {
        fprintf(stderr, "no content in %s: pack it first\n", dir);
        return 1;
    }
    printf("%d assets in the catalog\n", CONTENT_GAME_ASSET_COUNT);

    /* A scope holds what is loaded into it: here, what a level needs. Loads by generated id or name. */
    level = tl_scope_create(tl_content_root(content), "Meadow", TL_SCOPE_LEVEL);
    greeting = tl_scope_load(level, CONTENT_GAME_U32(Content_Game_Text_greeting));
    meadow = tl_scope_load(level, CONTENT_GAME_U32(Content_Game_Maps_meadow));
    credits = tl_scope_load_name(level, "text/CREDITS"); /* names compare ASCII case-insensitively */
    if (!tl_asset_valid(greeting) || !tl_asset_valid(meadow) || !tl_asset_valid(credits)) return 1;

    printf("%s (%u bytes): %.*s", tl_asset_name(greeting), (unsigned)tl_asset_size(greeting),
           (int)tl_asset_size(greeting), (const char *)tl_asset_object(greeting));
    m = (const map *)tl_asset_object(meadow);
    printf("%s: a map of %d x %d\n", tl_asset_name(meadow), m->width, m->height);
    printf("%s is %s\n", tl_asset_name(credits), content_game_info(Content_Game_Text_credits)->name);

    /* Loading again into the same scope holds nothing more: a scope holds each asset once. */
    tl_scope_load(level, CONTENT_GAME_U32(Content_Game_Text_greeting));
    printf("the level holds %u assets\n", (unsigned)tl_scope_count(level));

    /* Disposing of the scope gives everything back; collect (once per frame) releases it. */
    tl_scope_dispose(level);
    tl_content_collect(content);
    printf("after the level: %u assets held\n", (unsigned)tl_content_get_stats(content).held_assets);
    tl_content_shutdown(content);
    return 0;
}
