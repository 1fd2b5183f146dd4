#include "json_check.h"

#include "config.h"
#include "suggest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void jc_error(json_checker *c, const char *path, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    src_loc loc = json_locate(c->file, c->text, c->len, path);
    diag_error(loc, "%s%s%s", path, path[0] ? ": " : "", message);
    c->ok = false;
}

const char *jc_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

void jc_check_keys(json_checker *c, const char *path, json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value) {
        bool known = false;
        for (const char *const *a = allowed; *a; a++) known = known || strcmp(*a, key) == 0;
        if (!known) {
            char *sub = path[0] ? xasprintf("%s.%s", path, key) : xstrdup(key);
            const char *near = suggest_nearest(key, strlen(key), allowed, SIZE_MAX);
            if (near) jc_error(c, sub, "unknown key (did you mean \"%s\"?)", near);
            else jc_error(c, sub, "unknown key");
            free(sub);
        }
    }
}

char *jc_rel_path(json_checker *c, json_t *obj, const char *key, const char *path, const char *fallback)
{
    json_t *v = json_object_get(obj, key);
    char *sub = path[0] ? xasprintf("%s.%s", path, key) : xstrdup(key);
    char *result = NULL;
    if (!v) {
        result = fallback ? xstrdup(fallback) : NULL;
    } else if (!json_is_string(v)) {
        jc_error(c, sub, "expected a string (a relative path), got %s", jc_type_name(v));
    } else {
        const char *s = json_string_value(v);
        size_t n = strlen(s);
        bool dotdot = strcmp(s, "..") == 0 || strncmp(s, "../", 3) == 0 || strstr(s, "/../") ||
                      (n >= 3 && strcmp(s + n - 3, "/..") == 0);
        if (!s[0]) jc_error(c, sub, "must not be empty");
        else if (s[0] == '/' || strchr(s, '\\')) jc_error(c, sub, "must be a relative path with '/' separators, got \"%s\"", s);
        else if (dotdot) jc_error(c, sub, "must not contain '..', got \"%s\"", s);
        else result = xstrdup(s);
    }
    free(sub);
    return result;
}
