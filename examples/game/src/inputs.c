/* inputs.c - recorded inputs (see inputs.h). */
#include "inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool input_tape_init(input_tape *t, uint32_t capacity) {
    t->count = 0;
    t->capacity = capacity ? capacity : 1;
    t->frames = (uint32_t *)calloc(t->capacity, sizeof *t->frames);
    return t->frames != NULL;
}

bool input_tape_push(input_tape *t, uint32_t input) {
    if (t->count == t->capacity) {
        uint32_t *grown = (uint32_t *)realloc(t->frames, (size_t)t->capacity * 2 * sizeof *grown);
        if (!grown) return false;
        t->frames = grown;
        t->capacity *= 2;
    }
    t->frames[t->count++] = input;
    return true;
}

bool input_tape_read(input_tape *t, const char *path) {
    FILE *f = fopen(path, "r");
    char line[512];
    unsigned line_no = 0;
    if (!f) {
        fprintf(stderr, "%s: cannot open\n", path);
        return false;
    }
    if (!input_tape_init(t, 4096)) {
        fclose(f);
        return false;
    }
    while (fgets(line, sizeof line, f)) {
        unsigned long count, mask;
        char extra;
        line_no++;
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "%s:%u:1: error: a line longer than %u bytes\n", path, line_no, (unsigned)sizeof line - 2);
            fclose(f);
            input_tape_free(t);
            return false;
        }
        if (line[0] == '#' || line[0] == '\n') continue;
        if (sscanf(line, "%lu %lx %c", &count, &mask, &extra) != 2 || count == 0 || count > 1000000 || mask > 31) {
            fprintf(stderr, "%s:%u:1: error: expected \"COUNT MASK\" (MASK in hex, at most 1f)\n", path, line_no);
            fclose(f);
            input_tape_free(t);
            return false;
        }
        while (count--)
            if (!input_tape_push(t, (uint32_t)mask)) {
                fclose(f);
                return false;
            }
    }
    fclose(f);
    return true;
}

bool input_tape_write(const input_tape *t, const char *path, const char *comment) {
    FILE *f = fopen(path, "w");
    uint32_t i = 0;
    if (!f) {
        fprintf(stderr, "%s: cannot write\n", path);
        return false;
    }
    fprintf(f, "# %s: %u frames, lines \"COUNT MASK\" (up 1, down 2, left 4, right 8, fire 10)\n", comment, t->count);
    while (i < t->count) {
        uint32_t j = i;
        while (j < t->count && t->frames[j] == t->frames[i]) j++;
        fprintf(f, "%u %x\n", j - i, t->frames[i]);
        i = j;
    }
    return fclose(f) == 0;
}

void input_tape_free(input_tape *t) {
    free(t->frames);
    t->frames = NULL;
    t->count = t->capacity = 0;
}
