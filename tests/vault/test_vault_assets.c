/* Vault asset references loaded through the generated <vault>_vault_load_<Field> functions into
 * content scopes (tests/vault/assetref: a Unit vault whose AssetRef fields name assets of the
 * Content.Game catalog), against the directories `threadlink-gen pack` builds from that project
 * (make_assetref_content.sh): argv[1] is the packed project, its outputs in out/Game (packed) and
 * out/GameFlat (flat). */
#include "content_game.h"
#include "vaults/units_data.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *g_root;

/* ---- a log capture: how many records of each content diagnostic, and how many in all ---------- */
static unsigned g_log_counts[64], g_log_total;

static void capture_sink(void *user, const tl_log_record *rec)
{
    (void)user;
    g_log_total++;
    if (rec->item >= TL_CONTENT_LOG_BASE && rec->item < TL_CONTENT_LOG_BASE + 64) g_log_counts[rec->item - TL_CONTENT_LOG_BASE]++;
}

static unsigned logged(tl_content_log_item item) { return g_log_counts[item - TL_CONTENT_LOG_BASE]; }

/* An I/O backend over stdio that refuses to open one file (a failed load of that asset). */
static const char *g_refused_suffix;

static void *refusing_open(void *user, const char *path, uint64_t *size)
{
    size_t n = strlen(path), k = g_refused_suffix ? strlen(g_refused_suffix) : 0;
    FILE *f;
    (void)user;
    if (k && n >= k && strcmp(path + n - k, g_refused_suffix) == 0) return NULL;
    f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *size = (uint64_t)ftell(f);
    return f;
}

static bool stdio_read(void *user, void *file, uint64_t offset, void *dst, size_t size)
{
    (void)user;
    return fseek((FILE *)file, (long)offset, SEEK_SET) == 0 && fread(dst, 1, size, (FILE *)file) == size;
}

static void stdio_close(void *user, void *file)
{
    (void)user;
    fclose((FILE *)file);
}

/* A context with the capture logger and no release delay, and `dir` (out/<dir>) registered
 * unless NULL. */
static tl_content *make_ctx(const char *dir, bool refusing_io)
{
    tl_content_desc desc;
    char path[1024];
    tl_content *ctx;
    memset(&desc, 0, sizeof desc);
    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    desc.logger.sink = capture_sink;
    if (refusing_io) {
        desc.io.open = refusing_open;
        desc.io.read = stdio_read;
        desc.io.close = stdio_close;
    }
    ctx = tl_content_create(&desc);
    assert_non_null(ctx);
    if (dir) {
        snprintf(path, sizeof path, "%s/out/%s", g_root, dir);
        assert_true(tl_content_dir_valid(tl_content_register_dir(ctx, path)));
    }
    memset(g_log_counts, 0, sizeof g_log_counts);
    g_log_total = 0;
    return ctx;
}

static void assert_asset_bytes(tl_asset a, uint32_t id, const char *bytes)
{
    assert_true(tl_asset_valid(a));
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_READY);
    assert_int_equal(tl_asset_id(a), id);
    assert_int_equal(tl_asset_size(a), strlen(bytes));
    assert_memory_equal(tl_asset_object(a), bytes, strlen(bytes));
}

static void assert_no_asset(tl_asset a)
{
    assert_false(tl_asset_valid(a));
    assert_int_equal(tl_asset_get_status(a), TL_ASSET_INVALID);
    assert_null(a.ctx);
}

#define SLIME_ID TL__CAST(uint32_t, Content_Game_Sprites_slime)
#define GHOST_ID TL__CAST(uint32_t, Content_Game_Sprites_ghost)
#define FACE_ID TL__CAST(uint32_t, Content_Game_Sprites_slime_face)
static const char slime_bytes[] = "slime sprite bytes\n";
static const char ghost_bytes[] = "ghost: a rather longer sprite, so sizes differ\n";
static const char face_bytes[] = "portrait of the slime\n";

/* The scalar field's asset lands in the scope with the bytes pack stored; loading it again
 * through the vault returns the same asset without growing the scope. */
static void check_scalar_loads(const char *dir)
{
    tl_content *ctx = make_ctx(dir, false);
    tl_scope level = tl_scope_create(tl_content_root(ctx), "Field", TL_SCOPE_LEVEL);
    tl_asset slime = unit_vault_load_Sprite(units_by_name("Slime"), level);
    tl_asset ghost = unit_vault_load_Sprite(&units_instances[UNITS_INDEX_Ghost], level);
    tl_asset again = unit_vault_load_Sprite(&units_instances[UNITS_INDEX_Slime], level);
    assert_asset_bytes(slime, SLIME_ID, slime_bytes);
    assert_asset_bytes(ghost, GHOST_ID, ghost_bytes);
    assert_int_equal(again.slot, slime.slot);
    assert_int_equal(again.gen, slime.gen);
    assert_true(tl_scope_contains(level, SLIME_ID));
    assert_int_equal(tl_scope_count(level), 2);
    assert_int_equal(tl_asset_count(slime), 1);
    assert_int_equal(g_log_total, 0);
    tl_content_shutdown(ctx);
}

static void test_vault_assets_scalar_loads_packed(void **state) { (void)state; check_scalar_loads("Game"); }
static void test_vault_assets_scalar_loads_flat(void **state) { (void)state; check_scalar_loads("GameFlat"); }

/* A vault changed at run time loads what it names now. */
static void test_vault_assets_set_then_load(void **state)
{
    tl_content *ctx = make_ctx("Game", false);
    unit_vault v;
    tl_vault_asset_ref face = {FACE_ID};
    tl_scope scope = tl_scope_create(tl_content_root(ctx), "Hero", TL_SCOPE_ENTITY);
    (void)state;
    unit_vault_init(&v);
    unit_vault_set_Portrait(&v, face);
    assert_asset_bytes(unit_vault_load_Portrait(&v, scope), FACE_ID, face_bytes);
    assert_asset_bytes(unit_vault_load_Sprite(&v, scope), SLIME_ID, slime_bytes); /* the default */
    tl_content_shutdown(ctx);
}

/* Ending the scope releases what the vault loaded into it: the handle goes stale and the slot
 * is gone after collect; a sibling scope keeps its own reference. */
static void test_vault_assets_scope_end_releases(void **state)
{
    tl_content *ctx = make_ctx("Game", false);
    tl_scope root = tl_content_root(ctx);
    tl_scope a = tl_scope_create(root, "A", TL_SCOPE_ENTITY), b = tl_scope_create(root, "B", TL_SCOPE_ENTITY);
    const unit_vault *slime = &units_instances[UNITS_INDEX_Slime], *ghost = &units_instances[UNITS_INDEX_Ghost];
    tl_asset in_a = unit_vault_load_Sprite(slime, a);
    tl_asset only_a = unit_vault_load_Sprite(ghost, a);
    tl_asset in_b = unit_vault_load_Sprite(slime, b);
    (void)state;
    assert_int_equal(tl_asset_count(in_a), 2);
    assert_int_equal(tl_scope_dispose(a), TL_CONTENT_OK);
    tl_content_collect(ctx);
    assert_false(tl_asset_valid(only_a));
    assert_true(tl_asset_valid(in_b));
    assert_int_equal(tl_asset_count(in_b), 1);
    assert_int_equal(tl_content_live_assets(ctx), 1);
    assert_int_equal(tl_scope_dispose(b), TL_CONTENT_OK);
    tl_content_collect(ctx);
    assert_false(tl_asset_valid(in_a));
    assert_int_equal(tl_content_live_assets(ctx), 0);
    assert_int_equal(g_log_total, 0);
    tl_content_shutdown(ctx);
}

/* An empty reference gives the zero asset: nothing loaded, nothing held, nothing logged. */
static void test_vault_assets_empty_reference(void **state)
{
    tl_content *ctx = make_ctx("Game", false);
    tl_scope scope = tl_scope_create(tl_content_root(ctx), "Field", TL_SCOPE_LEVEL);
    (void)state;
    assert_no_asset(unit_vault_load_Sprite(units_by_name("Nobody"), scope));
    assert_no_asset(unit_vault_load_Portrait(units_by_name("Slime"), scope)); /* no default */
    assert_no_asset(unit_vault_load_Frames_at(units_by_name("Slime"), 1, scope)); /* "" in the data */
    assert_int_equal(tl_scope_count(scope), 0);
    assert_int_equal(tl_content_live_assets(ctx), 0);
    assert_int_equal(g_log_total, 0);
    tl_content_shutdown(ctx);
}

/* Collections: elements by position as each view counts them, dictionary values by key; a
 * position past the elements or a key not there is the zero asset, like an empty reference. */
static void test_vault_assets_collections(void **state)
{
    tl_content *ctx = make_ctx("GameFlat", false);
    tl_scope scope = tl_scope_create(tl_content_root(ctx), "Field", TL_SCOPE_LEVEL);
    const unit_vault *slime = units_by_name("Slime"), *ghost = units_by_name("Ghost");
    (void)state;
    assert_asset_bytes(unit_vault_load_Frames_at(slime, 0, scope), SLIME_ID, slime_bytes);
    assert_asset_bytes(unit_vault_load_Frames_at(slime, 2, scope), GHOST_ID, ghost_bytes);
    assert_no_asset(unit_vault_load_Frames_at(slime, 3, scope));
    assert_asset_bytes(unit_vault_load_Palette_at(slime, 0, scope), FACE_ID, face_bytes);
    assert_no_asset(unit_vault_load_Palette_at(slime, 1, scope));
    assert_asset_bytes(unit_vault_load_Trail_at(slime, 0, scope), GHOST_ID, ghost_bytes); /* the front */
    assert_asset_bytes(unit_vault_load_Trail_at(slime, 1, scope), SLIME_ID, slime_bytes);
    assert_asset_bytes(unit_vault_load_Undo_at(slime, 1, scope), GHOST_ID, ghost_bytes);
    assert_no_asset(unit_vault_load_Undo_at(ghost, 0, scope));
    assert_asset_bytes(unit_vault_load_Loot_get(ghost, 1, scope), SLIME_ID, slime_bytes);
    assert_no_asset(unit_vault_load_Loot_get(ghost, 2, scope));
    assert_no_asset(unit_vault_load_Loot_get(slime, 1, scope));
    assert_int_equal(tl_scope_count(scope), 3);
    assert_int_equal(g_log_total, 0);
    tl_content_shutdown(ctx);
}

/* An asset no registered directory holds: tl_scope_load's unknown-asset error, once, and an
 * invalid asset; the scope holds nothing. */
static void test_vault_assets_missing_asset(void **state)
{
    tl_content *ctx = make_ctx(NULL, false);
    tl_scope scope = tl_scope_create(tl_content_root(ctx), "Field", TL_SCOPE_LEVEL);
    (void)state;
    assert_no_asset(unit_vault_load_Sprite(units_by_name("Slime"), scope));
    assert_int_equal(logged(TL_CONTENT_LOG_UNKNOWN_ASSET), 1);
    assert_int_equal(g_log_total, 1);
    assert_int_equal(tl_scope_count(scope), 0);
    assert_int_equal(tl_content_live_assets(ctx), 0);
    tl_content_shutdown(ctx);
}

/* A load that fails (the asset's file cannot be read): logged as a failed load, an invalid
 * asset, nothing held; the other assets of the directory still load. */
static void test_vault_assets_failed_load(void **state)
{
    tl_content *ctx;
    tl_scope scope;
    (void)state;
    g_refused_suffix = "/slime.txt";
    ctx = make_ctx("GameFlat", true);
    scope = tl_scope_create(tl_content_root(ctx), "Field", TL_SCOPE_LEVEL);
    assert_false(tl_asset_valid(unit_vault_load_Sprite(units_by_name("Slime"), scope)));
    assert_int_equal(logged(TL_CONTENT_LOG_LOAD_FAILED), 1);
    assert_int_equal(g_log_total, 1);
    assert_false(tl_scope_contains(scope, SLIME_ID));
    assert_int_equal(tl_scope_count(scope), 0);
    assert_asset_bytes(unit_vault_load_Sprite(units_by_name("Ghost"), scope), GHOST_ID, ghost_bytes);
    tl_content_shutdown(ctx);
    g_refused_suffix = NULL;
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vault_assets_scalar_loads_packed),
        cmocka_unit_test(test_vault_assets_scalar_loads_flat),
        cmocka_unit_test(test_vault_assets_set_then_load),
        cmocka_unit_test(test_vault_assets_scope_end_releases),
        cmocka_unit_test(test_vault_assets_empty_reference),
        cmocka_unit_test(test_vault_assets_collections),
        cmocka_unit_test(test_vault_assets_missing_asset),
        cmocka_unit_test(test_vault_assets_failed_load),
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s PACKED_PROJECT_DIR\n", argv[0]);
        return 2;
    }
    g_root = argv[1];
    return cmocka_run_group_tests_name("vault-assets", tests, NULL, NULL);
}
