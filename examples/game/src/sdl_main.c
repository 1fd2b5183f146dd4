/* sdl_main.c - the game in a window: SDL2 input, the menu (continue, new game, save, quit), the
 * core's time service stepping the simulation at 60 Hz (OnFixedUpdate), rendering, and sound
 * (sound.c, where SDL_mixer was found: GAME_SOUND).
 *
 *   game [--content DIR] [--saves DIR] [--record FILE]
 *   game --replay FILE --frames N --screenshot OUT.png [--expect PNG --tolerance T]
 *
 * Keys: arrows or WASD move, space fires, Esc opens the menu (the game pauses: time scale 0).
 * --replay runs N frames of a recording without a clock, draws frame N and writes it as a PNG;
 * with --expect it then compares it with an image (the screenshot test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "iris_events.h"
#include "inputs.h"
#include "render.h"
#if defined(GAME_SOUND)
#include "sound.h"
#else /* built without SDL_mixer: silent */
typedef struct game_sound game_sound;
#define game_sound_ui(s, which) ((void)(s))
#endif

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBIW_WINDOWS_UTF8
#include <stb/stb_image_write.h>
#include <stb/stb_image.h>

#define SAVE_SLOT "continue"

typedef struct options {
    const char *content, *saves, *record, *replay, *screenshot, *expect, *locale;
    uint32_t frames;
    int tolerance;
} options;

typedef struct app {
    game g;
    render_ctx render;
    render_menu menu;
    SDL_Window *window;
    SDL_Renderer *sdl;
    input_tape recording;
    bool recording_on, running, started;
    game_sound *sound; /* NULL: silent */
} app;

enum { MENU_CONTINUE, MENU_NEW, MENU_SAVE, MENU_LANGUAGE, MENU_QUIT };

static uint32_t keyboard_input(void) {
    const Uint8 *k = SDL_GetKeyboardState(NULL);
    uint32_t in = 0;
    if (k[SDL_SCANCODE_UP] || k[SDL_SCANCODE_W]) in |= SIM_UP;
    if (k[SDL_SCANCODE_DOWN] || k[SDL_SCANCODE_S]) in |= SIM_DOWN;
    if (k[SDL_SCANCODE_LEFT] || k[SDL_SCANCODE_A]) in |= SIM_LEFT;
    if (k[SDL_SCANCODE_RIGHT] || k[SDL_SCANCODE_D]) in |= SIM_RIGHT;
    if (k[SDL_SCANCODE_SPACE]) in |= SIM_FIRE;
    return in;
}

/* One fixed step of the core's time service: the simulation's frame. */
static void on_fixed_update(void *ctx, float dt) {
    app *a = (app *)ctx;
    (void)dt;
    if (a->recording_on) input_tape_push(&a->recording, a->g.input);
    game_frame(&a->g, a->g.input);
}

static void menu_refresh(app *a) {
    render_menu *m = &a->menu;
    m->count = 5;
    m->items[MENU_CONTINUE] = text_MenuContinue(a->g.text);
    m->enabled[MENU_CONTINUE] = game_has_save(&a->g, SAVE_SLOT);
    m->items[MENU_NEW] = text_MenuNewGame(a->g.text);
    m->enabled[MENU_NEW] = true;
    m->items[MENU_SAVE] = text_MenuSave(a->g.text);
    m->enabled[MENU_SAVE] = a->started && a->g.saves != NULL;
    m->items[MENU_LANGUAGE] = text_MenuLanguage(a->g.text); /* the language now: choosing it goes to the next */
    m->enabled[MENU_LANGUAGE] = true;
    m->items[MENU_QUIT] = text_MenuQuit(a->g.text);
    m->enabled[MENU_QUIT] = true;
}

static void menu_show(app *a, bool open) {
    a->menu.open = open;
    if (open) menu_refresh(a);
    tl_time_set_scale(&a->g.time, open ? 0.0f : 1.0f); /* pauses the fixed steps */
}

static void menu_choose(app *a) {
    switch (a->menu.selected) {
    case MENU_CONTINUE:
        if (a->menu.enabled[MENU_CONTINUE] && game_continue(&a->g, SAVE_SLOT)) {
            a->started = true;
            menu_show(a, false);
        }
        break;
    case MENU_NEW:
        game_new(&a->g);
        a->started = true;
        menu_show(a, false);
        break;
    case MENU_SAVE:
        if (a->menu.enabled[MENU_SAVE]) a->menu.note = game_save(&a->g, SAVE_SLOT) ? text_NoteSaved(a->g.text) : text_NoteSaveFailed(a->g.text);
        menu_refresh(a);
        break;
    case MENU_LANGUAGE:
        game_next_locale(&a->g);
        menu_refresh(a);
        break;
    case MENU_QUIT: a->running = false; break;
    default: break;
    }
}

static void menu_key(app *a, SDL_Keycode key) {
    render_menu *m = &a->menu;
    if (key == SDLK_UP || key == SDLK_DOWN) game_sound_ui(a->sound, TL_AUDIO_UI_NAVIGATE);
    if (key == SDLK_RETURN || key == SDLK_SPACE) game_sound_ui(a->sound, TL_AUDIO_UI_CONFIRM);
    if (key == SDLK_ESCAPE && a->started) game_sound_ui(a->sound, TL_AUDIO_UI_CANCEL);
    if (key == SDLK_UP) m->selected = (m->selected + m->count - 1) % m->count;
    if (key == SDLK_DOWN) m->selected = (m->selected + 1) % m->count;
    if (key == SDLK_RETURN || key == SDLK_SPACE) menu_choose(a);
    if (key == SDLK_ESCAPE && a->started) menu_show(a, false);
}

static void handle_events(app *a) {
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_QUIT) a->running = false;
        if (e.type != SDL_KEYDOWN || e.key.repeat) continue;
        if (a->menu.open) menu_key(a, e.key.keysym.sym);
        else if (e.key.keysym.sym == SDLK_ESCAPE) menu_show(a, true);
    }
}

/* A performance-counter interval in whole nanoseconds, for the time service's exact 60 Hz steps
   (no overflow for counter rates under 18 GHz). */
static uint64_t counter_ns(Uint64 ticks) {
    Uint64 rate = SDL_GetPerformanceFrequency();
    return (uint64_t)(ticks / rate * 1000000000u + ticks % rate * 1000000000u / rate);
}

static int play(app *a, const options *o) {
    Uint64 last = SDL_GetPerformanceCounter();
    Iris_Events_OnFixedUpdate_subscribe(&a->g.registry, on_fixed_update, a);
    a->recording_on = o->record && input_tape_init(&a->recording, 4096);
    a->running = true;
    menu_show(a, true);
    while (a->running) {
        Uint64 now = SDL_GetPerformanceCounter();
        handle_events(a);
        a->g.input = keyboard_input();
        game_tune(&a->g); /* development builds: the designer's edited stats */
        tl_time_frame_ns(&a->g.time, counter_ns(now - last));
#if defined(GAME_SOUND)
        game_sound_frame(a->sound, (double)counter_ns(now - last) / 1e9); /* real time: fades go on in the menu */
#endif
        last = now;
        render_frame(&a->render, &a->g, &a->menu);
        SDL_RenderPresent(a->sdl);
    }
    Iris_Events_OnFixedUpdate_unsubscribe(&a->g.registry, on_fixed_update, a);
    if (a->recording_on) {
        input_tape_write(&a->recording, o->record, "recorded by game --record");
        input_tape_free(&a->recording);
    }
    return 0;
}

/* ---- the screenshot: a known frame of a replay ------------------------------------------------- */

static unsigned char *read_frame(SDL_Renderer *sdl) {
    unsigned char *rgba = (unsigned char *)malloc((size_t)RENDER_W * RENDER_H * 4);
    if (rgba && SDL_RenderReadPixels(sdl, NULL, SDL_PIXELFORMAT_ABGR8888, rgba, RENDER_W * 4) != 0) {
        fprintf(stderr, "game: cannot read the frame back: %s\n", SDL_GetError());
        free(rgba);
        return NULL;
    }
    return rgba;
}

/* Not blank: the frame has many colours, and no single one covers nearly all of it. */
static bool looks_drawn(const unsigned char *rgba) {
    uint32_t first = 0, same = 0, distinct = 0, seen[64] = {0};
    size_t i, n = (size_t)RENDER_W * RENDER_H;
    memcpy(&first, rgba, 4);
    for (i = 0; i < n; i++) {
        uint32_t px;
        memcpy(&px, rgba + i * 4, 4);
        same += px == first;
        if (distinct < 64) {
            uint32_t k;
            for (k = 0; k < distinct && seen[k] != px; k++) {}
            if (k == distinct) seen[distinct++] = px;
        }
    }
    return distinct >= 16 && same < n * 9 / 10;
}

/* Compares with an expected PNG: the share of pixels whose channels differ by more than 16 must
   be at most tolerance per mille. */
static bool matches(const unsigned char *rgba, const char *expected_path, int tolerance) {
    int w, h, c;
    unsigned char *exp = stbi_load(expected_path, &w, &h, &c, 4);
    size_t i, n = (size_t)RENDER_W * RENDER_H, off = 0;
    if (!exp || w != RENDER_W || h != RENDER_H) {
        fprintf(stderr, "game: %s: not a %dx%d PNG\n", expected_path, RENDER_W, RENDER_H);
        stbi_image_free(exp);
        return false;
    }
    for (i = 0; i < n; i++) {
        int ch, worst = 0;
        for (ch = 0; ch < 4; ch++) {
            int d = abs((int)rgba[i * 4 + ch] - (int)exp[i * 4 + ch]);
            if (d > worst) worst = d;
        }
        off += worst > 16;
    }
    stbi_image_free(exp);
    printf("screenshot: %zu of %zu pixels differ from %s (tolerance %d per mille)\n", off, n, expected_path, tolerance);
    return off * 1000 <= n * (size_t)tolerance;
}

static int screenshot(app *a, const options *o) {
    input_tape tape;
    unsigned char *rgba;
    uint32_t f;
    bool ok;
    if (!input_tape_read(&tape, o->replay)) return 1;
    for (f = 0; f < o->frames && f < tape.count; f++) game_frame(&a->g, tape.frames[f]);
    input_tape_free(&tape);
    printf("frame %u: hash %016llx\n", f, (unsigned long long)sim_hash(a->g.block));
    render_frame(&a->render, &a->g, NULL);
    if (!(rgba = read_frame(a->sdl))) return 1;
    SDL_RenderPresent(a->sdl);
    ok = stbi_write_png(o->screenshot, RENDER_W, RENDER_H, 4, rgba, RENDER_W * 4) != 0;
    if (!ok) fprintf(stderr, "game: cannot write %s\n", o->screenshot);
    if (ok && !looks_drawn(rgba)) {
        ok = false;
        fprintf(stderr, "game: the frame is blank\n");
    }
    if (ok && o->expect) ok = matches(rgba, o->expect, o->tolerance);
    free(rgba);
    return ok ? 0 : 1;
}

/* ---- main ------------------------------------------------------------------------------------- */

static bool parse_options(options *o, int argc, char **argv) {
    int i;
    memset(o, 0, sizeof *o);
    o->content = "content/Game";
    o->saves = "saves";
    o->tolerance = 2;
    for (i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (strcmp(k, "--content") == 0) o->content = v;
        else if (strcmp(k, "--saves") == 0) o->saves = v;
        else if (strcmp(k, "--record") == 0) o->record = v;
        else if (strcmp(k, "--replay") == 0) o->replay = v;
        else if (strcmp(k, "--frames") == 0) o->frames = (uint32_t)strtoul(v, NULL, 10);
        else if (strcmp(k, "--screenshot") == 0) o->screenshot = v;
        else if (strcmp(k, "--expect") == 0) o->expect = v;
        else if (strcmp(k, "--tolerance") == 0) o->tolerance = atoi(v);
        else if (strcmp(k, "--locale") == 0) o->locale = v;
        else {
            fprintf(stderr, "game: unknown option %s\n", k);
            return false;
        }
    }
    if (i != argc) {
        fprintf(stderr, "game: %s needs a value\n", argv[i]);
        return false;
    }
    if (o->replay && (!o->screenshot || !o->frames)) {
        fprintf(stderr, "game: --replay needs --frames and --screenshot\n");
        return false;
    }
    return true;
}

static bool open_window(app *a, bool software) {
    Uint32 flags = software ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        fprintf(stderr, "game: SDL: %s\n", SDL_GetError());
        return false;
    }
    a->window = SDL_CreateWindow("threadlink game", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, RENDER_W, RENDER_H, 0);
    if (a->window) a->sdl = SDL_CreateRenderer(a->window, -1, flags);
    if (!a->sdl && !software && a->window) a->sdl = SDL_CreateRenderer(a->window, -1, SDL_RENDERER_SOFTWARE);
    if (!a->sdl) {
        fprintf(stderr, "game: SDL: %s\n", SDL_GetError());
        return false;
    }
    render_init(&a->render, a->sdl);
    return true;
}

int main(int argc, char **argv) {
    static app a;
    options o;
    game_desc d;
    int rc;
    if (!parse_options(&o, argc, argv)) return 2;
    memset(&d, 0, sizeof d);
    d.content_dir = o.content;
    d.save_dir = o.replay ? NULL : o.saves;
    d.seed = UINT64_C(0x7468726561646c6b); /* the headless driver's: replays match */
    d.quiet = o.replay != NULL;
    d.locale = o.locale;
#if defined(GAME_SOUND)
    d.external_fader = o.replay == NULL; /* the sound provides the fader's events (sound.h) */
#endif
#if defined(GAME_VAULT_IMAGE_DIR) /* development builds (game-dev): the source tree's generated directory */
    d.vault_image_dir = GAME_VAULT_IMAGE_DIR;
#endif
    if (!game_open(&a.g, &d)) {
        fprintf(stderr, "game: the game did not start (content %s)\n", o.content);
        return 1;
    }
    if (!open_window(&a, o.replay != NULL)) {
        game_close(&a.g);
        return 1;
    }
#if defined(GAME_SOUND)
    if (!o.replay) a.sound = game_sound_open(&a.g); /* the screenshot replays are silent */
    if (d.external_fader && !a.sound) { /* no device: the game's own fader, silent */
        Iris_Events_OnDisplayFader_subscribe(&a.g.registry, game_display_fader, &a.g);
        Iris_Events_OnHideFader_subscribe(&a.g.registry, game_hide_fader, &a.g);
    }
#endif
    rc = o.replay ? screenshot(&a, &o) : play(&a, &o);
#if defined(GAME_SOUND)
    game_sound_close(a.sound);
#endif
    render_free(&a.render);
    SDL_DestroyRenderer(a.sdl);
    SDL_DestroyWindow(a.window);
    SDL_Quit();
    game_close(&a.g);
    return rc;
}
