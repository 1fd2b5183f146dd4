#include "diag.h"

#include <stdio.h>

static unsigned errors, warnings;
static diag_sink sink;

diag_sink diag_set_sink(diag_sink next)
{
    diag_sink prev = sink;
    sink = next;
    return prev;
}

unsigned diag_error_count(void) { return errors; }
unsigned diag_warning_count(void) { return warnings; }
void diag_reset_counts(void) { errors = warnings = 0; }

void diag_format(buf *out, diag_level level, src_loc loc, const char *message)
{
    static const char *const names[] = {"note", "warning", "error"};
    if (loc.file) {
        buf_puts(out, loc.file);
        if (loc.line) {
            buf_printf(out, ":%u", loc.line);
            if (loc.col) buf_printf(out, ":%u", loc.col);
        }
    } else {
        buf_puts(out, "threadlink-gen");
    }
    buf_printf(out, ": %s: %s", names[level], message);
}

static void vreport(diag_level level, src_loc loc, const char *fmt, va_list ap)
{
    char message[2048];
    vsnprintf(message, sizeof message, fmt, ap);
    if (level == DIAG_ERROR) errors++;
    if (level == DIAG_WARNING) warnings++;
    if (sink.emit) {
        sink.emit(sink.ctx, level, loc, message);
        return;
    }
    buf line = {0};
    diag_format(&line, level, loc, message);
    buf_putc(&line, '\n');
    fputs(line.data, stderr);
    buf_free(&line);
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
