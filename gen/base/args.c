/* Command-line options from a table (args.h). */
#include "base/args.h"

#include "base/suggest.h"
#include "base/util.h"

#include <stddef.h>
#include <string.h>

static const args_option *find_option(const args_option *options, const char *name, size_t len)
{
    for (const args_option *o = options; o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0) return o;
    return NULL;
}

static int fail(args_cursor *c, char *message)
{
    c->error = message;
    return ARGS_ERROR;
}

/* The dashes are left out of the comparison: "-x" is no typo of "-C", and "-config" is one of
 * "--config". */
static int unknown(args_cursor *c, const char *arg, size_t name_len)
{
    size_t count = 0;
    while (c->options[count].name) count++;
    const char **names = xmalloc((count + 1) * sizeof *names);
    for (size_t i = 0; i < count; i++) names[i] = c->options[i].name + strspn(c->options[i].name, "-");
    names[count] = NULL;
    const size_t dashes = strspn(arg, "-");
    const char *near = suggest_nearest(arg + dashes, name_len - dashes, names, count);
    for (size_t i = 0; near && i < count; i++)
        if (near == names[i]) {
            near = c->options[i].name; /* shown with its dashes */
            break;
        }
    char *message =
        near ? xasprintf("unknown %s '%s' (did you mean '%s'?)", c->what, arg, near) : xasprintf("unknown %s '%s'", c->what, arg);
    free(names);
    c->unknown = true;
    return fail(c, message);
}

int args_next(args_cursor *c)
{
    c->value = NULL;
    c->error = NULL;
    c->unknown = false;
    if (c->next >= c->argc) return ARGS_END;
    const char *arg = c->argv[c->next++];
    if (c->operands_done || arg[0] != '-' || arg[1] == '\0') {
        c->value = arg;
        return ARGS_OPERAND;
    }
    if (strcmp(arg, "--") == 0) {
        c->operands_done = true;
        return args_next(c);
    }
    const char *equals = strchr(arg, '=');
    const size_t name_len = equals ? (size_t)(equals - arg) : strlen(arg);
    const args_option *o = find_option(c->options, arg, name_len);
    if (!o) return unknown(c, arg, name_len);
    if (!o->takes_value) {
        if (equals) return fail(c, xasprintf("option '%s' takes no value", o->name));
        return o->id;
    }
    if (equals && arg[1] != '-') /* only a long option carries "=VALUE" */
        return fail(c, xasprintf("option '%s' takes its value as the next argument ('%s %s')", o->name, o->name, equals + 1));
    if (equals && equals[1]) {
        c->value = equals + 1;
    } else if (!equals && c->next < c->argc) {
        c->value = c->argv[c->next++];
    } else {
        return fail(c, xasprintf("option '%s' needs a value", o->name));
    }
    return o->id;
}
