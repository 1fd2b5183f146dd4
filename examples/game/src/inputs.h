/* inputs.h - recorded inputs: one SIM_* bit set per frame, stored as text run lengths. */
#ifndef GAME_INPUTS_H
#define GAME_INPUTS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct input_tape {
    uint32_t *frames;
    uint32_t count, capacity;
} input_tape;

bool input_tape_init(input_tape *t, uint32_t capacity);
/* '#' comments, then "COUNT MASK" lines (MASK in hex); an error names the file and line. */
bool input_tape_read(input_tape *t, const char *path);
/* Replaces path whole or not at all (a temporary file beside it, synced, renamed over it; a
   device or FIFO is written in place); false with the cause said on stderr. */
bool input_tape_write(const input_tape *t, const char *path, const char *comment);
bool input_tape_push(input_tape *t, uint32_t input);
void input_tape_free(input_tape *t);

#endif
