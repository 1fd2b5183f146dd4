/* LIVE RELOAD (TL_CONTENT_LIVE, development builds): a profile served from its source tree, with
   hot reload of the assets a game holds. The live part reaches content only through the hooks
   table tl__content_live_hooks (see the implementation), which content calls at six points.

   WHAT
   ----
   tl_content_register_source registers a profile straight from its source tree, as it is on
   disk now: no `threadlink-gen pack`, nothing written. Names are resolved with exactly pack's
   rules (content_format.h shares them with the generator): each category's folder walked, names
   starting with '.' skipped, links followed only inside the root, special files skipped, names
   "stem" (extension dropped) or "path", and two files with one name (ASCII case-insensitively,
   or under Unicode normalisation: tl_text_name_key) refused, naming both paths. So a name that
   works in development works in the build. What it skips (a link out of the root, a broken
   link, a special file) is logged with pack's warning the first time a read of the tree meets
   it, at registration or after a change: once per entry, not at every read.

   Files are read beneath the root's descriptor, never by their path: openat2 with
   RESOLVE_BENEATH on Linux where the headers have it (and syscall() is declared), else one
   openat with O_NOFOLLOW per path component. A file or category folder swapped for a link out of
   the root, or for a FIFO or a device, is never read through, whenever the swap happens: the load
   or reload fails saying so, and a held asset keeps its object. A link inside the root is
   followed when it resolves beneath the root, as pack follows it: a relative target component by
   component (".." never above the root), an absolute one when its real path is in the root's.
   Source files are read with POSIX calls, not through tl_content_io.

   While the game runs, tl_content_update notices edits: inotify on Linux (one read() per update
   when nothing changed), elsewhere (or with watch = TL_CONTENT_WATCH_POLL) a stat poll spread
   over frames, `poll_budget` files and folders per update. A held asset whose file changed is
   reloaded in place: the kind's decoder runs on the new bytes (info->reload tells it so; false at
   a first load), the object is swapped, the kind's
   `reload` callback gets (old object, new object), then the old object is destroyed. Every
   tl_asset, raw handle and scope reference stays valid (same slot, same generation). A reload
   whose read or decoder fails keeps the old object and logs why. A deleted file leaves held
   assets as they are, and new loads of it fail saying it was deleted; an added file resolves at
   its first load (a name no directory answers is looked for in its folder); a renamed file
   is the old name deleted and the new one added. An update reads additions before it reloads:
   a decoder or reload callback that loads a file added just before (a sprite added, then the
   level that uses it saved) finds it; with the poll, a changed held file makes that update stat
   every folder of the tree, and read it again first when one changed (or changed within two
   seconds of the last read, where a file system's clock may not show an add). A tree that changes into one pack refuses (a
   duplicate name, say) is logged (once while the reason stays) and the previous names stay
   served. The root is the folder at its path, whichever it is now: one deleted and made again
   (an exporter that clears its output folder) is read from and watched; while no folder is
   there, held assets stay, loads fail saying the root went away (logged once), and each update
   looks for it with one stat.

   Flat builds too: a flat directory ("archive": "none") registered with tl_content_register_dir
   in a development build has its catalog.tlcat watched (inotify on the folder, one stat after
   an event in it; elsewhere one stat per update); when a `pack` rewrites it, the directory
   serves the new catalog (new names resolve) and the held assets whose bytes changed are
   reloaded in place, checked against their new records. A rebuild that drops a held asset, or
   is another profile, is logged and the previous catalog stays.

   Packed builds too: a packed directory registered in a development build has its archives.json
   watched the same way (an output folder removed and made again is followed, and so is a link
   to a build replaced by a link to another: ln -s; mv -T). pack writes every
   archive first and archives.json last, each renamed into place; when archives.json changed,
   the directory is mounted again from it and verified whole (every archive's size and XXH64, as
   with verify_xxh64). Verified, the new build is served: new names resolve, held assets whose
   bytes changed are reloaded in place (same slot and generation, the kind's reload callback,
   the old object kept when the decoder fails), held assets the new build drops stay as they are
   while held and new loads of them fail saying so (names it drops without a holder are
   unknown). A build that fails verification or is another profile is logged and the previous
   one stays served; it is looked at again once its folder changes (an archives.json copied
   before its archives is served when they are there). While an asset of the directory is loading, the new build waits for the
   next update.

   Ids: a name the generated catalog carries gets the catalog's id (through `catalog_id`, e.g. a
   wrapper of content_<profile>_find); a name it does not carry yet gets the id identity would
   give it (XXH32 of its key, the next seed on a collision) and loads by name.
   tl_content_source_report (and shutdown) lists what was loaded from source that the catalog
   does not carry yet: the assets that need a `generate` before they ship.

   INCLUDE
   -------
   Define TL_CONTENT_LIVE (for every file that includes content.h, e.g. -DTL_CONTENT_LIVE in a
   development build) to get this; content.h then includes this header. Without it (shipped
   builds) none of this code exists and content.h behaves exactly as documented there: packed or
   flat directories, verified, no file watching. The implementation needs POSIX with the XSI
   declarations (Linux, macOS, the BSDs): compile it with -std=gnu11, or define _XOPEN_SOURCE
   700 before the first include.
*/

#if defined(TL_CONTENT_LIVE)

#ifdef __cplusplus
extern "C" {
#endif

/* One category as threadlink.json declares it: its name and its folder under the source root
   ("" for the whole root). */
typedef struct tl_content_source_category {
    const char *name;
    const char *folder;
} tl_content_source_category;

typedef enum tl_content_watch {
    TL_CONTENT_WATCH_AUTO = 0, /* inotify where available (Linux), else the poll */
    TL_CONTENT_WATCH_POLL = 1  /* the budgeted stat poll (also on Linux: for tests) */
} tl_content_watch;

/* The profile's keys from threadlink.json (the generated catalog header's
   content_<profile>_source_desc() fills them as threadlink.json declares the profile: categories,
   names_path, flat and catalog_id); zero means the defaults:
     names        "stem" (false); true: "names": "path"
     flat         false; true for "archive": "none": paths Windows cannot hold are refused, as
                  pack refuses them in a flat build
     catalog_id   NULL: no name is taken to be in the catalog (ids from the names, as identity
                  issues them, and every loaded name is reported)
     watch        TL_CONTENT_WATCH_AUTO
     poll_budget  256 stat calls per tl_content_update at most
     poll_budget_us  250: and at most this many microseconds of them (a stat costs from under
                  a microsecond to tens of them, depending on the system) */
typedef struct tl_content_source_desc {
    const tl_content_source_category *categories; /* required, at least one */
    uint32_t category_count;
    bool names_path;
    bool flat;
    uint32_t (*catalog_id)(void *user, const char *name); /* the catalog's id, 0: none */
    void *catalog_user;
    tl_content_watch watch;
    uint32_t poll_budget;
    uint32_t poll_budget_us;
} tl_content_source_desc;

/* Registers `profile` served from `source_root`. Refused (logged, an invalid directory, nothing
   registered, the reason in tl_content_last_result) when the profile is registered already, the root or a category folder is missing,
   categories overlap, or the tree holds what pack refuses. */
TL_API tl_content_dir tl_content_register_source(tl_content *ctx, const char *profile,
                                                 const char *source_root,
                                                 const tl_content_source_desc *desc);
/* Logs each asset loaded from a source tree that the catalog does not carry (and a total);
   returns their number. Shutdown runs it too. */
TL_API uint32_t tl_content_source_report(tl_content *ctx);
/* Reloads done so far (objects swapped), for tests and tools. */
TL_API uint64_t tl_content_source_reloads(tl_content *ctx);

#ifdef __cplusplus
}
#endif
#endif /* TL_CONTENT_LIVE */
