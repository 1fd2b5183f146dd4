/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/log.h -- one logging path for the whole runtime (the seed's Scribe).

   WHAT
   ----
   tl_log() formats a printf-style message into a fixed buffer on its own stack (no allocation, the
   caller provides no buffer), prefixes it with a module or type name and a level, and hands the
   finished line to a sink. The default sink writes the line to stderr. Every runtime module
   (events.h, lifecycle.h, ...) reports through a tl_logger given in its description struct, so a game
   routes all runtime diagnostics to one place by passing one logger around.

   INCLUDE
   -------
       #include <threadlink/log.h>   (no implementation switch: everything is static inline)

   USE
   ---
       tl_log(NULL, TL_LOG_LEVEL_INFO, "Inventory", "loaded %d items", n);
         // stderr: "Inventory: info: loaded 3 items"

       static void my_sink(void *user, const tl_log_record *rec) { ...rec->line / rec->message... }
       tl_logger logger = {0};                 // zero = stderr sink, every level
       logger.sink = my_sink;
       logger.user = &my_console;
       logger.min_level = TL_LOG_LEVEL_WARNING; // run-time filter
       TL_LOG_WARNING(&logger, "Inventory", "slot %u is empty", slot);

   A NULL logger means the default one (stderr, every level). The line handed to the sink is
   "<module>: <level>: <message>" without a trailing newline; the record also carries the level, the
   module and the message alone, and for runtime diagnostics the id of the diagnostic (`item`, a
   row of the module's X-macro table, e.g. TL_EVENTS_LOG_SIGNATURE_MISMATCH; 0 for tl_log calls).
   A message longer than the buffer is cut after its last whole UTF-8 character and ends in "...".

   CONFIGURATION (define before including)
   ---------------------------------------
   TL_LOG_MIN_LEVEL   compile-time filter: TL_LOG_INFO/WARNING/ERROR macros below this level expand
                      to ((void)0) and their arguments are not evaluated; runtime modules compiled
                      with it drop their diagnostics of lower levels too. Default TL_LOG_LEVEL_INFO
                      (0); TL_LOG_LEVEL_NONE (3) silences everything.
   TL_LOG_LINE_MAX    size of the line buffer in bytes, prefix included. Default 512.

   Main thread only, like the rest of the runtime: the sink is called on the logging thread.
*/
#ifndef TL_LOG_H
#define TL_LOG_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TL_LOG_LEVEL_INFO 0
#define TL_LOG_LEVEL_WARNING 1
#define TL_LOG_LEVEL_ERROR 2
#define TL_LOG_LEVEL_NONE 3

#ifndef TL_LOG_MIN_LEVEL
#define TL_LOG_MIN_LEVEL TL_LOG_LEVEL_INFO
#endif
#ifndef TL_LOG_LINE_MAX
#define TL_LOG_LINE_MAX 512
#endif
#if TL_LOG_LINE_MAX < 64
#error "TL_LOG_LINE_MAX must be at least 64"
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TL__PRINTF_FORMAT(fmt_index, first_arg) \
    __attribute__((format(printf, fmt_index, first_arg)))
#else
#define TL__PRINTF_FORMAT(fmt_index, first_arg)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* One finished line, valid only during the sink call. */
typedef struct tl_log_record {
    int level; /* TL_LOG_LEVEL_INFO, _WARNING or _ERROR (macros, so that #if can use them) */
    const char *module;  /* the prefix: a module or type name, never NULL ("?" if none given) */
    uint32_t item;       /* id of the runtime diagnostic, 0 for plain tl_log calls */
    const char *message; /* the formatted message alone (points into line) */
    const char *line;    /* "<module>: <level>: <message>", no newline */
} tl_log_record;

typedef void (*tl_log_sink_fn)(void *user, const tl_log_record *record);

/* Zero-initialised: stderr sink, every level. */
typedef struct tl_logger {
    tl_log_sink_fn sink; /* NULL: tl_log_sink_stderr */
    void *user;          /* passed to the sink */
    int min_level;       /* run-time filter: records below it are dropped; 0 = every level */
} tl_logger;

/* "info", "warning", "error". */
static inline const char *tl_log_level_name(int level) {
    switch (level) {
    case TL_LOG_LEVEL_INFO: return "info";
    case TL_LOG_LEVEL_WARNING: return "warning";
    case TL_LOG_LEVEL_ERROR: return "error";
    default: return "log";
    }
}

/* The default sink: the line and a newline to stderr. */
static inline void tl_log_sink_stderr(void *user, const tl_log_record *record) {
    (void)user;
    fputs(record->line, stderr);
    fputc('\n', stderr);
}

/* Writes `mark` (with its NUL) over line[at..], moved back to the start of the UTF-8 character
   that byte at belongs to, no further than `floor` (a cut line ends in whole characters); the
   line's new length. */
static inline int tl__log_mark_cut(char *line, size_t at, size_t floor, const char *mark) {
    while (at > floor && ((unsigned char)line[at] & 0xC0) == 0x80) at--;
    memcpy(line + at, mark, strlen(mark) + 1);
    return (int)(at + strlen(mark));
}

/* Formats and emits one line. A NULL logger or a NULL module is allowed. */
TL__PRINTF_FORMAT(5, 0)
static inline void tl_logv(const tl_logger *logger, int level, const char *module, uint32_t item,
                           const char *fmt, va_list args) {
    char line[TL_LOG_LINE_MAX];
    tl_log_record record;
    tl_log_sink_fn sink = logger && logger->sink ? logger->sink : tl_log_sink_stderr;
    int prefix, written;
    size_t room;

    if (level < TL_LOG_MIN_LEVEL || (logger && level < logger->min_level)) return;
    if (!module) module = "?";
    prefix = snprintf(line, sizeof line, "%s: %s: ", module, tl_log_level_name(level));
    /* A module name that eats the whole buffer still leaves room for a short message. */
    if (prefix < 0 || (size_t)prefix > sizeof line / 2) {
        prefix = tl__log_mark_cut(line, sizeof line / 2 - 5, 0, "...: ");
    }
    line[prefix] = '\0';
    room = sizeof line - (size_t)prefix;
    written = fmt ? vsnprintf(line + prefix, room, fmt, args) : 0;
    if (written < 0) {
        line[prefix] = '\0';
    } else if ((size_t)written >= room) {
        tl__log_mark_cut(line, sizeof line - 4, (size_t)prefix, "..."); /* cut: mark it */
    }
    record.level = level;
    record.module = module;
    record.item = item;
    record.message = line + prefix;
    record.line = line;
    sink(logger ? logger->user : NULL, &record);
}

TL__PRINTF_FORMAT(4, 5)
static inline void tl_log(const tl_logger *logger, int level, const char *module, const char *fmt,
                          ...) {
    va_list args;
    va_start(args, fmt);
    tl_logv(logger, level, module, 0, fmt, args);
    va_end(args);
}

/* tl_logv for a format taken from a module's message table (its rows are the literals that the
   compiler cannot see through the lookup): the runtime modules log through it. */
static inline void tl_logv_table(const tl_logger *logger, int level, const char *module,
                                 uint32_t item, const char *fmt, va_list args) {
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#endif
    tl_logv(logger, level, module, item, fmt, args);
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
}

/* As tl_log, with a diagnostic id in the record. */
TL__PRINTF_FORMAT(5, 6)
static inline void tl_log_item(const tl_logger *logger, int level, const char *module,
                               uint32_t item, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    tl_logv(logger, level, module, item, fmt, args);
    va_end(args);
}

/* A module's diagnostics: one X-macro table of rows X(ID, level, message format), numbered from
   the module's base (its enum: TL_<MODULE>_LOG_<ID>), and one function made by this macro that
   looks a row up and logs it. Every runtime service defines its log function so:

       TL_LOG_TABLE_FN(tl__save_log, TL_SAVE_LOG_ITEMS, TL_SAVE_LOG_BASE, "Save")
       ...
       tl__save_log(&store->logger, TL_SAVE_LOG_SLOT_DAMAGED, save_id, path);

   The format comes from the table, so the compiler cannot check it at the call; each row's
   arguments are checked by the tests that trigger it. Rows below TL_LOG_MIN_LEVEL cost a
   comparison. */
typedef struct tl_log_row {
    int level;
    const char *format;
} tl_log_row;
#define TL__LOG_ROW(id, level, format) { level, format },
#define TL_LOG_TABLE_FN(fn, items, base, module) \
    static inline void fn(const tl_logger *logger, uint32_t item, ...) { \
        static const tl_log_row rows[] = { items(TL__LOG_ROW) }; \
        uint32_t row = item - (uint32_t)(base); \
        va_list args; \
        if (row >= sizeof rows / sizeof rows[0] || rows[row].level < TL_LOG_MIN_LEVEL) return; \
        va_start(args, item); \
        tl_logv_table(logger, rows[row].level, module, item, rows[row].format, args); \
        va_end(args); \
    }

/* A module's results (docs/errors.md): one X-macro table of rows X(ID, "message"), an enum
   tl_<module>_result with TL_<MODULE>_OK = 0 then TL_<MODULE>_<ID> in the table's order, and a
   message lookup made by this macro in the module's implementation:

       TL_RESULT_MESSAGE_FN(tl_save_result_message, tl_save_result, TL_SAVE_RESULTS)

   The message of a value outside the table is "unknown result". */
#define TL__RESULT_MESSAGE(id, message) message,
#define TL_RESULT_MESSAGE_FN(fn, type, table) \
    TL_API const char *fn(type result) { \
        static const char *const messages[] = { "ok", table(TL__RESULT_MESSAGE) }; \
        return (size_t)result < sizeof messages / sizeof messages[0] ? messages[result] \
                                                                     : "unknown result"; \
    }

/* Compile-time filtered logging: below TL_LOG_MIN_LEVEL nothing is evaluated. The format string is
   the first of the variadic arguments so that C99 -Wpedantic accepts a message without arguments. */
#if TL_LOG_MIN_LEVEL <= TL_LOG_LEVEL_INFO
#define TL_LOG_INFO(logger, module, ...) tl_log((logger), TL_LOG_LEVEL_INFO, (module), __VA_ARGS__)
#else
#define TL_LOG_INFO(logger, module, ...) ((void)0)
#endif
#if TL_LOG_MIN_LEVEL <= TL_LOG_LEVEL_WARNING
#define TL_LOG_WARNING(logger, module, ...) \
    tl_log((logger), TL_LOG_LEVEL_WARNING, (module), __VA_ARGS__)
#else
#define TL_LOG_WARNING(logger, module, ...) ((void)0)
#endif
#if TL_LOG_MIN_LEVEL <= TL_LOG_LEVEL_ERROR
#define TL_LOG_ERROR(logger, module, ...) \
    tl_log((logger), TL_LOG_LEVEL_ERROR, (module), __VA_ARGS__)
#else
#define TL_LOG_ERROR(logger, module, ...) ((void)0)
#endif

#ifdef __cplusplus
}
#endif
#endif /* TL_LOG_H */
