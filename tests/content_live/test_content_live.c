/* Profiles served from their source tree (content_live.h): pack's rules, ids, hot reload under
 * both watchers (inotify, and the budgeted poll forced on Linux), deletes, adds, renames, a tree
 * that turns into one pack refuses, and the report of what the catalog does not carry yet; with
 * the generator, flat and packed builds served again after a pack.
 * Every test builds its own tree in a temporary folder and removes it. */
#include <dirent.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#define TL_IMPLEMENTATION
#include "../content_runtime/content_test_util.h"
#include "live_util.h"

#include "content_game_catalog.h" /* examples/content's generated catalog: its ids must resolve */

typedef struct live {
    tl_content *c;
    text_kind kind;
    tl_content_dir dir;
    tl_content_watch watch;
} live;

static const tl_content_source_category k_categories[] = {{"Sprites", "Sprites"}, {"Levels", "Levels"}};

static tl_content_source_desc source_desc(tl_content_watch watch) {
    tl_content_source_desc d;
    memset(&d, 0, sizeof d);
    d.categories = k_categories;
    d.category_count = 2;
    d.watch = watch;
    return d;
}

static void live_start(live *w, tl_content_watch watch) {
    tl_content_desc desc;
    tl_content_kind_desc k;
    memset(w, 0, sizeof *w);
    log_reset();
    memset(&desc, 0, sizeof desc);
    desc.logger = capture_logger();
    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    w->watch = watch;
    w->c = tl_content_create(&desc);
    k = text_kind_desc(&w->kind);
    assert_true(tl_content_register_kind(w->c, &k));
}

static bool live_register(live *w, const tl_content_source_desc *d) {
    w->dir = tl_content_register_source(w->c, "Game", g_root, d);
    return tl_content_dir_valid(w->dir);
}

static void live_end(live *w) {
    tl_content_shutdown(w->c);
    assert_int_equal(w->kind.live, 0);
    live_tree_remove();
}

/* Updates until `done` holds (at most 5 seconds: this checks that a change is seen, under any
   load; how soon is tests/bench/content_live's measure). */
static bool live_until(live *w, bool (*done)(live *)) {
    double t0 = live_now();
    while (live_now() - t0 < 5.0) {
        tl_content_update(w->c);
        if (done(w)) return true;
        live_sleep_ms(1);
    }
    return false;
}

static tl_content_watch watch_of(void **state) { return *(const tl_content_watch *)*state; }

static const char *text_of(tl_asset a) { return (const char *)tl_asset_object(a); }

/* ---- pack's rules ------------------------------------------------------------------------------ */

static void test_live_names_follow_pack_rules(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_scope s;
    assert_non_null(live_tree());
    live_write("Sprites/hero.png", "hero");
    live_write("Sprites/ui/button.big.png", "button");
    live_write("Sprites/.hidden.png", "hidden");
    live_write("Sprites/.git/HEAD", "hidden folder");
    live_write("Sprites/.bashrc", "a leading dot is no extension, and hidden");
    live_write("Levels/one.txt", "level one");
    live_write("Levels/noext", "no extension");
    live_write("Other/outside.txt", "no category");
    assert_int_equal(symlink("/etc", live_path("Sprites/etc")), 0); /* out of the root: skipped */
    assert_int_equal(mkfifo(live_path("Levels/pipe"), 0644), 0);     /* special: skipped */
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    assert_int_equal(tl_content_dir_asset_count(w.dir), 4);
    s = tl_content_root(w.c);
    assert_string_equal(text_of(tl_scope_load_name(s, "Sprites/hero")), "hero");
    assert_string_equal(text_of(tl_scope_load_name(s, "sprites/UI/button.big")), "button");
    assert_string_equal(text_of(tl_scope_load_name(s, "Levels/one")), "level one");
    assert_string_equal(text_of(tl_scope_load_name(s, "Levels/noext")), "no extension");
    assert_int_equal(tl_content_find(w.c, "Other/outside"), 0);
    assert_int_equal(tl_content_find(w.c, "Sprites/.hidden"), 0);
    assert_true(log_has("Sprites/etc skipped: a symbolic link out of the source root"));
    assert_true(log_has("Levels/pipe skipped: a special file (only regular files are content)"));
    live_end(&w);
}

static void test_live_names_path_mode_and_categories_of_the_root(void **state) {
    live w;
    static const tl_content_source_category whole[] = {{"All", ""}};
    tl_content_source_desc d = source_desc(watch_of(state));
    assert_non_null(live_tree());
    live_write("a/b.txt", "b");
    live_write("c.txt", "c");
    d.categories = whole;
    d.category_count = 1;
    d.names_path = true;
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    assert_int_equal(tl_content_dir_asset_count(w.dir), 2);
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "a/b.txt")), "b");
    assert_int_equal(tl_content_find(w.c, "a/b"), 0);
    live_end(&w);
}

static void test_live_refuses_what_pack_refuses(void **state) {
    live w;
    static const tl_content_source_category overlap[] = {{"Sprites", "Sprites"}, {"Small", "Sprites/small"}};
    static const tl_content_source_category missing[] = {{"Sprites", "Sprites"}, {"Sounds", "Sounds"}};
    tl_content_source_desc d = source_desc(watch_of(state));
    char message[1024];
    assert_non_null(live_tree());
    live_write("Sprites/Icon.png", "one");
    live_write("Sprites/icon.jpg", "two");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    /* Two files, one name (case-insensitively): both paths named, nothing registered. */
    assert_false(live_register(&w, &d));
    snprintf(message, sizeof message, "cannot register %s: %s/Sprites/icon.jpg: asset name \"Sprites/icon\" of profile \"Game\" is also the name of %s/Sprites/Icon.png",
             g_root, g_root, g_root);
    assert_true(log_has(message));
    assert_int_equal(tl_content_get_stats(w.c).directories, 0);
    live_remove("Sprites/icon.jpg");
    d.categories = overlap;
    assert_false(live_register(&w, &d));
    assert_true(log_has("two categories overlap: a file would be in two catalogs"));
    d.categories = missing;
    assert_false(live_register(&w, &d));
    assert_true(log_has("category folder \"Sounds\" is not a folder under"));
    d.categories = k_categories;
    d.flat = true;
    live_write("Sprites/aux.png", "a device name");
    assert_false(live_register(&w, &d));
    assert_true(log_has("Sprites/aux.png: name is a Windows device name"));
    live_remove("Sprites/aux.png");
    live_write("Sprites/bad\x01name.png", "control");
    assert_false(live_register(&w, &d));
    assert_true(log_has("file name contains a control character; asset names must be UTF-8 text"));
    live_remove("Sprites/bad\x01name.png");
    assert_true(live_register(&w, &d));
    /* One profile once: a second registration of it is refused. */
    assert_false(tl_content_dir_valid(tl_content_register_source(w.c, "Game", g_root, &d)));
    assert_true(log_has("its profile is already registered"));
    assert_int_equal(tl_content_get_stats(w.c).directories, 1);
    live_end(&w);
}

/* ---- ids ------------------------------------------------------------------------------------------ */

/* The generated catalog's lookup, as a game passes it. */
static uint32_t catalog_of_example(void *user, const char *name) {
    const content_game_asset *a = content_game_find(name);
    (void)user;
    return a ? (uint32_t)a->id : 0u;
}

static void test_live_ids_are_the_catalogs_or_identitys(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset slime;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Sprites/slime.txt", "slime");
    live_write("Sprites/dragon.txt", "not in the catalog yet");
    live_write("Levels/field.txt", "field");
    live_start(&w, d.watch);
    /* Without a catalog: the ids identity issues, XXH32 of the folded key under seed 0. */
    assert_true(live_register(&w, &d));
    assert_int_equal(tl_content_find(w.c, "Sprites/dragon"), tl_hash32("game.sprites/dragon", 19, 0));
    assert_int_equal(tl_content_find(w.c, "Levels/FIELD"), tl_hash32("game.levels/field", 17, 0));
    tl_content_shutdown(w.c);
    assert_int_equal(w.kind.live, 0);
    /* With examples/content's catalog: its ids (issued under older keys) resolve. */
    live_start(&w, d.watch);
    d.catalog_id = catalog_of_example;
    assert_true(live_register(&w, &d));
    slime = tl_scope_load(tl_content_root(w.c), (uint32_t)Content_Game_Sprites_slime);
    assert_string_equal(text_of(slime), "slime");
    assert_string_equal(text_of(tl_scope_load(tl_content_root(w.c), (uint32_t)Content_Game_Levels_field)), "field");
    assert_int_equal(tl_content_find(w.c, "Sprites/dragon"), tl_hash32("game.sprites/dragon", 19, 0));
    /* What was loaded and the catalog does not carry: reported (on request and at shutdown). */
    tl_scope_load_name(tl_content_root(w.c), "Sprites/dragon");
    assert_int_equal(tl_content_source_report(w.c), 1);
    assert_true(log_has("Sprites/dragon (profile Game) was loaded from its source tree and the generated catalog does not carry it yet"));
    assert_true(log_has("1 asset(s) loaded from source trees need a threadlink-gen generate before they ship"));
    assert_null(strstr(g_log.text, "Sprites/slime (profile"));
    log_reset();
    live_end(&w);
    assert_int_equal(log_count(TL_CONTENT_LOG_SOURCE_UNCATALOGUED), 1);
}

/* ---- hot reload ------------------------------------------------------------------------------------ */

static bool reloaded_once(live *w) { return w->kind.reloads >= 1; }
static bool reloaded_twice(live *w) { return w->kind.reloads >= 2; }
static bool reload_failed(live *w) { return w && log_count(TL_CONTENT_LOG_RELOAD_FAILED) >= 1; }

static void test_live_edit_reloads_in_place(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_scope level, entity;
    tl_asset a, again;
    tl_content_handle raw;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "v1");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    level = tl_scope_create(tl_content_root(w.c), "Field", TL_SCOPE_LEVEL);
    entity = tl_scope_create(level, "Hero", TL_SCOPE_ENTITY);
    a = tl_scope_load_name(entity, "Sprites/hero");
    raw = tl_content_acquire_name(w.c, "Sprites/hero");
    assert_string_equal(text_of(a), "v1");
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 0); /* nothing changed: nothing reloaded */
    live_write("Sprites/hero.txt", "version 2");
    assert_true(live_until(&w, reloaded_once));
    /* The same slot and generation: every handle and reference still names it. */
    assert_true(tl_asset_valid(a));
    assert_true(tl_content_handle_valid(raw));
    assert_string_equal(text_of(a), "version 2");
    assert_string_equal(w.kind.last_old_text, "v1");
    assert_string_equal(w.kind.last_new_text, "version 2");
    assert_int_equal(w.kind.live, 1); /* the old object was destroyed */
    assert_int_equal(tl_asset_size(a), strlen("version 2"));
    assert_int_equal(tl_asset_count(a), 2);
    again = tl_scope_load_name(entity, "Sprites/hero");
    assert_true(again.slot == a.slot && again.gen == a.gen);
    assert_int_equal(tl_scope_count(entity), 1);
    assert_true(log_has("reloaded Sprites/hero"));
    /* An editor's save (a new file renamed over the old one) reloads too. */
    live_write_atomic("Sprites/hero.txt", "version three");
    assert_true(live_until(&w, reloaded_twice));
    assert_string_equal(text_of(a), "version three");
    assert_true(tl_asset_valid(a));
    tl_content_dispose(raw);
    live_end(&w);
}

static void test_live_bad_edit_keeps_the_old_object(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset a;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "good");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    a = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    live_write("Sprites/hero.txt", "bad bytes");
    assert_true(live_until(&w, reload_failed));
    assert_true(log_has("reloading Sprites/hero failed, the loaded object stays: the decoder refused it"));
    assert_true(tl_asset_valid(a));
    assert_string_equal(text_of(a), "good");
    assert_int_equal(w.kind.reloads, 0);
    live_write("Sprites/hero.txt", "fixed again");
    assert_true(live_until(&w, reloaded_once));
    assert_string_equal(text_of(a), "fixed again");
    live_end(&w);
}


static void test_live_delete_keeps_held_and_fails_new_loads(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_scope held;
    tl_asset a;
    int i;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    held = tl_scope_create(tl_content_root(w.c), "Held", TL_SCOPE_EXPLICIT);
    a = tl_scope_load_name(held, "Sprites/hero");
    live_remove("Sprites/hero.txt");
    live_remove("Levels/one.txt");
    for (i = 0; i < 20; i++) tl_content_update(w.c);
    /* The held asset stays as it is. */
    assert_true(tl_asset_valid(a));
    assert_string_equal(text_of(a), "hero");
    assert_int_equal(w.kind.reloads, 0);
    /* A new load fails and says why. */
    log_reset();
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Levels/one")));
    assert_true(log_has("loading Levels/one failed: its file was deleted from the source tree"));
    tl_scope_dispose(held);
    tl_content_update(w.c);
    assert_false(tl_asset_valid(a));
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/hero")));
    assert_true(log_has("loading Sprites/hero failed: its file was deleted from the source tree"));
    live_end(&w);
}

static void test_live_added_file_resolves_at_first_load(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    live_write("Sprites/new/slime.txt", "slime");
    /* No update in between: the first load finds it. */
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/new/slime")), "slime");
    assert_int_equal(tl_content_dir_asset_count(w.dir), 3);
    live_end(&w);
}

static bool renamed_seen(live *w) { return tl_content_find(w->c, "Sprites/champion") != 0; }

static void test_live_rename_moves_the_name(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset a, b;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    a = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    live_rename("Sprites/hero.txt", "Sprites/champion.txt");
    assert_true(live_until(&w, renamed_seen));
    b = tl_scope_load_name(tl_content_root(w.c), "Sprites/champion");
    assert_string_equal(text_of(b), "hero");
    assert_true(tl_asset_valid(a)); /* the old name's asset is held: it stays */
    tl_scope_release(tl_content_root(w.c), tl_asset_id(a));
    tl_content_update(w.c);
    log_reset();
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/hero")));
    assert_true(log_has("loading Sprites/hero failed: its file was deleted from the source tree"));
    /* An extension change keeps the name (stem naming) and reloads it. */
    live_rename("Sprites/champion.txt", "Sprites/champion.dat");
    live_write("Sprites/champion.dat", "champion, renamed");
    assert_true(live_until(&w, reloaded_once));
    assert_string_equal(text_of(b), "champion, renamed");
    live_end(&w);
}

static bool refused_seen(live *w) { return w && log_count(TL_CONTENT_LOG_SOURCE_REFUSED) >= 1; }

static void test_live_tree_pack_refuses_keeps_the_names(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    live_write("Sprites/HERO.png", "a second hero");
    assert_true(live_until(&w, refused_seen));
    assert_true(log_has("changed into one pack refuses; its previous names stay served"));
    assert_true(log_has("is also the name of"));
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/hero")), "hero");
    live_end(&w);
}

/* ---- a flat build, reloaded after a pack ---------------------------------------------------------- */

static const char *g_gen; /* threadlink-gen, to pack the flat build */

static void pack(void) {
    char cmd[1024];
    /* pack's record of input hashes in the test's own folder, not ~/.cache */
    snprintf(cmd, sizeof cmd, "XDG_CACHE_HOME='%s/.cache' '%s' pack -C '%s' --quiet --no-progress", g_root, g_gen, g_root);
    assert_int_equal(system(cmd), 0);
}

static void test_live_flat_build_reloads_after_pack(void **state) {
    live w;
    tl_asset hero, slime;
    char out[600];
    int i;
    (void)state;
    assert_non_null(live_tree());
    live_write("threadlink.json", "{\"generated_dir\": \"generated\", \"domains\": [], \"content\": [{\"profile\": \"Flat\", "
                                  "\"source_root\": \"assets\", \"output\": \"out/Flat\", \"archive\": \"none\"}]}\n");
    live_write("assets/Sprites/hero.txt", "hero");
    live_write("assets/Sprites/slime.txt", "slime");
    pack();
    live_start(&w, TL_CONTENT_WATCH_AUTO);
    snprintf(out, sizeof out, "%s/out/Flat", g_root);
    assert_true(tl_content_dir_valid(tl_content_register_dir(w.c, out)));
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    slime = tl_scope_load_name(tl_content_root(w.c), "Sprites/slime");
    assert_string_equal(text_of(hero), "hero");
    /* An edit of the source is not the build: nothing happens until the next pack. */
    live_write("assets/Sprites/hero.txt", "hero, packed again");
    live_write("assets/Sprites/added.txt", "added");
    for (i = 0; i < 3; i++) tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 0);
    pack();
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 1);
    assert_true(tl_asset_valid(hero));
    assert_string_equal(text_of(hero), "hero, packed again");
    assert_string_equal(w.kind.last_old_text, "hero");
    assert_string_equal(text_of(slime), "slime"); /* unchanged: not reloaded */
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/added")), "added");
    /* A build that drops a held asset is not served: the previous catalog stays. */
    live_remove("assets/Sprites/slime.txt");
    pack();
    tl_content_update(w.c);
    assert_true(log_has("was rebuilt, and its new catalog is not served (it drops an asset that is held; release it first)"));
    assert_true(tl_asset_valid(slime));
    assert_string_equal(text_of(slime), "slime");
    live_end(&w);
}

/* ---- a packed build, re-mounted after a pack ------------------------------------------------------ */

/* A packed build of three sprites, its entries stored with `compression` (zstd, lz4 or none). */
static void packed_tree(const char *compression) {
    char config[512];
    assert_non_null(live_tree());
    snprintf(config, sizeof config,
             "{\"generated_dir\": \"generated\", \"domains\": [], \"content\": [{\"profile\": \"Packed\", "
             "\"source_root\": \"assets\", \"output\": \"out/Packed\", \"compression\": \"%s\"}]}\n",
             compression);
    live_write("threadlink.json", config);
    live_write("assets/Sprites/hero.txt", "hero");
    live_write("assets/Sprites/slime.txt", "slime");
    live_write("assets/Sprites/gone.txt", "gone");
    pack();
}

/* Long enough, and repetitive enough, for zstd and lz4 to store it compressed. */
#define LA8 "la la la la la la la la "
#define HERO_AGAIN "hero, packed again: " LA8 LA8 LA8 LA8 LA8 LA8
#define HERO_REPAIRED "hero, repaired: " LA8 LA8 LA8 LA8 LA8 LA8

static tl_content_dir register_packed(live *w) {
    char out[600];
    live_start(w, TL_CONTENT_WATCH_AUTO);
    snprintf(out, sizeof out, "%s/out/Packed", g_root);
    w->dir = tl_content_register_dir(w->c, out);
    assert_true(tl_content_dir_valid(w->dir));
    return w->dir;
}

static void test_live_packed_build_remounts_after_pack(void **state) {
    live w;
    tl_asset hero, slime;
    int i;
    (void)state;
    packed_tree("zstd");
    register_packed(&w);
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    slime = tl_scope_load_name(tl_content_root(w.c), "Sprites/slime");
    assert_string_equal(text_of(hero), "hero");
    /* An edit of the source is not the build: nothing happens until the next pack. */
    live_write("assets/Sprites/hero.txt", HERO_AGAIN);
    live_write("assets/Sprites/added.txt", "added");
    for (i = 0; i < 3; i++) tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 0);
    pack();
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 1);
    assert_true(tl_asset_valid(hero));
    assert_string_equal(text_of(hero), HERO_AGAIN);
    assert_string_equal(w.kind.last_old_text, "hero");
    assert_string_equal(text_of(slime), "slime"); /* unchanged: not reloaded */
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/added")), "added");
    /* A pack whose new bytes the decoder refuses: the old object stays, logged. */
    live_write("assets/Sprites/hero.txt", "bad hero");
    pack();
    tl_content_update(w.c);
    assert_int_equal(log_count(TL_CONTENT_LOG_RELOAD_FAILED), 1);
    assert_true(log_has("reloading Sprites/hero failed, the loaded object stays: the decoder refused it"));
    assert_string_equal(text_of(hero), HERO_AGAIN);
    /* Removed from the build: a held asset stays as it is, a new load fails saying why. */
    live_remove("assets/Sprites/slime.txt");
    live_remove("assets/Sprites/gone.txt");
    pack();
    tl_content_update(w.c);
    assert_true(tl_asset_valid(slime));
    assert_string_equal(text_of(slime), "slime");
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/gone")));
    assert_true(log_has("no registered directory holds asset Sprites/gone"));
    /* Released, the removed asset loads no more either, saying why; packed back, it loads again. */
    assert_true(tl_scope_release(tl_content_root(w.c), tl_asset_id(slime)));
    tl_content_collect(w.c);
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")));
    assert_true(log_has("loading Sprites/slime failed: the directory's latest pack does not have it"));
    live_write("assets/Sprites/slime.txt", "slime again");
    pack();
    tl_content_update(w.c);
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")), "slime again");
    /* A dropped asset still held at shutdown is destroyed like any other. */
    live_remove("assets/Sprites/added.txt");
    pack();
    tl_content_update(w.c);
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/added")), "added");
    live_end(&w);
}

/* Flips the last byte of every archive of out/Packed (sizes kept: only the XXH64 tells). */
static void corrupt_archives(void) {
    char dir[600], path[900];
    DIR *d;
    struct dirent *e;
    int flipped = 0;
    snprintf(dir, sizeof dir, "%s/out/Packed", g_root);
    d = opendir(dir);
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        FILE *f;
        int c;
        if (n < 5 || strcmp(e->d_name + n - 5, ".tlpk") != 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        f = fopen(path, "r+b");
        assert_non_null(f);
        assert_int_equal(fseek(f, -1, SEEK_END), 0);
        c = fgetc(f);
        assert_int_equal(fseek(f, -1, SEEK_END), 0);
        fputc(c ^ 0x5a, f);
        fclose(f);
        flipped++;
    }
    closedir(d);
    assert_true(flipped >= 2);
}

static void test_live_packed_corrupt_repack_keeps_the_old(void **state) {
    live w;
    tl_asset hero;
    (void)state;
    packed_tree("lz4");
    register_packed(&w);
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    live_write("assets/Sprites/hero.txt", "hero, corrupted");
    live_write("assets/Sprites/added.txt", "added");
    pack();
    corrupt_archives();
    tl_content_update(w.c);
    assert_true(log_has("was packed again, and the new build is not served (archive "));
    assert_true(log_has("XXH64 differs from archives.json): the previous one stays"));
    assert_int_equal(w.kind.reloads, 0);
    assert_true(tl_asset_valid(hero));
    assert_string_equal(text_of(hero), "hero");
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/added")));
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")), "slime");
    /* The next pack rebuilds the corrupted archives: served, reloaded. */
    live_write("assets/Sprites/hero.txt", HERO_REPAIRED);
    pack();
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 1);
    assert_string_equal(text_of(hero), HERO_REPAIRED);
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/added")), "added");
    /* The whole output folder removed and packed afresh: its watch is gone, the stat takes over. */
    assert_int_equal(nftw(live_path("out/Packed"), live_rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
    tl_content_update(w.c);
    live_write("assets/Sprites/hero.txt", "hero, from scratch");
    pack();
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 2);
    assert_string_equal(text_of(hero), "hero, from scratch");
    /* Removed and packed again between two updates: the new folder is the one watched after. */
    assert_int_equal(nftw(live_path("out/Packed"), live_rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
    live_write("assets/Sprites/hero.txt", "hero, from scratch again");
    pack();
    tl_content_update(w.c);
    assert_string_equal(text_of(hero), "hero, from scratch again");
    live_write("assets/Sprites/hero.txt", "hero, in the new folder");
    pack();
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 4);
    assert_string_equal(text_of(hero), "hero, in the new folder");
    live_end(&w);
}

/* Mappings of files of out/Packed in this process. */
static int packed_mappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1200];
    int n = 0;
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        if (strstr(line, "/out/Packed/")) n++;
    fclose(f);
    return n;
}

static bool bytes_are(tl_asset a, const char *text) {
    return tl_asset_size(a) == strlen(text) && memcmp(tl_asset_object(a), text, strlen(text)) == 0;
}

/* No kind: assets are kept as their bytes (each its archive's mapping in content-live-mapped,
   where every entry is mapped), replaced by a pack's new bytes and the mapping let go. */
static void test_live_packed_bytes_reloaded(void **state) {
    const int mapped = TL_CONTENT_MAP_MIN_BYTES == 1;
    live w;
    tl_content_desc desc;
    tl_asset hero;
    (void)state;
    packed_tree("none");
    memset(&w, 0, sizeof w);
    memset(&desc, 0, sizeof desc);
    log_reset();
    desc.logger = capture_logger();
    desc.release_delay_frames = TL_CONTENT_NO_DELAY;
    w.c = tl_content_create(&desc);
    assert_true(tl_content_dir_valid(tl_content_register_dir(w.c, live_path("out/Packed"))));
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    assert_true(bytes_are(hero, "hero"));
    assert_true(bytes_are(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime"), "slime"));
    assert_int_equal(packed_mappings(), mapped ? 2 : 0);
    live_write("assets/Sprites/hero.txt", HERO_AGAIN);
    pack();
    tl_content_update(w.c);
    assert_true(bytes_are(hero, HERO_AGAIN));
    assert_int_equal(packed_mappings(), mapped ? 1 : 0); /* slime's, not reloaded */
    live_end(&w);
    assert_int_equal(packed_mappings(), 0);
}

static const tl_content_watch k_inotify = TL_CONTENT_WATCH_AUTO, k_poll = TL_CONTENT_WATCH_POLL;

#define BOTH(t) cmocka_unit_test_prestate(t, (void *)&k_inotify), cmocka_unit_test_prestate(t, (void *)&k_poll)

/* argv[1]: threadlink-gen (the flat build's test needs it). */
int main(int argc, char **argv) {
    const struct CMUnitTest flat[] = {cmocka_unit_test(test_live_flat_build_reloads_after_pack),
                                      cmocka_unit_test(test_live_packed_build_remounts_after_pack),
                                      cmocka_unit_test(test_live_packed_corrupt_repack_keeps_the_old),
                                      cmocka_unit_test(test_live_packed_bytes_reloaded)};
    const struct CMUnitTest tests[] = {
        BOTH(test_live_names_follow_pack_rules),
        BOTH(test_live_names_path_mode_and_categories_of_the_root),
        BOTH(test_live_refuses_what_pack_refuses),
        BOTH(test_live_ids_are_the_catalogs_or_identitys),
        BOTH(test_live_edit_reloads_in_place),
        BOTH(test_live_bad_edit_keeps_the_old_object),
        BOTH(test_live_delete_keeps_held_and_fails_new_loads),
        BOTH(test_live_added_file_resolves_at_first_load),
        BOTH(test_live_rename_moves_the_name),
        BOTH(test_live_tree_pack_refuses_keeps_the_names),
    };
    int failed = cmocka_run_group_tests_name("content_live", tests, NULL, NULL);
    g_gen = argc > 1 ? argv[1] : NULL;
    if (g_gen) failed += cmocka_run_group_tests_name("content_live_flat", flat, NULL, NULL);
    return failed;
}
