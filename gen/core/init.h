/* threadlink-gen init: a new project from the templates compiled into the generator
 * (templates/init/, embedded by gen/embed.py): threadlink.json, injectors, a vault schema and its
 * data, a content folder with one asset, main.c and the build file of one build system. The
 * command line runs a generate pass over it next, so that it builds and runs at the first try. */
#ifndef TLG_INIT_H
#define TLG_INIT_H

#include <stdbool.h>
#include <stddef.h>

/* One embedded template: its path below templates/init/ and its bytes. */
typedef struct tlg_embedded_file {
    const char *path;
    size_t size;
    const char *data;
} tlg_embedded_file;

extern const tlg_embedded_file tlg_init_files[];
extern const size_t tlg_init_file_count;

typedef enum init_build { INIT_MESON, INIT_CMAKE, INIT_MAKE } init_build;

/* "meson", "cmake" or "make"; false for anything else. */
bool init_parse_build(const char *name, init_build *out);
const char *init_build_name(init_build build);
/* The project's name from its folder: the last component's letters, digits, '_' and '-' ("game"
 * when none is left; "-game" after a name the templates or a build system give a target of its
 * own: "generate", "check", "test", ...); allocated. */
char *init_project_name(const char *dir);
/* Writes the project into `dir` (made, parents included, when missing; refused unless empty).
 * false after reporting; nothing is written then. */
bool init_write_project(const char *dir, init_build build);

#endif
