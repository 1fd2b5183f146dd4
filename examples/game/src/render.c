/* render.c - the frame as SDL2 draws it: the presented level's tiles, then (when the simulation
 * is in that level) pickups, enemies, bolts and the player, the HUD, the fader and the menu.
 * Sprites are the content's decoded PNGs, uploaded once per image. Text is stb_easy_font's
 * rectangles, so the software renderer draws the same pixels everywhere. */
#include "render.h"

#include <stdio.h>
#include <string.h>

#include <stb/stb_easy_font.h>

void render_init(render_ctx *r, SDL_Renderer *sdl) {
    memset(r, 0, sizeof *r);
    r->sdl = sdl;
}

void render_free(render_ctx *r) {
    int i;
    for (i = 0; i < RENDER_CACHE; i++)
        if (r->cache[i].texture) SDL_DestroyTexture(r->cache[i].texture);
    memset(r->cache, 0, sizeof r->cache);
}

static SDL_Texture *texture_of(render_ctx *r, tl_asset asset) {
    const game_image *img = game_image_of(asset);
    int i, free_slot = -1;
    if (!img) return NULL;
    for (i = 0; i < RENDER_CACHE; i++) {
        if (r->cache[i].image == img) return r->cache[i].texture;
        if (!r->cache[i].image && free_slot < 0) free_slot = i;
    }
    if (free_slot < 0) return NULL;
    r->cache[free_slot].image = img;
    r->cache[free_slot].texture = SDL_CreateTexture(r->sdl, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STATIC,
                                                    img->width, img->height);
    SDL_UpdateTexture(r->cache[free_slot].texture, NULL, img->rgba, img->width * 4);
    SDL_SetTextureBlendMode(r->cache[free_slot].texture, SDL_BLENDMODE_BLEND);
    return r->cache[free_slot].texture;
}

static int to_px(tl_fp v) { return (int)(tl_fp_to_raw(tl_fp_mul_int(v, RENDER_TILE)) >> 32); }

static void draw_at(render_ctx *r, tl_asset asset, tl_fpv2 centre) {
    SDL_Texture *t = texture_of(r, asset);
    SDL_Rect dst;
    if (!t) return;
    dst.w = dst.h = RENDER_TILE;
    dst.x = to_px(centre.x) - RENDER_TILE / 2;
    dst.y = to_px(centre.y) - RENDER_TILE / 2;
    SDL_RenderCopy(r->sdl, t, NULL, &dst);
}

static void draw_tiles(render_ctx *r, const game_area *area, const sim_level *level, bool exit_open) {
    SDL_Texture *floor = texture_of(r, area->floor), *wall = texture_of(r, area->wall), *exit = texture_of(r, area->exit);
    int x, y;
    for (y = 0; y < SIM_MAP_H; y++)
        for (x = 0; x < SIM_MAP_W; x++) {
            SDL_Rect dst = {x * RENDER_TILE, y * RENDER_TILE, RENDER_TILE, RENDER_TILE};
            SDL_RenderCopy(r->sdl, level->tiles[y][x] == '#' ? wall : floor, NULL, &dst);
        }
    if (exit) {
        SDL_Rect dst = {level->exit_x * RENDER_TILE, level->exit_y * RENDER_TILE, RENDER_TILE, RENDER_TILE};
        SDL_SetTextureColorMod(exit, exit_open ? 255 : 90, exit_open ? 255 : 90, exit_open ? 255 : 90);
        SDL_RenderCopy(r->sdl, exit, NULL, &dst);
    }
}

static void draw_entities(render_ctx *r, const game *g, const game_area *area) {
    const sim_header *h = sim_head_const(g->block);
    sim_pickup_list_const pickups = sim_pickups_const(g->block);
    sim_enemy_list_const enemies = sim_enemies_const(g->block);
    sim_bolt_list_const bolts = sim_bolts_const(g->block);
    uint32_t i;
    for (i = 0; i < sim_pickup_list_const_count(pickups); i++) {
        const sim_pickup *p = sim_pickup_list_const_at(pickups, i);
        draw_at(r, p->item == g->world.heart_item ? g->heart : g->coin, p->pos);
    }
    for (i = 0; i < sim_enemy_list_const_count(enemies); i++) {
        const sim_enemy *e = sim_enemy_list_const_at(enemies, i);
        draw_at(r, area->kind_sprite[e->kind], e->pos);
    }
    for (i = 0; i < sim_bolt_list_const_count(bolts); i++) draw_at(r, g->bolt, sim_bolt_list_const_at(bolts, i)->pos);
    if (h->invulnerable == 0 || (h->frame / 4) % 2 == 0) draw_at(r, g->player, h->player);
}

/* stb_easy_font draws ASCII: a Latin-1 letter (French's, Spanish's, German's) is drawn as its base
   letter with its accent added, in font pixels relative to the letter's cell. */
typedef enum accent { ACCENT_NONE, ACCENT_ACUTE, ACCENT_GRAVE, ACCENT_CIRCUMFLEX, ACCENT_DIAERESIS, ACCENT_TILDE, ACCENT_CEDILLA } accent;

/* U+00C0..U+00FF: base letter and accent ('?' for what has neither). */
static char latin1_base(uint32_t cp, accent *a) {
    static const char bases[] = "AAAAA??CEEEEIIII?NOOOOO??UUUUY??aaaaa??ceeeeiiii?nooooo??uuuuy?y";
    static const char accents[] = "2135400621342134052135400213410021354006213421340521354002134104";
    if (cp < 0xC0 || cp > 0xFF) return '?';
    *a = (accent)(accents[cp - 0xC0] - '0');
    return bases[cp - 0xC0];
}

/* text as ASCII into out (one byte a character), with each character's accent. */
static int to_ascii(const char *text, char *out, accent *accents, int cap) {
    const unsigned char *s = (const unsigned char *)text;
    int n = 0;
    while (*s && n < cap - 1) {
        accents[n] = ACCENT_NONE;
        if (*s < 0x80) out[n++] = (char)*s++;
        else if (s[0] == 0xC5 && (s[1] == 0x92 || s[1] == 0x93) && n < cap - 2) { /* Œ, œ */
            out[n++] = s[1] == 0x92 ? 'O' : 'o';
            accents[n] = ACCENT_NONE;
            out[n++] = s[1] == 0x92 ? 'E' : 'e';
            s += 2;
        }
        else if ((s[0] & 0xE0) == 0xC0 && (s[1] & 0xC0) == 0x80) {
            out[n] = latin1_base((uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F), &accents[n]);
            n++, s += 2;
        } else {
            out[n++] = '?';
            for (s++; (*s & 0xC0) == 0x80; s++) {}
        }
    }
    out[n] = 0;
    return n;
}

static void fill(render_ctx *r, int x, int y, int scale, int fx, int fy) {
    SDL_Rect rect = {x + fx * scale, y + fy * scale, scale, scale};
    SDL_RenderFillRect(r->sdl, &rect);
}

/* The accent over (or, a cedilla, under) the letter at font x `at`, `w` wide. */
static void draw_accent(render_ctx *r, int x, int y, int scale, int at, int w, char base, accent a) {
    int top = base >= 'a' && base <= 'z' ? 0 : -2, mid = at + (w - 1) / 2;
    switch (a) {
    case ACCENT_ACUTE: fill(r, x, y, scale, mid, top), fill(r, x, y, scale, mid + 1, top - 1); break;
    case ACCENT_GRAVE: fill(r, x, y, scale, mid - 1, top - 1), fill(r, x, y, scale, mid, top); break;
    case ACCENT_CIRCUMFLEX:
        fill(r, x, y, scale, mid - 1, top), fill(r, x, y, scale, mid, top - 1), fill(r, x, y, scale, mid + 1, top);
        break;
    case ACCENT_DIAERESIS: fill(r, x, y, scale, mid - 1, top), fill(r, x, y, scale, mid + 1, top); break;
    case ACCENT_TILDE: fill(r, x, y, scale, mid - 1, top), fill(r, x, y, scale, mid, top - 1), fill(r, x, y, scale, mid + 1, top - 1); break;
    case ACCENT_CEDILLA: fill(r, x, y, scale, mid, 8), fill(r, x, y, scale, mid - 1, 9); break;
    default: break;
    }
}

static void draw_accents(render_ctx *r, int x, int y, int scale, char *ascii, const accent *accents, int n) {
    int i;
    for (i = 0; i < n; i++) {
        char saved = ascii[i + 1], letter[2] = {ascii[i], 0};
        int at, w;
        if (accents[i] == ACCENT_NONE) continue;
        ascii[i] = 0;
        at = i ? stb_easy_font_width(ascii) : 0;
        ascii[i] = letter[0];
        w = stb_easy_font_width(letter);
        ascii[i + 1] = saved;
        draw_accent(r, x, y, scale, at, w, letter[0], accents[i]);
    }
}

static void draw_text(render_ctx *r, int x, int y, int scale, const char *utf8, SDL_Color c) {
    static char quads[60000];
    char text[256];
    accent accents[256];
    int count = to_ascii(utf8, text, accents, (int)sizeof text);
    int i, n = stb_easy_font_print(0, 0, text, NULL, quads, sizeof quads);
    SDL_SetRenderDrawColor(r->sdl, c.r, c.g, c.b, c.a);
    draw_accents(r, x, y, scale, text, accents, count);
    for (i = 0; i < n; i++) {
        const float *v = (const float *)(quads + i * 64); /* 4 vertices of x, y, z, colour */
        SDL_Rect rect;
        rect.x = x + (int)v[0] * scale;
        rect.y = y + (int)v[1] * scale;
        rect.w = ((int)v[8] - (int)v[0]) * scale;
        rect.h = ((int)v[9] - (int)v[1]) * scale;
        SDL_RenderFillRect(r->sdl, &rect);
    }
}

static void draw_hud(render_ctx *r, const game *g) {
    const sim_header *h = sim_head_const(g->block);
    static const SDL_Color white = {255, 255, 255, 255}, gold = {250, 215, 60, 255};
    char text[96];
    text_Hud(g->text, text, sizeof text, h->score, h->health, h->max_health,
             sim_exit_open(g->block, &g->world) ? text_ExitOpen(g->text) : "");
    draw_text(r, 8, 6, 2, text, white);
    if (g->feed.message[0]) draw_text(r, 8, RENDER_H - 26, 2, g->feed.message, gold);
}

/* The prompt line with glyphs: [glyph] select   [glyph] back (the current device's). */
static void draw_prompts(render_ctx *r, const render_menu *m, SDL_Color c) {
    char text[64];
    int i, x = 200;
    for (i = 0; i < 2; i++) {
        SDL_Texture *t = texture_of(r, m->prompt_glyph[i]);
        SDL_Rect dst = {x, 384, 24, 24};
        if (t) SDL_RenderCopy(r->sdl, t, NULL, &dst);
        snprintf(text, sizeof text, "%s %s", i ? m->prompt_back : m->prompt_confirm, m->prompt_words[i]);
        draw_text(r, x + 30, 390, 2, text, c);
        x += 30 + (int)strlen(text) * 12 + 24;
    }
}

/* In play, near an interactable: Interact's glyph and what it does, above the player. */
static void draw_interact_prompt(render_ctx *r, const game *g, const render_menu *m) {
    static const SDL_Color on = {255, 255, 255, 255};
    const sim_header *h = sim_head_const(g->block);
    SDL_Texture *t = texture_of(r, m->prompt_glyph[2]);
    SDL_Rect dst = {to_px(h->player.x) - 12, to_px(h->player.y) - RENDER_TILE - 12, 24, 24};
    if (t) SDL_RenderCopy(r->sdl, t, NULL, &dst);
    draw_text(r, dst.x + 28, dst.y + 6, 2, m->interact_prompt, on);
}

static void draw_menu(render_ctx *r, const render_menu *m, const char *title) {
    static const SDL_Color on = {255, 255, 255, 255}, off = {120, 120, 120, 255}, pick = {250, 215, 60, 255};
    SDL_Rect shade = {0, 0, RENDER_W, RENDER_H};
    int i;
    SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r->sdl, 0, 0, 0, 170);
    SDL_RenderFillRect(r->sdl, &shade);
    draw_text(r, 200, 120, 4, title, pick);
    for (i = 0; i < m->count; i++)
        draw_text(r, 240, 200 + i * 36, 3, m->items[i], i == m->selected ? pick : m->enabled[i] ? on : off);
    if (m->note) draw_text(r, 200, 420, 2, m->note, off);
    if (m->prompt_glyph[0].ctx && m->prompt_glyph[1].ctx) draw_prompts(r, m, on);
    else if (m->prompt) draw_text(r, 200, 390, 2, m->prompt, on);
}

void render_frame(render_ctx *r, const game *g, const render_menu *menu) {
    const game_area *area = game_area_of(g, g->presented);
    uint32_t sim_level_id = g->world.levels[sim_head_const(g->block)->level].id;
    SDL_SetRenderDrawColor(r->sdl, 0, 0, 0, 255);
    SDL_RenderClear(r->sdl);
    if (area) {
        const sim_level *level = &g->world.levels[area - g->areas]; /* areas and levels share an order */
        draw_tiles(r, area, level, sim_level_id == area->id && sim_exit_open(g->block, &g->world));
        if (menu && menu->sign_shown && area == &g->areas[0]) draw_at(r, menu->sign, menu->sign_at);
        if (sim_level_id == area->id) draw_entities(r, g, area);
    }
    draw_hud(r, g);
    if (g->fade > 0) {
        SDL_Rect all = {0, 0, RENDER_W, RENDER_H};
        SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
        SDL_SetRenderDrawColor(r->sdl, 0, 0, 0, (Uint8)(255 * g->fade / GAME_FADE_FRAMES));
        SDL_RenderFillRect(r->sdl, &all);
    }
    if (menu && !menu->open && menu->interact_prompt) draw_interact_prompt(r, g, menu);
    if (menu && menu->open) draw_menu(r, menu, text_Title(g->text));
}
