/* Profiles served from their source tree (content.h's live part): pack's rules, ids, hot reload under
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
    assert_int_equal(tl_content_register_kind(w->c, &k), TL_CONTENT_OK);
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
static const char *listed_names(tl_content_dir dir);
static bool refused_seen(live *w);
static void live_updates(live *w, int n);

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
    assert_true(log_has("Sprites/etc: symbolic link to /etc skipped: it leads out of the source root and is never followed"));
    assert_true(log_has("Levels/pipe: special file skipped (only regular files are content)"));
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

/* Two spellings of one name under Unicode normalisation ("café" composed and decomposed, as macOS
   stores names) are one name, refused as pack refuses them: at registration, and when the tree
   changes into it (the previous names stay served). */
static void test_live_refuses_names_one_under_normalisation(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    char message[1024];
    assert_non_null(live_tree());
    live_write("Sprites/caf\xc3\xa9.png", "composed");
    live_write("Sprites/cafe\xcc\x81.txt", "decomposed");
    live_write("Sprites/cafe.png", "another name");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_false(live_register(&w, &d));
    snprintf(message, sizeof message,
             "cannot register %s: %s/Sprites/caf\xc3\xa9.png: asset name \"Sprites/caf\xc3\xa9\" of profile \"Game\" is also the name of "
             "%s/Sprites/cafe\xcc\x81.txt under Unicode normalisation",
             g_root, g_root, g_root);
    assert_true(log_has(message));
    live_remove("Sprites/cafe\xcc\x81.txt");
    assert_true(live_register(&w, &d));
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/caf\xc3\xa9")), "composed");
    /* KELVIN SIGN is K: added, the tree is one pack refuses. */
    live_write("Levels/\xe2\x84\xaa.txt", "kelvin");
    live_write("Levels/k.txt", "k");
    assert_true(live_until(&w, refused_seen));
    assert_true(log_has("Levels/k.txt under Unicode normalisation"));
    assert_int_equal(tl_content_find(w.c, "Levels/k"), 0);
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Levels/one")), "level");
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

/* The generated catalog header carries the profile's source description (categories and
   folders, names, archive mode, the catalog's ids): registered as it is. */
static void test_live_source_desc_from_the_catalog_header(void **state) {
    live w;
    tl_content_source_desc d = content_game_source_desc();
    assert_non_null(live_tree());
    live_write("Sprites/slime.txt", "slime");
    live_write("Levels/field.txt", "field");
    live_write("Music/theme.ogg", "theme");
    live_write("Other/note.txt", "in no category");
    d.watch = watch_of(state);
    live_start(&w, d.watch);
    assert_int_equal(d.category_count, CONTENT_GAME_CATEGORY_COUNT);
    assert_string_equal(CONTENT_GAME_PROFILE, "Game");
    assert_string_equal(CONTENT_GAME_SOURCE_ROOT, "assets");
    w.dir = tl_content_register_source(w.c, CONTENT_GAME_PROFILE, g_root, &d);
    assert_true(tl_content_dir_valid(w.dir));
    assert_string_equal(text_of(tl_scope_load(tl_content_root(w.c), (uint32_t)Content_Game_Sprites_slime)), "slime");
    assert_string_equal(text_of(tl_scope_load(tl_content_root(w.c), (uint32_t)Content_Game_Music_theme)), "theme");
    assert_string_equal(listed_names(w.dir), "Levels:Levels/field|Music:Music/theme|Sprites:Sprites/slime");
    assert_int_equal(tl_content_source_report(w.c), 0); /* every name is the catalog's */
    live_end(&w);
}

/* ---- hot reload ------------------------------------------------------------------------------------ */

static bool reloaded_once(live *w) { return w->kind.reloads >= 1; }
static bool reloaded_twice(live *w) { return w->kind.reloads >= 2; }
static bool reloaded_thrice(live *w) { return w->kind.reloads >= 3; }
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
    assert_int_equal(w.kind.first_decodes, 1);
    assert_int_equal(w.kind.reload_decodes, 0);
    live_write("Sprites/hero.txt", "version 2");
    assert_true(live_until(&w, reloaded_once));
    assert_int_equal(w.kind.first_decodes, 1); /* the decoder is told it is a reload */
    assert_int_equal(w.kind.reload_decodes, 1);
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
    assert_int_equal(tl_content_last_result(w.c), TL_CONTENT_GONE);
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

/* Every name a directory serves, "|"-joined in name order (deleted files are not served). */
static const char *listed_names(tl_content_dir dir) {
    static char out[1024];
    char names[32][128];
    uint32_t cursor = 0, n = 0, i, k;
    tl_content_info info;
    while (tl_content_dir_next_asset(dir, &cursor, &info)) {
        assert_true(n < 32);
        assert_int_equal(tl_content_find(dir.ctx, info.name), info.id);
        snprintf(names[n++], sizeof names[0], "%s:%s", info.category, info.name);
    }
    for (i = 1; i < n; i++) /* insertion sort: a handful of names */
        for (k = i; k > 0 && strcmp(names[k - 1], names[k]) > 0; k--) {
            char t[128];
            memcpy(t, names[k], sizeof t);
            memcpy(names[k], names[k - 1], sizeof t);
            memcpy(names[k - 1], t, sizeof t);
        }
    out[0] = 0;
    for (i = 0; i < n; i++) {
        if (i) strcat(out, "|");
        strcat(out, names[i]);
    }
    return out;
}

static bool listed_added(live *w) { return strstr(listed_names(w->dir), "Sprites:Sprites/slime") != NULL; }

static void test_live_dir_lists_its_names(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset hero;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Sprites/tree.txt", "tree");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    assert_string_equal(listed_names(w.dir), "Levels:Levels/one|Sprites:Sprites/hero|Sprites:Sprites/tree");
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    live_remove("Sprites/hero.txt");
    live_write("Sprites/slime.txt", "slime");
    assert_true(live_until(&w, listed_added));
    /* The deleted file's asset is held, but no longer served: not listed. */
    assert_true(tl_asset_valid(hero));
    assert_string_equal(listed_names(w.dir), "Levels:Levels/one|Sprites:Sprites/slime|Sprites:Sprites/tree");
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
    live_updates(&w, 30); /* the poll reads a refused tree at every update: said once */
    assert_int_equal(log_count(TL_CONTENT_LOG_SOURCE_REFUSED), 1);
    live_end(&w);
}

/* A level kind whose decoder loads the sprites its file names, one a line. */
typedef struct level_kind {
    tl_scope deps;
    int found, missing, reloads;
} level_kind;

static void *level_decode(void *user, const tl_content_info *info, const void *bytes, size_t size) {
    level_kind *k = (level_kind *)user;
    const char *p = (const char *)bytes, *end = p + size;
    char *copy = (char *)malloc(size + 1);
    (void)info;
    while (p < end) {
        char name[128];
        size_t n = 0;
        while (p < end && *p != '\n' && n + 1 < sizeof name) name[n++] = *p++;
        name[n] = 0;
        p++;
        if (!n) continue;
        if (tl_asset_valid(tl_scope_load_name(k->deps, name))) k->found++;
        else k->missing++;
    }
    if (copy) {
        memcpy(copy, bytes, size);
        copy[size] = 0;
    }
    return copy;
}

static void level_destroy(void *user, const tl_content_info *info, void *object) {
    (void)user, (void)info;
    free(object);
}

static void level_reload(void *user, const tl_content_info *info, void *old_object, void *new_object) {
    (void)info, (void)old_object, (void)new_object;
    ((level_kind *)user)->reloads++;
}

static level_kind g_levels;
static bool level_reloaded(live *w) { return w && g_levels.reloads >= 1; }

/* A designer adds a sprite, then saves the level that uses it: the update reads the addition
   before it reloads the level, so the level's decoder finds the sprite. */
static void test_live_additions_before_reloads(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_content_kind_desc k;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "Sprites/hero\n");
    live_start(&w, d.watch);
    memset(&g_levels, 0, sizeof g_levels);
    memset(&k, 0, sizeof k);
    k.category = "Levels";
    k.decode = level_decode;
    k.destroy = level_destroy;
    k.reload = level_reload;
    k.user = &g_levels;
    assert_int_equal(tl_content_register_kind(w.c, &k), TL_CONTENT_OK);
    assert_true(live_register(&w, &d));
    g_levels.deps = tl_scope_create(tl_content_root(w.c), "Deps", TL_SCOPE_OWNED);
    assert_non_null(text_of(tl_scope_load_name(tl_content_root(w.c), "Levels/one")));
    assert_int_equal(g_levels.found, 1);
    live_write("Sprites/slime.txt", "slime");
    live_write("Levels/one.txt", "Sprites/hero\nSprites/slime\n");
    assert_true(live_until(&w, level_reloaded));
    assert_int_equal(g_levels.missing, 0);
    assert_int_equal(g_levels.found, 3);
    assert_null(strstr(g_log.text, "no registered directory holds asset"));
    live_end(&w);
}

/* ---- links and special files: reads resolved beneath the root ---------------------------------- */

static char g_outside[256]; /* a folder beside the tree, for links out of it */

static const char *outside_write(const char *rel, const char *text) {
    static char path[512];
    char dir[512];
    FILE *f;
    if (!g_outside[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(g_outside, sizeof g_outside, "%s/tl-outside-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
        assert_non_null(mkdtemp(g_outside));
    }
    snprintf(path, sizeof path, "%s/%s", g_outside, rel);
    snprintf(dir, sizeof dir, "%s", path);
    *strrchr(dir, '/') = 0;
    mkdir(dir, 0755);
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void outside_remove(void) {
    if (g_outside[0]) nftw(g_outside, live_rm_one, 16, FTW_DEPTH | FTW_PHYS);
    g_outside[0] = 0;
}

/* rel becomes a symbolic link to target, in one rename (as a swap by someone else would be). */
static void live_link(const char *rel, const char *target) {
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.~lnk", live_path(rel));
    assert_int_equal(symlink(target, tmp), 0);
    assert_int_equal(rename(tmp, live_path(rel)), 0);
}

static bool skipped_twice(live *w) { return w && log_count(TL_CONTENT_LOG_SOURCE_SKIPPED) >= 2; }

static void live_updates(live *w, int n) {
    int i;
    for (i = 0; i < n; i++) {
        tl_content_update(w->c);
        live_sleep_ms(2);
    }
}

/* A file swapped for a link out of the root (absolute, or relative through ".."), or for a FIFO:
   a load before the next update reads nothing through it (and never blocks), a held asset is
   never reloaded with the outside bytes. */
static void test_live_links_out_of_the_root_are_never_read(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset hero;
    char escape[600];
    const char *secret;
    alarm(30); /* a blocking open ends the run */
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Sprites/slime.txt", "slime");
    live_write("Sprites/tree.txt", "tree");
    live_write("Sprites/loop.txt", "loop");
    live_write("Sprites/long.txt", "long");
    live_write("Sprites/up.txt", "up");
    live_write("Levels/one.txt", "level");
    secret = outside_write("secret.txt", "secret");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    assert_string_equal(text_of(hero), "hero");
    live_link("Sprites/hero.txt", secret);
    snprintf(escape, sizeof escape, "../../%s/secret.txt", strrchr(g_outside, '/') + 1);
    live_link("Sprites/slime.txt", escape);
    assert_int_equal(unlink(live_path("Sprites/tree.txt")), 0);
    assert_int_equal(mkfifo(live_path("Sprites/tree.txt"), 0644), 0);
    log_reset();
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")));
    assert_true(log_has("loading Sprites/slime failed: its path leads out of the source root through a symbolic link"));
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/tree")));
    assert_true(log_has("is a FIFO (named pipe), not a regular file"));
    /* A link to itself, one through a name longer than any file's, one to a folder. */
    {
        char longer[400];
        memset(longer, 'x', 300);
        strcpy(longer + 300, "/long.txt");
        live_link("Sprites/loop.txt", "loop.txt");
        live_link("Sprites/long.txt", longer);
        live_link("Sprites/up.txt", "..");
    }
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/loop")));
    assert_true(log_has("loading Sprites/loop failed: its path has too many symbolic links (a loop?)"));
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/long")));
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/up")));
    live_updates(&w, 30);
    assert_true(tl_asset_valid(hero));
    assert_string_equal(text_of(hero), "hero");
    assert_int_equal(w.kind.reloads, 0);
    assert_null(strstr(g_log.text, "reloaded Sprites/hero"));
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")));
    live_end(&w);
    outside_remove();
    alarm(0);
}

/* A category folder swapped for a link inside the root is served through it (links inside the
   root are followed); swapped for a link out of the root, nothing is read through it. */
static void test_live_category_swapped_for_a_link(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset hero;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Sprites/slime.txt", "slime");
    live_write("Levels/one.txt", "level");
    live_write("Sprites-v2/hero.txt", "hero v2");
    live_write("Sprites-v2/slime.txt", "slime v2");
    outside_write("Sprites/hero.txt", "secret hero");
    outside_write("Sprites/slime.txt", "secret slime");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    live_rename("Sprites", "Sprites-v1");
    assert_int_equal(symlink("Sprites-v2", live_path("Sprites")), 0);
    assert_true(live_until(&w, reloaded_once));
    assert_string_equal(text_of(hero), "hero v2");
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")), "slime v2");
    assert_int_equal(tl_scope_release(tl_content_root(w.c), tl_content_find(w.c, "Sprites/slime")), TL_CONTENT_OK);
    tl_content_update(w.c);
    /* Now out of the root. */
    {
        char target[600];
        snprintf(target, sizeof target, "%s/Sprites", g_outside);
        live_link("Sprites", target);
    }
    log_reset();
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")));
    assert_true(log_has("loading Sprites/slime failed: its path leads out of the source root through a symbolic link"));
    live_updates(&w, 30);
    assert_string_equal(text_of(hero), "hero v2");
    assert_int_equal(w.kind.reloads, 1);
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")));
    assert_null(strstr(g_log.text, "reloaded Sprites/hero"));
    live_end(&w);
    outside_remove();
}

/* Links inside the root to files inside it are followed: relative, through "..", absolute. */
static void test_live_links_inside_the_root_are_followed(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    char *real, target[1200];
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "level");
    assert_int_equal(symlink("hero.txt", live_path("Sprites/alias.txt")), 0);
    assert_int_equal(symlink("../Levels/one.txt", live_path("Sprites/level.txt")), 0);
    real = realpath(g_root, NULL);
    assert_non_null(real);
    snprintf(target, sizeof target, "%s/Levels/one.txt", real);
    free(real);
    assert_int_equal(symlink(target, live_path("Sprites/absolute.txt")), 0);
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/alias")), "hero");
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/level")), "level");
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/absolute")), "level");
    live_end(&w);
}

/* How many times `s` appears in the captured log. */
static int log_times(const char *s) {
    int n = 0;
    const char *p;
    for (p = strstr(g_log.text, s); p; p = strstr(p + 1, s)) n++;
    return n;
}

/* A file replaced by a link out of the root, and a new file that is one: nothing is read through
   them, and each is warned about once (pack's warning), however many times the tree is read. */
static void test_live_link_out_of_the_root_warned_once(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset hero;
    char *secret;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "level");
    secret = realpath(outside_write("secret.txt", "secret"), NULL);
    assert_non_null(secret);
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    live_link("Sprites/hero.txt", secret);
    assert_int_equal(symlink(secret, live_path("Sprites/three.txt")), 0);
    assert_int_equal(symlink(".", live_path("Sprites/loop")), 0); /* pack warns of a loop too */
    assert_true(live_until(&w, skipped_twice));
    live_write("Levels/two.txt", "two"); /* the tree read again */
    live_updates(&w, 30);
    assert_non_null(tl_content_find(w.c, "Levels/two") ? "read again" : NULL);
    assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Sprites/three")));
    assert_string_equal(text_of(hero), "hero");
    assert_int_equal(log_times("Sprites/hero.txt: symbolic link to "), 1);
    assert_int_equal(log_times("Sprites/three.txt: symbolic link to "), 1);
    assert_true(log_has(": it leads out of the source root and is never followed"));
    assert_true(log_has(secret));
    assert_int_equal(log_times("Sprites/loop: symbolic link skipped: it leads back into a folder being read (a loop)"), 1);
    free(secret);
    live_end(&w);
    outside_remove();
}

/* Removes the tree's root and everything in it, and makes an empty root at its path. */
static void live_root_made_again(bool make) {
    char root[256];
    snprintf(root, sizeof root, "%s", g_root);
    nftw(root, live_rm_one, 16, FTW_DEPTH | FTW_PHYS);
    if (make) assert_int_equal(mkdir(root, 0755), 0);
}

static bool root_gone_seen(live *w) { return w && log_count(TL_CONTENT_LOG_SOURCE_ROOT_GONE) >= 1; }

/* The root deleted and made again at its path (an exporter that clears its output folder): the
   new folder is served, edits in it reload; while no folder is there, loads say the root went
   away (said once), and held assets stay. */
static void test_live_root_deleted_and_made_again(void **state) {
    live w;
    tl_content_source_desc d = source_desc(watch_of(state));
    tl_asset hero;
    int i;
    assert_non_null(live_tree());
    live_write("Sprites/hero.txt", "hero");
    live_write("Levels/one.txt", "level");
    live_start(&w, d.watch);
    assert_true(live_register(&w, &d));
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    /* Wiped and exported again between two updates. */
    live_root_made_again(true);
    live_write("Sprites/hero.txt", "exported hero");
    live_write("Sprites/slime.txt", "exported slime");
    live_write("Levels/one.txt", "level");
    assert_true(live_until(&w, reloaded_once));
    assert_string_equal(text_of(hero), "exported hero");
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Sprites/slime")), "exported slime");
    live_write("Sprites/hero.txt", "edited hero");
    assert_true(live_until(&w, reloaded_twice));
    assert_string_equal(text_of(hero), "edited hero");
    /* Gone for a while: said once; loads say why; the held asset stays. */
    log_reset();
    live_root_made_again(false);
    assert_true(live_until(&w, root_gone_seen));
    for (i = 0; i < 3; i++) {
        assert_false(tl_asset_valid(tl_scope_load_name(tl_content_root(w.c), "Levels/one")));
        live_updates(&w, 10);
    }
    assert_int_equal(log_count(TL_CONTENT_LOG_SOURCE_ROOT_GONE), 1);
    assert_true(log_has("loading Levels/one failed: its source root went away"));
    assert_null(strstr(g_log.text, "its file is missing"));
    assert_string_equal(text_of(hero), "edited hero");
    /* Back: served from the new folder. */
    assert_int_equal(mkdir(g_root, 0755), 0);
    live_write("Levels/one.txt", "level");
    live_write("Sprites/hero.txt", "hero is back");
    assert_true(live_until(&w, reloaded_thrice));
    assert_string_equal(text_of(hero), "hero is back");
    assert_string_equal(text_of(tl_scope_load_name(tl_content_root(w.c), "Levels/one")), "level");
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
    assert_int_equal(w.kind.reload_decodes, 1);
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
    assert_int_equal(w.kind.reload_decodes, 1);
    assert_int_equal(w.kind.first_decodes, 2);
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
    /* The held asset the pack dropped is no longer served: not listed. */
    assert_string_equal(listed_names(w.dir), "All:Sprites/added|All:Sprites/hero");
    /* Released, the removed asset loads no more either, saying why; packed back, it loads again. */
    assert_int_equal(tl_scope_release(tl_content_root(w.c), tl_asset_id(slime)), TL_CONTENT_OK);
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

/* Moves every archive of out/`from` to out/`to` (a deploy that copies archives.json first). */
static void move_archives(const char *from, const char *to) {
    char dir[600], a[900], b[900];
    DIR *d;
    struct dirent *e;
    snprintf(dir, sizeof dir, "%s/out/%s", g_root, from);
    snprintf(a, sizeof a, "%s/out/%s", g_root, to);
    mkdir(a, 0755);
    d = opendir(dir);
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".tlpk") != 0) continue;
        snprintf(a, sizeof a, "%s/%s", dir, e->d_name);
        snprintf(b, sizeof b, "%s/out/%s/%s", g_root, to, e->d_name);
        assert_int_equal(rename(a, b), 0);
    }
    closedir(d);
}

/* A build whose archives.json arrives before its archives (cp, rsync, a network share): refused
   while they are missing, served once they are there (it was never looked at again). */
static void test_live_packed_index_before_its_archives(void **state) {
    live w;
    tl_asset hero;
    int i;
    (void)state;
    packed_tree("zstd");
    register_packed(&w);
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    live_write("assets/Sprites/hero.txt", HERO_AGAIN);
    pack();
    move_archives("Packed", "Held");
    tl_content_update(w.c);
    assert_true(log_has("was packed again, and the new build is not served (archive "));
    assert_string_equal(text_of(hero), "hero");
    for (i = 0; i < 3; i++) tl_content_update(w.c); /* nothing new: not mounted again */
    assert_int_equal(log_count(TL_CONTENT_LOG_PACKED_ARCHIVE), 1);
    move_archives("Held", "Packed");
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 1);
    assert_string_equal(text_of(hero), HERO_AGAIN);
    live_end(&w);
}

/* A build folder reached through a link, published by replacing the link (ln -s; mv -T): the
   folder watched never hears of it, so the link's folder is watched too (the old build was served
   for good, silently). */
static void test_live_packed_build_behind_a_swapped_link(void **state) {
    live w;
    tl_asset hero;
    char cmd[1400], cur[600], next[600];
    (void)state;
    packed_tree("zstd");
    snprintf(cmd, sizeof cmd, "cp -r '%s/out/Packed' '%s/out/B1'", g_root, g_root);
    assert_int_equal(system(cmd), 0);
    snprintf(cur, sizeof cur, "%s/out/Cur", g_root);
    snprintf(next, sizeof next, "%s/out/Cur.new", g_root);
    assert_int_equal(symlink("B1", cur), 0);
    live_start(&w, TL_CONTENT_WATCH_AUTO);
    w.dir = tl_content_register_dir(w.c, cur);
    assert_true(tl_content_dir_valid(w.dir));
    hero = tl_scope_load_name(tl_content_root(w.c), "Sprites/hero");
    assert_string_equal(text_of(hero), "hero");
    live_write("assets/Sprites/hero.txt", HERO_AGAIN);
    pack();
    snprintf(cmd, sizeof cmd, "cp -r '%s/out/Packed' '%s/out/B2'", g_root, g_root);
    assert_int_equal(system(cmd), 0);
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 0); /* B1 is what the link leads to */
    assert_int_equal(symlink("B2", next), 0);
    assert_int_equal(rename(next, cur), 0);
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 1);
    assert_string_equal(text_of(hero), HERO_AGAIN);
    live_write("assets/Sprites/hero.txt", HERO_REPAIRED); /* and B2 is watched from now on */
    pack();
    snprintf(cmd, sizeof cmd, "cp '%s/out/Packed/'* '%s/out/B2/'", g_root, g_root);
    assert_int_equal(system(cmd), 0);
    tl_content_update(w.c);
    assert_int_equal(w.kind.reloads, 2);
    assert_string_equal(text_of(hero), HERO_REPAIRED);
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
   where every entry is mapped; copied from their archive mapped whole in content-live), replaced
   by a pack's new bytes and the mappings of the archives the pack replaced let go. */
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
    assert_int_equal(packed_mappings(), mapped ? 2 : sizeof(void *) >= 8); /* or their archive */
    live_write("assets/Sprites/hero.txt", HERO_AGAIN);
    pack();
    tl_content_update(w.c);
    assert_true(bytes_are(hero, HERO_AGAIN));
    assert_int_equal(packed_mappings(), mapped ? 1 : 0); /* slime's, not reloaded; its copy */
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
                                      cmocka_unit_test(test_live_packed_index_before_its_archives),
                                      cmocka_unit_test(test_live_packed_build_behind_a_swapped_link),
                                      cmocka_unit_test(test_live_packed_bytes_reloaded)};
    const struct CMUnitTest tests[] = {
        BOTH(test_live_names_follow_pack_rules),
        BOTH(test_live_names_path_mode_and_categories_of_the_root),
        BOTH(test_live_refuses_what_pack_refuses),
        BOTH(test_live_refuses_names_one_under_normalisation),
        BOTH(test_live_ids_are_the_catalogs_or_identitys),
        BOTH(test_live_source_desc_from_the_catalog_header),
        BOTH(test_live_edit_reloads_in_place),
        BOTH(test_live_bad_edit_keeps_the_old_object),
        BOTH(test_live_delete_keeps_held_and_fails_new_loads),
        BOTH(test_live_added_file_resolves_at_first_load),
        BOTH(test_live_rename_moves_the_name),
        BOTH(test_live_tree_pack_refuses_keeps_the_names),
        BOTH(test_live_additions_before_reloads),
        BOTH(test_live_dir_lists_its_names),
        BOTH(test_live_links_out_of_the_root_are_never_read),
        BOTH(test_live_category_swapped_for_a_link),
        BOTH(test_live_links_inside_the_root_are_followed),
        BOTH(test_live_link_out_of_the_root_warned_once),
        BOTH(test_live_root_deleted_and_made_again),
    };
    int failed = cmocka_run_group_tests_name("content_live", tests, NULL, NULL);
    g_gen = argc > 1 ? argv[1] : NULL;
    if (g_gen) failed += cmocka_run_group_tests_name("content_live_flat", flat, NULL, NULL);
    return failed;
}
