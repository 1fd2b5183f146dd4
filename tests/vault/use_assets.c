/* Compiled as C99/C11/C2x and C++17 against the assetref golden headers: every kind of generated
 * asset load (scalar, by position, by key) into a scope of a context with no directory. */
#define TL_IMPLEMENTATION
#include "content_game.h"
#include "vaults/units_data.h"

static void quiet(void *user, const tl_log_record *rec)
{
    (void)user;
    (void)rec;
}

int main(void)
{
    tl_content_desc desc;
    tl_content *ctx;
    tl_scope scope;
    const unit_vault *slime = units_by_name("Slime");
    int failures = 0;
    memset(&desc, 0, sizeof desc);
    desc.logger.sink = quiet;
    ctx = tl_content_create(&desc);
    if (!ctx || !slime) return 1;
    scope = tl_scope_create(tl_content_root(ctx), "Use", TL_SCOPE_LEVEL);
    /* Nothing is registered: every reference fails to load, every empty one is the zero asset. */
    failures += tl_asset_valid(unit_vault_load_Sprite(slime, scope));
    failures += tl_asset_valid(unit_vault_load_Portrait(slime, scope));
    failures += tl_asset_valid(unit_vault_load_Frames_at(slime, 0, scope));
    failures += tl_asset_valid(unit_vault_load_Palette_at(slime, 0, scope));
    failures += tl_asset_valid(unit_vault_load_Trail_at(slime, 0, scope));
    failures += tl_asset_valid(unit_vault_load_Undo_at(slime, 0, scope));
    failures += tl_asset_valid(unit_vault_load_Loot_get(units_by_name("Ghost"), 1, scope));
    failures += tl_scope_count(scope) != 0;
    tl_content_shutdown(ctx);
    return failures;
}
