/* A pull tokenizer for JSON (RFC 8259), with line:col on every token. Used where the generator
 * reads large or untrusted JSON (manifests) and must not build a tree of it. */
#ifndef TLG_LEX_JSON_H
#define TLG_LEX_JSON_H

#include "base/diag.h"

typedef enum json_tok_kind {
    JT_EOF,
    JT_LBRACE,
    JT_RBRACE,
    JT_LBRACKET,
    JT_RBRACKET,
    JT_COLON,
    JT_COMMA,
    JT_STRING,
    JT_NUMBER,
    JT_TRUE,
    JT_FALSE,
    JT_NULL,
    JT_ERROR
} json_tok_kind;

typedef struct json_tok {
    json_tok_kind kind;
    const char *text; /* JT_STRING: the decoded value (valid until the next token); else raw text */
    size_t len;
    src_loc loc;
} json_tok;

typedef struct json_lexer {
    const char *file;
    const unsigned char *cur, *limit;
    const unsigned char *base; /* the byte at window_offset */
    uint32_t line;
    uint64_t window_offset; /* file offset of window[0] (0 for text in memory) */
    uint64_t line_start;    /* file offset where the current line starts */
    unsigned char *window;  /* reading from a file: a sliding window over it */
    int fd;                 /* -1: the whole text is in memory */
    bool eof;
    buf decoded; /* strings that needed unescaping */
} json_lexer;

/* data[len] must be 0 (a sentinel). */
void json_lexer_init(json_lexer *lx, const char *file, const char *data, size_t len);
/* Reads from an open file through a fixed window, so a large file is never held whole; a single
 * token may then be at most JSON_MAX_TOKEN bytes. */
#define JSON_MAX_TOKEN (256u * 1024u)
void json_lexer_init_fd(json_lexer *lx, const char *file, int fd);
void json_lexer_free(json_lexer *lx);

/* The next token. A malformed token is reported (file:line:col) and returned as JT_ERROR. */
json_tok json_next(json_lexer *lx);

/* The text from the next token on (white space skipped), NUL-terminated: for a reader that
 * recognises a shape of its own there and moves past it with json_advance instead of taking it
 * token by token. Reading a file, the NUL may end the window rather than the file: a shape cut
 * short by it is for json_next to read. */
const char *json_peek(json_lexer *lx);
/* Moves past n bytes of what json_peek returned; they must not hold a line break. */
void json_advance(json_lexer *lx, size_t n);

const char *json_tok_describe(json_tok_kind kind);

#endif
