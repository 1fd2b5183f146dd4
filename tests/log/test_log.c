/* Behaviour of log.h: line format, levels, run-time and compile-time filtering, truncation into
   the fixed buffer, the sink, and the default stderr sink. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define TL_IMPLEMENTATION
#include <threadlink/log.h>

#include "filtered.h"

typedef struct captured {
    int records;
    int level;
    uint32_t item;
    char module[64];
    char message[TL_LOG_LINE_MAX];
    char line[TL_LOG_LINE_MAX];
} captured;

static void capture(void *user, const tl_log_record *record) {
    captured *c = (captured *)user;
    c->records++;
    c->level = record->level;
    c->item = record->item;
    snprintf(c->module, sizeof c->module, "%s", record->module);
    snprintf(c->message, sizeof c->message, "%s", record->message);
    snprintf(c->line, sizeof c->line, "%s", record->line);
}

static tl_logger logger_for(captured *c) {
    tl_logger logger;
    memset(&logger, 0, sizeof logger);
    logger.sink = capture;
    logger.user = c;
    return logger;
}

static void test_log_formats_prefix_level_and_message(void **state) {
    captured c;
    tl_logger logger;
    (void)state;
    memset(&c, 0, sizeof c);
    logger = logger_for(&c);
    tl_log(&logger, TL_LOG_LEVEL_INFO, "Inventory", "loaded %d items from %s", 3, "save.dat");
    assert_string_equal(c.line, "Inventory: info: loaded 3 items from save.dat");
    assert_string_equal(c.message, "loaded 3 items from save.dat");
    assert_string_equal(c.module, "Inventory");
    assert_int_equal(c.level, TL_LOG_LEVEL_INFO);
    assert_int_equal(c.item, 0);
    tl_log(&logger, TL_LOG_LEVEL_WARNING, NULL, "no module");
    assert_string_equal(c.line, "?: warning: no module");
    tl_log_item(&logger, TL_LOG_LEVEL_ERROR, "Events", 0x123u, "code %s", "x");
    assert_string_equal(c.line, "Events: error: code x");
    assert_int_equal(c.item, 0x123u);
    assert_int_equal(c.records, 3);
}

static void test_log_runtime_filter_drops_lower_levels(void **state) {
    captured c;
    tl_logger logger;
    (void)state;
    memset(&c, 0, sizeof c);
    logger = logger_for(&c);
    logger.min_level = TL_LOG_LEVEL_ERROR;
    tl_log(&logger, TL_LOG_LEVEL_INFO, "M", "a");
    tl_log(&logger, TL_LOG_LEVEL_WARNING, "M", "b");
    assert_int_equal(c.records, 0);
    TL_LOG_ERROR(&logger, "M", "c %d", 1);
    assert_int_equal(c.records, 1);
    assert_string_equal(c.line, "M: error: c 1");
}

static void test_log_compile_time_filter_evaluates_nothing(void **state) {
    captured c;
    tl_logger logger;
    int evaluations = 0;
    (void)state;
    memset(&c, 0, sizeof c);
    logger = logger_for(&c);
    assert_int_equal(log_filtered_log(&logger, &evaluations), 2); /* info's ++ never ran */
    assert_int_equal(c.records, 2);
    assert_string_equal(c.line, "Filtered: error: error 2");
    /* This file is unfiltered: the same macro logs. */
    TL_LOG_INFO(&logger, "Here", "info %d", ++evaluations);
    assert_int_equal(evaluations, 3);
    assert_string_equal(c.line, "Here: info: info 3");
}

static void test_log_long_messages_are_cut_and_marked(void **state) {
    captured c;
    tl_logger logger;
    char big[TL_LOG_LINE_MAX * 2];
    char module[TL_LOG_LINE_MAX];
    (void)state;
    memset(&c, 0, sizeof c);
    logger = logger_for(&c);
    memset(big, 'b', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    tl_log(&logger, TL_LOG_LEVEL_INFO, "M", "%s", big);
    assert_int_equal(strlen(c.line), TL_LOG_LINE_MAX - 1);
    assert_string_equal(c.line + TL_LOG_LINE_MAX - 4, "...");
    assert_memory_equal(c.line, "M: info: bbb", 12);
    /* A huge module name still leaves room for the message. */
    memset(module, 'm', sizeof module - 1);
    module[sizeof module - 1] = '\0';
    tl_log(&logger, TL_LOG_LEVEL_INFO, module, "tail");
    assert_non_null(strstr(c.line, "...: tail"));
}

/* Whether s is whole UTF-8 characters (structure only: what a cut could break). */
static int whole_utf8(const char *s) {
    while (*s) {
        unsigned char c = (unsigned char)*s;
        int n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0, i;
        if (n == 0) return 0;
        for (i = 1; i < n; i++)
            if (((unsigned char)s[i] & 0xC0) != 0x80) return 0;
        s += n;
    }
    return 1;
}

/* A cut falls between characters, whichever byte the buffer ends at: a sink forwarding to a
   strict UTF-8 consumer (a JSON log, a console font) gets whole ones. */
static void test_log_cut_keeps_whole_characters(void **state) {
    captured c;
    tl_logger logger;
    char text[TL_LOG_LINE_MAX * 2], module[TL_LOG_LINE_MAX * 2];
    size_t lead, i;
    (void)state;
    memset(&c, 0, sizeof c);
    logger = logger_for(&c);
    for (lead = 0; lead < 4; lead++) { /* each alignment of the 4-byte characters to the cut */
        memset(text, 'a', lead);
        for (i = lead; i + 4 < sizeof text; i += 4) memcpy(text + i, "\xF0\x9F\x8E\xAE", 4);
        text[i] = '\0';
        tl_log(&logger, TL_LOG_LEVEL_INFO, "M", "%s", text);
        assert_true(whole_utf8(c.line));
        assert_true(strlen(c.line) <= TL_LOG_LINE_MAX - 1 && strlen(c.line) > TL_LOG_LINE_MAX - 8);
        assert_string_equal(c.line + strlen(c.line) - 3, "...");
        /* A module name that is cut too (3-byte characters). */
        for (i = lead; i + 3 < sizeof module; i += 3) memcpy(module + i, "\xE2\x82\xAC", 3);
        memset(module, 'm', lead);
        module[i] = '\0';
        tl_log(&logger, TL_LOG_LEVEL_INFO, module, "tail");
        assert_true(whole_utf8(c.line));
        assert_non_null(strstr(c.line, "...: tail"));
    }
}

static void test_log_default_sink_writes_stderr(void **state) {
    char buffer[256];
    FILE *tmp = tmpfile();
    int saved = dup(fileno(stderr));
    size_t n;
    (void)state;
    assert_non_null(tmp);
    assert_true(saved >= 0);
    fflush(stderr);
    assert_true(dup2(fileno(tmp), fileno(stderr)) >= 0);
    tl_log(NULL, TL_LOG_LEVEL_WARNING, "Default", "to %s", "stderr");
    fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    rewind(tmp);
    n = fread(buffer, 1, sizeof buffer - 1, tmp);
    buffer[n] = '\0';
    fclose(tmp);
    assert_string_equal(buffer, "Default: warning: to stderr\n");
    assert_string_equal(tl_log_level_name(TL_LOG_LEVEL_ERROR), "error");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_log_formats_prefix_level_and_message),
        cmocka_unit_test(test_log_runtime_filter_drops_lower_levels),
        cmocka_unit_test(test_log_compile_time_filter_evaluates_nothing),
        cmocka_unit_test(test_log_long_messages_are_cut_and_marked),
        cmocka_unit_test(test_log_cut_keeps_whole_characters),
        cmocka_unit_test(test_log_default_sink_writes_stderr),
    };
    return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
