#include "base/diag.h"

#include <threadlink/text.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned errors, warnings;
static diag_sink sink;
static diag_style style = DIAG_GCC;

void diag_set_style(diag_style s) { style = s; }

bool diag_parse_style(const char *name, diag_style *out)
{
    static const char *const names[] = {"gcc", "msvc", "json", "github"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (diag_style)i;
            return true;
        }
    return false;
}

/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0 for a byte that starts none:
 * the length its first byte announces, checked by the content reader's UTF-8 rule. */
static size_t utf8_sequence(const unsigned char *s)
{
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : 2;
    for (size_t i = 1; i < n; i++)
        if (!s[i]) return 0; /* the string ends inside it */
    return n == 1 || tl_text_utf8_ok(s, n) ? n : 0;
}

/* A JSON string; a byte of a file name that is not UTF-8 becomes U+FFFD, so the line stays JSON. */
static void put_json_text(buf *out, const char *s)
{
    buf_putc(out, '"');
    while (*s) {
        unsigned char c = (unsigned char)*s;
        size_t n = utf8_sequence((const unsigned char *)s);
        if (c == '"' || c == '\\') buf_putc(out, '\\'), buf_putc(out, (char)c);
        else if (c < 0x20) buf_printf(out, "\\u%04x", c);
        else if (n == 0) buf_puts(out, "\\ufffd");
        else buf_put(out, s, n);
        s += n ? n : 1;
    }
    buf_putc(out, '"');
}

void diag_put_github_text(buf *out, const char *s, bool property)
{
    for (; *s; s++) {
        if (*s == '%') buf_puts(out, "%25");
        else if (*s == '\n') buf_puts(out, "%0A");
        else if (*s == '\r') buf_puts(out, "%0D");
        else if (property && *s == ':') buf_puts(out, "%3A");
        else if (property && *s == ',') buf_puts(out, "%2C");
        else buf_putc(out, *s);
    }
}

void diag_put_terminal_text(buf *out, const char *s, bool keep_newlines)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 0x20 && c != 0x7f) || c == '\t' || (c == '\n' && keep_newlines)) buf_putc(out, (char)c);
        else if (c == '\n') buf_puts(out, "\\n");
        else if (c == '\r') buf_puts(out, "\\r");
        else buf_printf(out, "\\x%02x", c);
    }
}

/* A file name on a text line: control characters (a newline would split the diagnostic) as '?'. */
static void put_file_text(buf *out, const char *file)
{
    for (; *file; file++) buf_putc(out, (unsigned char)*file < 0x20 ? '?' : *file);
}

diag_sink diag_set_sink(diag_sink next)
{
    diag_sink prev = sink;
    sink = next;
    return prev;
}

unsigned diag_error_count(void) { return errors; }
unsigned diag_warning_count(void) { return warnings; }
void diag_reset_counts(void) { errors = warnings = 0; }
void diag_restore_counts(unsigned error_count, unsigned warning_count) { errors = error_count, warnings = warning_count; }

/* -C DIR: diagnostics name files as seen from where the command ran, so an editor or a CI
 * annotation started there finds them. */
static char *file_prefix;

static char *generate_in_dir; /* the default generate command with -C DIR, made once */

void diag_set_file_prefix(const char *dir)
{
    free(file_prefix);
    file_prefix = dir ? xstrdup(dir) : NULL;
    free(generate_in_dir);
    generate_in_dir = NULL;
}

/* The one spelling of the command to run generate; a build integration's replaces it. */
static const char default_generate_command[] = "threadlink-gen generate";
static char *generate_command;

void diag_set_generate_command(const char *command)
{
    free(generate_command);
    generate_command = command ? xstrdup(command) : NULL;
}

/* The default names the -C DIR the command was given (quoted when it has a blank): the user runs
 * it from where they ran this one. */
const char *diag_generate_command(void)
{
    if (generate_command) return generate_command;
    if (!file_prefix) return default_generate_command;
    if (!generate_in_dir) {
        const char *quote = strpbrk(file_prefix, " \t") ? "\"" : "";
        generate_in_dir = xasprintf("%s -C %s%s%s", default_generate_command, quote, file_prefix, quote);
    }
    return generate_in_dir;
}

static void format_with_file(buf *out, diag_level level, src_loc loc, const char *file, const char *message)
{
    static const char *const names[] = {"note", "warning", "error"};
    if (style == DIAG_MSVC) {
        put_file_text(out, file);
        if (loc.line) buf_printf(out, loc.col ? "(%u,%u)" : "(%u)", loc.line, loc.col);
        buf_printf(out, ": %s: ", names[level]);
        diag_put_terminal_text(out, message, false);
    } else if (style == DIAG_JSON) {
        buf_puts(out, "{\"file\": ");
        put_json_text(out, file);
        buf_printf(out, ", \"line\": %u, \"column\": %u, \"severity\": \"%s\", \"message\": ", loc.line, loc.col, names[level]);
        put_json_text(out, message);
        buf_putc(out, '}');
    } else if (style == DIAG_GITHUB) {
        static const char *const commands[] = {"notice", "warning", "error"};
        buf_printf(out, "::%s", commands[level]);
        if (loc.file) { /* a run's own message (no file) is an annotation of the run, not of a file */
            buf_puts(out, " file=");
            diag_put_github_text(out, file, true);
            if (loc.line) buf_printf(out, ",line=%u", loc.line);
            if (loc.col) buf_printf(out, ",col=%u", loc.col);
        }
        buf_puts(out, "::");
        diag_put_github_text(out, message, false);
    } else {
        put_file_text(out, file);
        if (loc.file && loc.line) {
            buf_printf(out, ":%u", loc.line);
            if (loc.col) buf_printf(out, ":%u", loc.col);
        }
        buf_printf(out, ": %s: ", names[level]);
        diag_put_terminal_text(out, message, false);
    }
}

void diag_format(buf *out, diag_level level, src_loc loc, const char *message)
{
    if (!loc.file) {
        format_with_file(out, level, loc, "threadlink-gen", message);
    } else if (file_prefix) {
        char *shown = path_join(file_prefix, loc.file); /* an absolute name stays as it is */
        format_with_file(out, level, loc, shown, message);
        free(shown);
    } else {
        format_with_file(out, level, loc, loc.file, message);
    }
}

/* Outputs are written by several threads at once (generate.c's emit_all): a report is counted
 * and printed whole under one lock, or held by its thread (diag_hold_begin). */
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local diag_hold *held;
static bool muting;     /* diag_mute_warnings */
static bool muted_last; /* the last warning or error reported was muted: the notes after it go with it */

bool diag_mute_warnings(bool on)
{
    pthread_mutex_lock(&report_lock);
    bool was = muting;
    muting = on, muted_last = false;
    pthread_mutex_unlock(&report_lock);
    return was;
}

/* Under the lock: whether a report is dropped, muted or a note of a muted one. */
static bool muted(diag_level level)
{
    if (level != DIAG_NOTE) muted_last = muting && level == DIAG_WARNING;
    return muted_last && level != DIAG_ERROR;
}

void diag_hold_begin(diag_hold *h) { held = h; }
void diag_hold_end(void) { held = NULL; }

static void report(diag_level level, src_loc loc, const char *message);

void diag_release(diag_hold *h)
{
    for (size_t i = 0; i < h->count; i++) {
        report(h->items[i].level, h->items[i].loc, h->items[i].message);
        free(h->items[i].message);
    }
    vec_free(h);
}

static void vreport(diag_level level, src_loc loc, const char *fmt, va_list ap)
{
    char message[2048];
    vsnprintf(message, sizeof message, fmt, ap);
    if (held) {
        *vec_push(held) = (diag_held){level, loc, xstrdup(message)};
        return;
    }
    report(level, loc, message);
}

static void report(diag_level level, src_loc loc, const char *message)
{
    pthread_mutex_lock(&report_lock);
    if (muted(level)) {
        pthread_mutex_unlock(&report_lock);
        return;
    }
    if (level == DIAG_ERROR) errors++;
    if (level == DIAG_WARNING) warnings++;
    if (sink.emit) {
        sink.emit(sink.ctx, level, loc, message);
    } else {
        buf line = {0};
        diag_format(&line, level, loc, message);
        buf_putc(&line, '\n');
        fputs(line.data, stderr);
        buf_free(&line);
    }
    pthread_mutex_unlock(&report_lock);
}

#define DEFINE_REPORT(fn, level) \
    void fn(src_loc loc, const char *fmt, ...) \
    { \
        va_list ap; \
        va_start(ap, fmt); \
        vreport(level, loc, fmt, ap); \
        va_end(ap); \
    }
DEFINE_REPORT(diag_error, DIAG_ERROR)
DEFINE_REPORT(diag_warning, DIAG_WARNING)
DEFINE_REPORT(diag_note, DIAG_NOTE)
