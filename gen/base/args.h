/* Command-line options read from one table per command, so the same list parses the options,
 * tells a missing value from an unknown option, and names the option a typo meant. */
#ifndef TLG_ARGS_H
#define TLG_ARGS_H

#include <stdbool.h>

typedef struct args_option {
    const char *name; /* "-C", "--config"; a table ends at a NULL name */
    bool takes_value; /* "--name VALUE" or, for a long option, "--name=VALUE" */
    int id;           /* what args_next returns for it (>= 0) */
} args_option;

enum {
    ARGS_END = -1,     /* no arguments left */
    ARGS_OPERAND = -2, /* a non-option argument, in value (after "--", every argument is one) */
    ARGS_ERROR = -3,   /* a usage error, in error: unknown option, missing or unexpected value */
};

typedef struct args_cursor {
    int argc;
    char **argv;
    int next;                   /* the next argv index to read */
    const args_option *options; /* the command's table */
    const char *what;           /* names an unknown one in errors: "option", "key" (pack) */
    bool operands_done;         /* "--" was seen */
    const char *value;          /* the option's value, or the operand */
    char *error;                /* with ARGS_ERROR: the message (heap; the caller frees it) */
    bool unknown;               /* with ARGS_ERROR: an option the table lacks (not a bad value) */
} args_cursor;

/* The id of the next option, or ARGS_END, ARGS_OPERAND or ARGS_ERROR. A lone "-" is an operand
 * (standard input, by convention). */
int args_next(args_cursor *c);

#endif
