/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/platform_local.h -- the Local platform module: an account, saves and achievements
   on this machine (the seed's Sentinel, Local distribution).

   WHAT
   ----
   A platform module (platform.h) for the Local distribution, over a save.h store: glue between
   two services, as glue.h is, so it includes both (platform.h stays a service that includes only
   the core). Register it on a platform before the platform deploys.

   INCLUDE
   -------
       #include <threadlink/platform_local.h>
       #define TL_PLATFORM_LOCAL_IMPL          // in exactly one C or C++ file (or TL_IMPLEMENTATION)
       #include <threadlink/platform_local.h>
   platform.h and save.h are implemented by their own switches.

   USE
   ---
       tl_platform_local_desc local = {0};
       local.root = "saves";
       tl_platform_register_local(platform, 0, &local);  // 0: the build's platform
       ... tl_platform_account_service(me, TL_PLATFORM_SERVICE_SAVES, (void **)&saves) ...

   RULES
   -----
   One implicit account (id "local"), signed in (no refresh: the list is always current;
   tl_platform_simulate_server_loss suspends it); its services: TL_PLATFORM_SERVICE_SAVES, a
   save.h store on desc.root, and TL_PLATFORM_SERVICE_ACHIEVEMENTS, kept in that store as one
   save (desc.achievements_save) whose every change is one committed transaction: a crash or a
   failed commit leaves the previous table, in the store and in memory. Capabilities: accounts,
   local saves, save transactions, achievements. Init fails (INITIALIZATION_FAILED) when the
   store cannot be opened. An achievements save this build cannot use (no intact generation,
   edited into something else, or written by a newer build) turns achievements off, not the
   saves: the account has no ACHIEVEMENTS service, the save is never written over, and the
   log says which line is wrong (TL_PLATFORM_LOCAL_LOG_ACHIEVEMENTS_OFF).
   One process at a time on a root, as for save.h: a second copy of the game on the same
   folder (a launcher clicked twice) keeps its own table in memory, and each change either
   commits writes over the other's (an achievement one of them unlocked is lost).

   ERRORS
   ------
   platform.h's: tl_platform_register_local and the achievements return tl_platform_result; a
   store's failure is STORAGE, its message and errno reported to the platform
   (tl_platform_last_message, tl_platform_last_native_error) and logged. docs/errors.md.
*/
#if defined(TL_IMPLEMENTATION) && !defined(TL_PLATFORM_LOCAL_IMPL)
#define TL_PLATFORM_LOCAL_IMPL
#endif
#ifndef TL_PLATFORM_LOCAL_H
#define TL_PLATFORM_LOCAL_H

#include "platform.h"
#include "save.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TL_PLATFORM_LOCAL_LOG_ITEMS(X) \
    X(INVALID_ARGUMENT, TL_LOG_LEVEL_ERROR, "%s: invalid argument") \
    X(STORAGE, TL_LOG_LEVEL_ERROR, "Local: achievements in save '%s': %s") \
    X(OUT_OF_MEMORY, TL_LOG_LEVEL_ERROR, "out of memory (%s)") \
    X(ACHIEVEMENTS_OFF, TL_LOG_LEVEL_ERROR, \
      "Local: achievements in save '%s' are off: %s (the save is kept as it is; saves are " \
      "unaffected)")

#define TL_PLATFORM_LOCAL_LOG_BASE 0x680u
typedef enum tl_platform_local_log_item {
    TL_PLATFORM_LOCAL_LOG_NONE_ = TL_PLATFORM_LOCAL_LOG_BASE - 1,
#define TL__PLATFORM_LOCAL_LOG_ENUM(id, level, message) TL_PLATFORM_LOCAL_LOG_##id,
    TL_PLATFORM_LOCAL_LOG_ITEMS(TL__PLATFORM_LOCAL_LOG_ENUM)
#undef TL__PLATFORM_LOCAL_LOG_ENUM
        TL_PLATFORM_LOCAL_LOG_END_
} tl_platform_local_log_item;

/* Zero-initialised: the POSIX backend (on Windows give io, as for save.h), account name "Player",
   achievements save "threadlink.achievements" (a save id of the store, listed by tl_save_list).
   root is required. */
typedef struct tl_platform_local_desc {
    const char *root;
    tl_save_io io;
    const char *account_name;
    const char *achievements_save;
} tl_platform_local_desc;

/* Registers the Local module for (platform_marker, Local); 0: the platform's (desc.platform, else
   the build's). Strings copied. INVALID_ARGUMENT without a root, or register_module's result. */
TL_API tl_platform_result tl_platform_register_local(tl_platform *platform,
                                                     uint32_t platform_marker,
                                                     const tl_platform_local_desc *desc);

#ifdef __cplusplus
}
#endif
#endif /* TL_PLATFORM_LOCAL_H */

/* ------------------------------------------------------------------------------------------------ */
#if defined(TL_PLATFORM_LOCAL_IMPL) && !defined(TL__PLATFORM_LOCAL_IMPLEMENTED)
#define TL__PLATFORM_LOCAL_IMPLEMENTED
/* Again: a file that included this header before defining TL_IMPLEMENTATION reaches the
   implementations of the two services it runs on here; and platform.h's string and array
   helpers (tl__platform_copy, tl__platform_grow) in any case. */
#define TL__PLATFORM_HELPERS
#include "platform.h"
#include "save.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef TL_MALLOC
#define TL_MALLOC(size) malloc(size)
#define TL_FREE(ptr) free(ptr)
#endif

#ifdef __cplusplus
extern "C" {
#endif

TL_LOG_TABLE_FN(tl__local_log, TL_PLATFORM_LOCAL_LOG_ITEMS, TL_PLATFORM_LOCAL_LOG_BASE, "Platform")

#define TL__LOCAL_NAME_MAX 63

/* --- the Local module ----------------------------------------------------------------------------
   The achievements table is one file ("table") of one save, rewritten whole by each change:
       tlach 1
       <id> <current> <target> <0|1>      one line per achievement, in the order first touched
   with current <= target, and current < target while locked (0/0 is an unlock with no
   progress), each id once; lines may end in "\r\n" and the last one may lack its end (a player
   may edit the file: save.h checks its size and hash on every read, a checksum, not a secret).
   This parser refuses anything else, naming the line, in time linear in its lines but for the
   sort that finds a repeated id. */

#define TL__LOCAL_FILE "table"
#define TL__LOCAL_HEADER "tlach 1\n"
/* The longest line: an id, three numbers of at most 10 digits, spaces and the newline. */
#define TL__LOCAL_LINE_MAX (TL_SAVE_ID_MAX + 3 * 11 + 2)

typedef struct tl__local {
    tl_save_io io;
    char account_name[TL__LOCAL_NAME_MAX + 1];
    char save_id[TL_SAVE_ID_MAX + 1];
    tl_logger logger;
    tl_platform *platform; /* the one initialising us: failures' detail goes there */
    tl_save_store *store;
    tl_platform_achievement *entries;
    uint32_t count, cap;
    tl_platform_achievements service;
    char refusal[160]; /* why the table cannot be used, or "" */
    char root[1];      /* allocated to the root's length */
} tl__local;

/* A failure of the store (message: save.h's, or what is wrong with the table). */
static tl_platform_result tl__local_storage(tl__local *local, const char *message, int native) {
    tl_platform_result r =
        tl_platform_report(local->platform, TL_PLATFORM_STORAGE, native, message);
    tl__local_log(&local->logger, TL_PLATFORM_LOCAL_LOG_STORAGE, local->save_id, message);
    return r;
}

static tl_platform_result tl__local_store_failed(tl__local *local, tl_save_result s) {
    return tl__local_storage(local, tl_save_result_message(s),
                             tl_save_last_native_error(local->store));
}

static tl_platform_achievement *tl__local_find(tl__local *local, const char *id) {
    uint32_t i;
    for (i = 0; i < local->count; i++)
        if (strcmp(local->entries[i].id, id) == 0) return &local->entries[i];
    return NULL;
}

/* Reads an unsigned decimal of at most 10 digits that fits 32 bits; advances *p past it. */
static bool tl__local_number(const char **p, const char *limit, uint32_t *out) {
    uint64_t v = 0;
    int digits = 0;
    while (*p < limit && **p >= '0' && **p <= '9' && digits < 11) {
        v = v * 10u + (uint64_t)(**p - '0');
        (*p)++;
        digits++;
    }
    *out = (uint32_t)v;
    return digits && digits <= 10 && v <= UINT32_MAX;
}

static bool tl__local_space(const char **p, const char *limit) {
    if (*p >= limit || **p != ' ') return false;
    (*p)++;
    return true;
}

/* A line's end: "\n", "\r\n" (a player's editor may write it) or the end of the text. */
static bool tl__local_line_end(const char **p, const char *limit) {
    if (*p < limit && **p == '\r') (*p)++;
    if (*p < limit && **p != '\n') return false;
    if (*p < limit) (*p)++;
    return true;
}

/* One line into the table; NULL, or what is wrong with it. */
static const char *tl__local_parse_line(tl__local *local, const char **p, const char *limit) {
    tl_platform_achievement e;
    const char *space = *p;
    uint32_t unlocked;
    while (space < limit && *space != ' ' && *space != '\n') space++;
    if (space == *p || (size_t)(space - *p) > TL_SAVE_ID_MAX) return "no achievement id";
    memset(&e, 0, sizeof e);
    memcpy(e.id, *p, (size_t)(space - *p));
    *p = space;
    if (!tl_save_id_valid(e.id))
        return "the id is not a save.h id (lower-case letters, digits, '.', '-', '_')";
    if (!tl__local_space(p, limit) || !tl__local_number(p, limit, &e.current) ||
        !tl__local_space(p, limit) || !tl__local_number(p, limit, &e.target) ||
        !tl__local_space(p, limit) || !tl__local_number(p, limit, &unlocked) ||
        !tl__local_line_end(p, limit))
        return "expected \"<id> <current> <target> <0|1>\", numbers of 32 bits, one space apart";
    if (unlocked > 1) return "the last number is not 0 (locked) or 1 (unlocked)";
    if (e.current > e.target) return "progress past its target";
    if (unlocked == 0 && e.current == e.target) return "locked with its target reached";
    e.unlocked = unlocked == 1;
    if (!tl__platform_grow((void **)&local->entries, &local->cap, sizeof *local->entries,
                           local->count + 1u))
        return "out of memory";
    local->entries[local->count++] = e;
    return NULL;
}

static int tl__local_by_id(const void *a, const void *b) {
    return strcmp((*(const tl_platform_achievement *const *)a)->id,
                  (*(const tl_platform_achievement *const *)b)->id);
}

/* The line of the later of two entries with one id, or 0: sorted, neighbours compared (a table a
   player made large must not cost a comparison per pair of lines). */
static uint32_t tl__local_repeated_id(const tl__local *local, bool *out_of_memory) {
    const tl_platform_achievement **sorted;
    uint32_t i, line = 0;
    *out_of_memory = false;
    if (local->count < 2) return 0;
    sorted = (const tl_platform_achievement **)TL_MALLOC(local->count * sizeof *sorted);
    if (!sorted) {
        *out_of_memory = true;
        return 0;
    }
    for (i = 0; i < local->count; i++) sorted[i] = &local->entries[i];
    qsort(sorted, local->count, sizeof *sorted, tl__local_by_id);
    for (i = 1; i < local->count && !line; i++)
        if (strcmp(sorted[i - 1]->id, sorted[i]->id) == 0) {
            const tl_platform_achievement *later =
                sorted[i] > sorted[i - 1] ? sorted[i] : sorted[i - 1];
            line = (uint32_t)(later - local->entries) + 2u; /* line 1 is the header */
        }
    TL_FREE(sorted);
    return line;
}

/* Whether the text is a table this build reads; if not, local->refusal says where and why. */
static bool tl__local_parse(tl__local *local, const char *text, size_t size) {
    const char *p = text, *limit = text + size, *fault = NULL;
    size_t header = sizeof TL__LOCAL_HEADER - 2u; /* "tlach 1", its line end read apart */
    uint32_t line = 1, version = 0;
    bool out_of_memory;
    if (size >= header && memcmp(text, TL__LOCAL_HEADER, header) == 0) p += header;
    if (p == text || !tl__local_line_end(&p, limit)) {
        const char *v = text + 6;
        if (size > 6 && memcmp(text, "tlach ", 6) == 0 && tl__local_number(&v, limit, &version) &&
            version > 1)
            snprintf(local->refusal, sizeof local->refusal,
                     "written by a newer build (\"tlach %lu\"; this build reads \"tlach 1\")",
                     (unsigned long)version);
        else snprintf(local->refusal, sizeof local->refusal, "line 1: not \"tlach 1\"");
        return false;
    }
    while (p < limit && !fault) {
        line++;
        fault = tl__local_parse_line(local, &p, limit);
    }
    if (!fault && (line = tl__local_repeated_id(local, &out_of_memory)) != 0)
        fault = "an id of an earlier line again";
    if (!fault && out_of_memory) fault = "out of memory"; /* line 0: not the table's fault */
    if (fault && line)
        snprintf(local->refusal, sizeof local->refusal, "line %lu: %s", (unsigned long)line, fault);
    else if (fault) snprintf(local->refusal, sizeof local->refusal, "%s", fault);
    return !fault;
}

/* Reads the table, or says in local->refusal why it cannot be used (save.h cannot read it, or
   this build cannot parse it: edited, or written by a newer build). */
static void tl__local_load(tl__local *local) {
    void *data = NULL;
    size_t size = 0;
    tl_save_result s =
        tl_save_read_alloc(local->store, local->save_id, TL__LOCAL_FILE, &data, &size);
    local->refusal[0] = 0;
    if (s == TL_SAVE_NOT_FOUND) return;
    if (s != TL_SAVE_OK) {
        snprintf(local->refusal, sizeof local->refusal, "%s", tl_save_result_message(s));
        return;
    }
    if (!tl__local_parse(local, (const char *)data, size)) local->count = 0;
    tl_save_free(data);
}

/* Writes the whole table as one transaction of the store: all of it is published, or none. */
static tl_platform_result tl__local_commit(tl__local *local) {
    size_t cap = sizeof TL__LOCAL_HEADER + (size_t)local->count * TL__LOCAL_LINE_MAX, used;
    char *text = (char *)TL_MALLOC(cap);
    tl_save_txn txn;
    tl_save_result s;
    uint32_t i;
    if (!text) return TL_PLATFORM_OUT_OF_MEMORY;
    used = (size_t)snprintf(text, cap, "%s", TL__LOCAL_HEADER);
    for (i = 0; i < local->count; i++) {
        const tl_platform_achievement *e = &local->entries[i];
        used += (size_t)snprintf(text + used, cap - used, "%s %lu %lu %d\n", e->id,
                                 (unsigned long)e->current, (unsigned long)e->target,
                                 e->unlocked ? 1 : 0);
    }
    s = tl_save_begin(local->store, local->save_id, &txn);
    if (s == TL_SAVE_OK) s = tl_save_txn_write(&txn, TL__LOCAL_FILE, text, used);
    if (s == TL_SAVE_OK) s = tl_save_txn_commit(&txn);
    (void)tl_save_txn_discard(&txn);
    TL_FREE(text);
    return s == TL_SAVE_OK ? TL_PLATFORM_OK : tl__local_store_failed(local, s);
}

/* One change, committed; on failure the table in memory is as it was. */
static tl_platform_result tl__local_change(tl__local *local, const char *id, bool unlock,
                                           uint32_t current, uint32_t target) {
    tl_platform_achievement *e, before;
    tl_platform_result r;
    bool added = false;
    if (!id || !tl_save_id_valid(id) || (!unlock && target == 0)) {
        tl__local_log(&local->logger, TL_PLATFORM_LOCAL_LOG_INVALID_ARGUMENT,
                      unlock ? "achievement unlock (the id: a save.h id)"
                             : "achievement progress (the id: a save.h id; a target above 0)");
        return TL_PLATFORM_INVALID_ARGUMENT;
    }
    if (!local->store) return TL_PLATFORM_NOT_READY; /* only before init: no logger yet */
    if (!(e = tl__local_find(local, id))) {
        if (!tl__platform_grow((void **)&local->entries, &local->cap, sizeof *local->entries,
                               local->count + 1u)) {
            tl__local_log(&local->logger, TL_PLATFORM_LOCAL_LOG_OUT_OF_MEMORY, "achievements");
            return TL_PLATFORM_OUT_OF_MEMORY;
        }
        e = &local->entries[local->count++];
        memset(e, 0, sizeof *e);
        tl__platform_copy(e->id, sizeof e->id, id);
        added = true;
    }
    before = *e;
    if (!unlock) {
        e->current = current < target ? current : target;
        e->target = target;
    }
    if (unlock || current >= target) e->unlocked = true;
    if (!added && before.current == e->current && before.target == e->target &&
        before.unlocked == e->unlocked)
        return TL_PLATFORM_OK; /* nothing changed: nothing to commit */
    if ((r = tl__local_commit(local)) != TL_PLATFORM_OK) {
        if (added) local->count--;
        else *e = before;
    }
    return r;
}

static tl_platform_result tl__local_unlock(void *self, const char *id) {
    return tl__local_change((tl__local *)self, id, true, 0, 0);
}
static tl_platform_result tl__local_progress(void *self, const char *id, uint32_t current,
                                             uint32_t target) {
    return tl__local_change((tl__local *)self, id, false, current, target);
}
static tl_platform_result tl__local_get(void *self, const char *id, tl_platform_achievement *out) {
    tl__local *local = (tl__local *)self;
    const tl_platform_achievement *e = id ? tl__local_find(local, id) : NULL;
    if (!local->store) return TL_PLATFORM_NOT_READY;
    if (!e) return TL_PLATFORM_NOT_FOUND;
    *out = *e;
    return TL_PLATFORM_OK;
}

static tl_platform_result tl__local_init(void *ctx, tl_platform *p) {
    tl__local *local = (tl__local *)ctx;
    tl_save_store_desc desc;
    tl_save_open_detail why;
    tl_platform_account *account;
    tl_platform_result r;
    const tl_logger *logger = tl_platform_logger(p); /* p is the platform initialising us */
    local->platform = p;
    memset(&desc, 0, sizeof desc);
    if (logger) local->logger = *logger;
    desc.root = local->root;
    desc.io = local->io;
    desc.logger = local->logger;
    if (!(local->store = tl_save_store_open(&desc, &why))) {
        return tl_platform_report(p, TL_PLATFORM_INITIALIZATION_FAILED, why.native_error,
                                  "Local: the save store cannot be opened (logged above)");
    }
    tl__local_load(local);
    account = tl_platform_add_account(p, "local", local->account_name);
    if (!account) return TL_PLATFORM_OUT_OF_MEMORY; /* logged */
    r = tl_platform_account_add_service(account, TL_PLATFORM_SERVICE_SAVES, local->store);
    /* A table this build cannot use turns achievements off, not the saves: the account offers
       no achievements service, and the table is never written over (a newer build's stays). */
    if (r == TL_PLATFORM_OK && local->refusal[0])
        tl__local_log(&local->logger, TL_PLATFORM_LOCAL_LOG_ACHIEVEMENTS_OFF, local->save_id,
                      local->refusal);
    else if (r == TL_PLATFORM_OK)
        r = tl_platform_account_add_service(account, TL_PLATFORM_SERVICE_ACHIEVEMENTS,
                                            &local->service);
    return r;
}

static void tl__local_shutdown(void *ctx, tl_platform *p) {
    tl__local *local = (tl__local *)ctx;
    (void)p;
    tl_save_store_close(local->store);
    local->store = NULL;
    TL_FREE(local->entries);
    local->entries = NULL;
    local->count = local->cap = 0;
}

static void tl__local_release(void *ctx) { TL_FREE(ctx); }

tl_platform_result tl_platform_register_local(tl_platform *p, uint32_t platform_marker,
                                              const tl_platform_local_desc *desc) {
    tl_platform_module module;
    tl_platform_result r;
    tl__local *local;
    size_t root_len;
    const char *save_id =
        desc && desc->achievements_save ? desc->achievements_save : "threadlink.achievements";
    if (!p || !desc || !desc->root || !*desc->root || !tl_save_id_valid(save_id)) {
        tl__local_log(
            tl_platform_logger(p), TL_PLATFORM_LOCAL_LOG_INVALID_ARGUMENT,
            "tl_platform_register_local (root is required; achievements_save must be a save id)");
        return tl_platform_report(p, TL_PLATFORM_INVALID_ARGUMENT, 0, NULL);
    }
    root_len = strlen(desc->root);
    if (!(local = (tl__local *)TL_MALLOC(sizeof *local + root_len))) {
        tl__local_log(tl_platform_logger(p), TL_PLATFORM_LOCAL_LOG_OUT_OF_MEMORY, "Local module");
        return tl_platform_report(p, TL_PLATFORM_OUT_OF_MEMORY, 0, NULL);
    }
    memset(local, 0, sizeof *local);
    memcpy(local->root, desc->root, root_len + 1u);
    local->io = desc->io;
    tl__platform_copy(local->account_name, sizeof local->account_name,
                      desc->account_name ? desc->account_name : "Player");
    tl__platform_copy(local->save_id, sizeof local->save_id, save_id);
    local->service.self = local;
    local->service.unlock = tl__local_unlock;
    local->service.progress = tl__local_progress;
    local->service.get = tl__local_get;
    memset(&module, 0, sizeof module);
    module.name = "Local";
    module.platform = platform_marker ? platform_marker : tl_platform_build_marker(p);
    module.distribution = TL_PLATFORM_DISTRIBUTION_LOCAL;
    module.capabilities = TL_PLATFORM_CAP_ACCOUNTS | TL_PLATFORM_CAP_LOCAL_SAVES |
                          TL_PLATFORM_CAP_SAVE_TRANSACTIONS | TL_PLATFORM_CAP_ACHIEVEMENTS;
    module.ctx = local;
    module.init = tl__local_init;
    module.shutdown = tl__local_shutdown;
    module.release = tl__local_release;
    r = tl_platform_register_module(p, &module); /* logged when it fails */
    if (r != TL_PLATFORM_OK) TL_FREE(local);
    return r;
}

#ifdef __cplusplus
}
#endif
#endif /* TL_PLATFORM_LOCAL_IMPL */
