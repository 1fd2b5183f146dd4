/* render.h - drawing a frame of the game with SDL2's renderer (the only SDL code but main's). */
#ifndef GAME_RENDER_H
#define GAME_RENDER_H

#include <SDL.h>

#include "game.h"

#define RENDER_TILE 32
#define RENDER_W (SIM_MAP_W * RENDER_TILE)
#define RENDER_H (SIM_MAP_H * RENDER_TILE)
#define RENDER_CACHE 32

typedef struct render_menu {
    bool open;
    int selected;
    int count;
    const char *items[6];
    bool enabled[6];
    const char *note;
    const char *prompt; /* the current device's controls for select and back, or NULL */
    tl_asset prompt_glyph[3];                   /* their glyphs (Content.Game's Glyphs), or zero;
                                                   [2]: Interact's */
    const char *interact_prompt;                /* in play, near an interactable: what it does */
    tl_asset sign;                              /* the interactable sign, drawn at sign_at when */
    tl_fpv2 sign_at;                            /* sign_shown (the UI layer's, not the sim's) */
    bool sign_shown;
    const char *prompt_confirm, *prompt_back;   /* their names, beside the glyphs */
    const char *prompt_words[2];                /* what they do: "select", "back" (the player's language) */
} render_menu;

typedef struct render_ctx {
    SDL_Renderer *sdl;
    struct { const game_image *image; SDL_Texture *texture; } cache[RENDER_CACHE];
} render_ctx;

void render_init(render_ctx *r, SDL_Renderer *sdl);
void render_frame(render_ctx *r, const game *g, const render_menu *menu);
void render_free(render_ctx *r);

#endif
