/* The content the build packed (the `content` step of meson.build) read back through content.h,
 * each asset loaded by the id its catalog gives. The only file that implements the runtime. */
#define TL_IMPLEMENTATION
#include <threadlink/content.h>

#include <stdio.h>

#include "content_game_catalog.h"

void print_assets(const char *dir);
void print_assets(const char *dir)
{
    tl_content *content = tl_content_create(NULL);
    if (!content || !tl_content_dir_valid(tl_content_register_dir(content, dir))) {
        printf("no content in %s\n", dir);
        tl_content_shutdown(content);
        return;
    }
    tl_scope scope = tl_scope_create(tl_content_root(content), "Assets", TL_SCOPE_OWNED);
    for (uint32_t i = 0; i < CONTENT_GAME_ASSET_COUNT; i++) {
        tl_asset a = tl_scope_load(scope, (uint32_t)content_game_assets()[i].id);
        printf("asset %s: %.*s", content_game_assets()[i].name, (int)tl_asset_size(a), (const char *)tl_asset_object(a));
    }
    tl_content_shutdown(content);
}
