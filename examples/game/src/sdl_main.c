/* sdl_main.c - the game in a window: input through actions (threadlink/input.h, fed by
 * backends/sdl2/tl_input_sdl2.h from the keyboard or a gamepad), the menus as stacked interfaces
 * (threadlink/interface.h: the title menu, the pause menu, the options menu over either), the
 * core's time service stepping the simulation at 60 Hz (OnFixedUpdate), rendering, and sound
 * (sound.c, where SDL_mixer was found: GAME_SOUND; the menus' sounds follow their commands).
 *
 *   game [--content DIR] [--saves DIR] [--locale LOCALE] [--record FILE]
 *   game --replay FILE --frames N --screenshot OUT.png [--expect PNG --tolerance T]
 *   game --drive SCRIPT [--screenshot OUT.png [--expect PNG --tolerance T]] [--saves DIR] [--record FILE]
 *
 * Actions (input/game.actions.json): Gameplay's Move (arrows, WASD, the left stick, the d-pad),
 * Fire (space, A, the right trigger), Pause (Esc, Start: stacks the pause menu, time scale 0;
 * Back resumes) and Interact (E, X: the sign); Menu's Up, Down, Left, Right, Confirm and Back
 * drive the stacked menus. The options menu rebinds Fire (the next key, or the next gamepad
 * button) and resets the bindings; the bindings are saved (save.h, slot "settings") and restored
 * at start. Recordings hold the simulation's per-frame action bits (SIM_*), not keys, and are
 * written when the game quits (or the drive script ends); one that cannot be written is said, with
 * its cause, and the game exits 1. A game killed before it quits writes none.
 * --replay runs N frames of a recording without a clock, draws frame N and writes it as a PNG;
 * with --expect it then compares it with an image (the screenshot test). --drive plays a script
 * of SDL events (keys pushed with SDL_PushEvent, a virtual controller) at a fixed 60 Hz, prints
 * the state where the script says, and draws the last frame (tests/drive.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>

#include "content_game.h"
#include "dextra_actions.h"
#include "input_map.h"
#include "iris_events.h"
#include "inputs.h"
#include "render.h"
#include "tl_input_sdl2.h" /* the SDL2 backend: threadlink::sdl2 (CMake), threadlink_sdl2 (Meson) */
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
#define SETTINGS_SLOT "settings"
#define ACTION(name) DEXTRA_ACTIONS_U32(Dextra_Actions_##name)

typedef struct options {
    const char *content, *saves, *record, *replay, *screenshot, *expect, *drive, *locale;
    uint32_t frames;
    uint32_t tolerance; /* pixels per mille */
} options;

/* A menu drawn by render_menu: its interface id, its items (selectable i + 1 is items[i]). */
typedef struct menu_panel {
    struct app *a;
    uint32_t id;
} menu_panel;

typedef struct app {
    game g;
    render_ctx render;
    render_menu menu;
    SDL_Window *window;
    SDL_Renderer *sdl;
    tl_input *input;
    tl_interface *ui;
    menu_panel title_menu, pause_menu, options_menu;
    char labels[3][48], prompt[96], prompt_names[2][40], interact_text[48];
    uint32_t capture_devices; /* the devices of the capture in progress (the options menu shows it) */
    tl_scope prompt_scope;         /* the glyphs' assets (Content.Game's Glyphs) */
    uint32_t prompt_watch[3];      /* input.h's watchers of Confirm's, Back's and Interact's glyphs */
    uint32_t prompt_glyph_id[3];
    input_tape recording;
    bool recording_on, running, started;
    game_sound *sound; /* NULL: silent */
} app;

enum { UI_TITLE = 1, UI_OPTIONS = 2, UI_PAUSE = 3 };
enum { TITLE_CONTINUE = 1, TITLE_NEW, TITLE_OPTIONS, TITLE_QUIT };
enum { PAUSE_RESUME = 1, PAUSE_SAVE, PAUSE_OPTIONS, PAUSE_TITLE };
enum { OPTION_FIRE_KEY = 1, OPTION_FIRE_PAD, OPTION_RESET, OPTION_BACK, OPTION_LANGUAGE };

/* ---- actions ---------------------------------------------------------------------------------- */

/* The simulation's bits from Gameplay's actions (Move past half way on an axis moves). */
static uint32_t gameplay_input(const tl_input *in) {
    tl_input_vec2 move = tl_input_vector(in, ACTION(Move));
    uint32_t bits = 0;
    if (move.y < -0.5f) bits |= SIM_UP;
    if (move.y > 0.5f) bits |= SIM_DOWN;
    if (move.x < -0.5f) bits |= SIM_LEFT;
    if (move.x > 0.5f) bits |= SIM_RIGHT;
    if (tl_input_held(in, ACTION(Fire))) bits |= SIM_FIRE;
    return bits;
}

/* interface.h's hooks (the glue): the Menu mode's actions as its commands, the modes switched. */
static uint32_t menu_commands(void *ctx) {
    static const uint32_t actions[TL_INTERFACE_COMMAND_COUNT] = { ACTION(Up), ACTION(Down), ACTION(Left),
                                                                   ACTION(Right), ACTION(Confirm), ACTION(Back) };
    return tl_input_pressed_mask((tl_input *)ctx, actions, TL_INTERFACE_COMMAND_COUNT);
}

static void set_mode(void *ctx, uint32_t mode, bool active) { tl_input_set_mode_active((tl_input *)ctx, mode, active); }

static void save_bindings(app *a) {
    unsigned char bytes[1024];
    size_t n = tl_input_save_bindings(a->input, bytes, sizeof bytes);
    tl_save_txn txn;
    tl_save_result r;
    if (!a->g.saves || n > sizeof bytes) return;
    r = tl_save_begin(a->g.saves, SETTINGS_SLOT, &txn);
    if (r == TL_SAVE_OK) r = tl_save_txn_write(&txn, "bindings", bytes, n);
    if (r == TL_SAVE_OK) r = tl_save_txn_commit(&txn);
    tl_save_txn_discard(&txn);
}

static void load_bindings(app *a) {
    unsigned char bytes[1024];
    size_t n = 0;
    tl_save_info info;
    if (!a->g.saves || tl_save_stat(a->g.saves, SETTINGS_SLOT, &info) != TL_SAVE_OK) return;
    if (tl_save_read(a->g.saves, SETTINGS_SLOT, "bindings", bytes, sizeof bytes, &n) == TL_SAVE_OK)
        (void)tl_input_load_bindings(a->input, bytes, n);
}

/* ---- the menus -------------------------------------------------------------------------------- */

/* Fire's control of `devices` for the options menu, in the player's language. */
static void control_label(const app *a, uint32_t devices, char *out, size_t size) {
    const tl_l10n *t = a->g.text;
    bool pad = devices == TL_INPUT_DEVICES_GAMEPAD;
    uint32_t index = tl_input_binding_find(a->input, ACTION(Fire), devices, 0);
    char name[40] = "none";
    const char *shown;
    if (index != UINT32_MAX) tl_input_control_name(tl_input_binding_control(a->input, ACTION(Fire), index), name, sizeof name);
    shown = strchr(name, '/') ? strchr(name, '/') + 1 : name;
    if (tl_input_capture_status(a->input) == TL_INPUT_CAPTURE_WAITING && devices == a->capture_devices)
        snprintf(out, size, "%s", pad ? text_OptionFirePadWaiting(t) : text_OptionFireKeyWaiting(t));
    else if (pad) (void)text_OptionFirePad(t, out, size, shown);
    else (void)text_OptionFireKey(t, out, size, shown);
}

/* The prompt line under the menu: the current device family's controls for Confirm and Back
   (the first binding of that family's devices), so it switches when a gamepad is used. */
static void prompt_refresh(app *a) {
    static const char *const pads[] = { "", "", "Xbox", "PlayStation", "Switch", "Gamepad" };
    uint32_t family = tl_input_current_family(a->input);
    uint32_t devices = family == TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD ? TL_INPUT_DEVICES_KEYBOARD_MOUSE : TL_INPUT_DEVICES_GAMEPAD;
    char *confirm = a->prompt_names[0], *back = a->prompt_names[1];
    uint32_t i = tl_input_binding_find(a->input, ACTION(Confirm), devices, 0);
    strcpy(confirm, "?");
    strcpy(back, "?");
    if (i != UINT32_MAX) tl_input_control_name(tl_input_binding_control(a->input, ACTION(Confirm), i), confirm, 40);
    i = tl_input_binding_find(a->input, ACTION(Back), devices, 0);
    if (i != UINT32_MAX) tl_input_control_name(tl_input_binding_control(a->input, ACTION(Back), i), back, 40);
    snprintf(a->prompt, sizeof a->prompt, "%s%s[%s] select   [%s] back", devices == TL_INPUT_DEVICES_GAMEPAD ? pads[family % 6] : "",
             devices == TL_INPUT_DEVICES_GAMEPAD ? "  " : "", strchr(confirm, '/') ? strchr(confirm, '/') + 1 : confirm,
             strchr(back, '/') ? strchr(back, '/') + 1 : back);
    a->menu.prompt_confirm = strchr(confirm, '/') ? strchr(confirm, '/') + 1 : confirm;
    a->menu.prompt_back = strchr(back, '/') ? strchr(back, '/') + 1 : back;
    a->menu.prompt_words[0] = text_PromptSelect(a->g.text);
    a->menu.prompt_words[1] = text_PromptBack(a->g.text);
    a->menu.prompt = a->prompt;
}

/* input.h tells a prompt when its glyph changes (device family, rebinding): the asset is loaded
   into the prompts' scope for the menu to draw. */
static void on_prompt_glyph(void *ctx, uint32_t action, uint32_t asset, uint32_t family) {
    app *a = (app *)ctx;
    int i = action == ACTION(Confirm) ? 0 : action == ACTION(Back) ? 1 : 2;
    (void)family;
    a->prompt_glyph_id[i] = asset;
    if (asset) a->menu.prompt_glyph[i] = tl_scope_load(a->prompt_scope, asset);
    else memset(&a->menu.prompt_glyph[i], 0, sizeof a->menu.prompt_glyph[i]);
}

static void prompts_watch(app *a) {
    a->prompt_scope = tl_scope_create(tl_content_root(a->g.content), "Prompts", TL_SCOPE_ENTITY);
    a->prompt_watch[0] = tl_input_prompt_watch(a->input, ACTION(Confirm), on_prompt_glyph, a);
    a->prompt_watch[1] = tl_input_prompt_watch(a->input, ACTION(Back), on_prompt_glyph, a);
    a->prompt_watch[2] = tl_input_prompt_watch(a->input, ACTION(Interact), on_prompt_glyph, a);
}

/* What render_menu shows: the top interface's items and selection. */
static void menu_refresh(app *a) {
    render_menu *m = &a->menu;
    uint32_t top = tl_interface_top(a->ui);
    m->open = top != 0;
    if (top == UI_TITLE) {
        m->count = 4;
        m->items[0] = text_MenuContinue(a->g.text), m->enabled[0] = game_has_save(&a->g, SAVE_SLOT);
        m->items[1] = text_MenuNewGame(a->g.text), m->enabled[1] = true;
        m->items[2] = text_MenuOptions(a->g.text), m->enabled[2] = true;
        m->items[3] = text_MenuQuit(a->g.text), m->enabled[3] = true;
    } else if (top == UI_PAUSE) {
        m->count = 4;
        m->items[0] = text_MenuResume(a->g.text), m->enabled[0] = true;
        m->items[1] = text_MenuSave(a->g.text), m->enabled[1] = a->g.saves != NULL;
        m->items[2] = text_MenuOptions(a->g.text), m->enabled[2] = true;
        m->items[3] = text_MenuTitle(a->g.text), m->enabled[3] = true;
    } else if (top == UI_OPTIONS) {
        m->count = 5;
        control_label(a, TL_INPUT_DEVICES_KEYBOARD_MOUSE, a->labels[0], sizeof a->labels[0]);
        control_label(a, TL_INPUT_DEVICES_GAMEPAD, a->labels[1], sizeof a->labels[1]);
        m->items[0] = a->labels[0], m->items[1] = a->labels[1];
        m->items[2] = text_MenuResetBindings(a->g.text), m->items[3] = text_MenuBack(a->g.text);
        m->items[4] = text_MenuLanguage(a->g.text); /* the language now: choosing it goes to the next */
        m->enabled[0] = m->enabled[1] = m->enabled[2] = m->enabled[3] = m->enabled[4] = true;
    }
    prompt_refresh(a);
    if (top) {
        int i;
        for (i = 0; i < m->count; i++) tl_interface_set_enabled(a->ui, top, (uint32_t)i + 1u, m->enabled[i]);
        m->selected = (int)tl_interface_selected(a->ui, top) - 1;
    }
}

static void menu_show(void *self) {
    menu_panel *p = (menu_panel *)self;
    menu_refresh(p->a);
}

/* Back to the game: nothing stacked (Gameplay on, Menu off), time running. */
static void resume(app *a) {
    tl_interface_clear(a->ui);
    a->menu.note = NULL;
    menu_refresh(a);
    tl_time_set_scale(&a->g.time, 1.0f);
}

/* A menu over nothing: the title, or the pause menu over the game; time stops. */
static void open_menu(app *a, uint32_t id) {
    tl_interface_clear(a->ui);
    a->menu.note = NULL;
    tl_interface_stack(a->ui, id);
    menu_refresh(a);
    tl_time_set_scale(&a->g.time, 0.0f); /* pauses the fixed steps */
}

static void title_confirm(void *self, uint32_t item) {
    app *a = ((menu_panel *)self)->a;
    switch (item) {
    case TITLE_CONTINUE:
        if (game_continue(&a->g, SAVE_SLOT)) {
            a->started = true;
            resume(a);
        }
        break;
    case TITLE_NEW:
        game_new(&a->g);
        a->started = true;
        resume(a);
        break;
    case TITLE_OPTIONS: tl_interface_stack(a->ui, UI_OPTIONS); break;
    case TITLE_QUIT: a->running = false; break;
    default: break;
    }
}

static void pause_confirm(void *self, uint32_t item) {
    app *a = ((menu_panel *)self)->a;
    switch (item) {
    case PAUSE_RESUME: resume(a); break;
    case PAUSE_SAVE:
        if (a->g.saves)
            a->menu.note = game_save(&a->g, SAVE_SLOT) ? text_NoteSaved(a->g.text) : text_NoteSaveFailed(a->g.text);
        menu_refresh(a);
        break;
    case PAUSE_OPTIONS: tl_interface_stack(a->ui, UI_OPTIONS); break;
    case PAUSE_TITLE: open_menu(a, UI_TITLE); break;
    default: break;
    }
}

/* The pause menu is cancellable: Back resumes the game. */
static void pause_cancelled(void *self) { resume(((menu_panel *)self)->a); }

static void options_confirm(void *self, uint32_t item) {
    app *a = ((menu_panel *)self)->a;
    uint32_t devices = item == OPTION_FIRE_PAD ? TL_INPUT_DEVICES_GAMEPAD : TL_INPUT_DEVICES_KEYBOARD_MOUSE;
    uint32_t index = tl_input_binding_find(a->input, ACTION(Fire), devices, 0);
    if ((item == OPTION_FIRE_KEY || item == OPTION_FIRE_PAD) && index != UINT32_MAX) {
        uint32_t cancel = TL_INPUT_CONTROL(TL_INPUT_CLASS_KEY, SDL_SCANCODE_ESCAPE);
        if (tl_input_capture_begin(a->input, ACTION(Fire), index, cancel) == TL_INPUT_OK) {
            a->capture_devices = devices;
            a->menu.note = item == OPTION_FIRE_PAD ? text_NotePressButton(a->g.text) : text_NotePressKey(a->g.text);
        }
    } else if (item == OPTION_RESET) {
        tl_input_reset_bindings(a->input);
        save_bindings(a);
        a->menu.note = text_NoteBindingsReset(a->g.text);
    } else if (item == OPTION_BACK) {
        tl_interface_cancel(a->ui);
    } else if (item == OPTION_LANGUAGE) {
        game_next_locale(&a->g); /* remembered in the save (game.c) */
    }
    menu_refresh(a);
}

static void options_cancelled(void *self) { ((menu_panel *)self)->a->menu.note = NULL; }

/* A capture in progress ends at an update: saved when done, told when refused. */
static void capture_poll(app *a) {
    static tl_input_capture last = TL_INPUT_CAPTURE_NONE;
    tl_input_capture now = tl_input_capture_status(a->input);
    if (now == last) return;
    last = now;
    if (now == TL_INPUT_CAPTURE_DONE) {
        save_bindings(a);
        a->menu.note = text_NoteRebound(a->g.text);
    } else if (now == TL_INPUT_CAPTURE_CONFLICT) {
        a->menu.note = text_NoteTaken(a->g.text);
    } else if (now == TL_INPUT_CAPTURE_CANCELLED) {
        a->menu.note = NULL;
    }
    menu_refresh(a);
}

static bool menus_open(app *a, const tl_logger *logger) {
    static const tl_interface_vtable title_vt = { NULL, menu_show, NULL, NULL, NULL, title_confirm, NULL, NULL };
    static const tl_interface_vtable pause_vt = { NULL, menu_show, NULL, pause_cancelled, menu_show, pause_confirm, NULL, NULL };
    static const tl_interface_events events = TL_INTERFACE_EVENTS_INIT(Iris_Events_);
    static const tl_interface_vtable options_vt = { NULL, menu_show, NULL, options_cancelled, NULL, options_confirm, NULL, NULL };
    tl_interface_desc d;
    uint32_t i;
    memset(&d, 0, sizeof d);
    d.logger = logger;
    d.commands = menu_commands;
    d.set_mode = set_mode;
    d.hooks_ctx = a->input;
    d.registry = &a->g.registry;
    d.events = &events; /* the game's Iris.Events ordinals (its own events came first) */
    if (!(a->ui = tl_interface_create(&d))) return false;
    a->title_menu.a = a->pause_menu.a = a->options_menu.a = a;
    a->title_menu.id = UI_TITLE;
    a->pause_menu.id = UI_PAUSE;
    a->options_menu.id = UI_OPTIONS;
    tl_interface_register(a->ui, UI_TITLE, &title_vt, &a->title_menu, 0);
    tl_interface_register(a->ui, UI_PAUSE, &pause_vt, &a->pause_menu, TL_INTERFACE_CANCELLABLE);
    tl_interface_register(a->ui, UI_OPTIONS, &options_vt, &a->options_menu, TL_INTERFACE_CANCELLABLE);
    for (i = TITLE_CONTINUE; i <= TITLE_QUIT; i++) tl_interface_add_selectable(a->ui, UI_TITLE, i, 0, (int32_t)i);
    for (i = PAUSE_RESUME; i <= PAUSE_TITLE; i++) tl_interface_add_selectable(a->ui, UI_PAUSE, i, 0, (int32_t)i);
    for (i = OPTION_FIRE_KEY; i <= OPTION_LANGUAGE; i++) tl_interface_add_selectable(a->ui, UI_OPTIONS, i, 0, (int32_t)i);
    return true;
}

/* ---- the sign: an interactable of the first level ---------------------------------------------- */

#define SIGN_ID 1u
#define SIGN_TILES_RIGHT 3 /* of the player's start */

/* Where the sign stands: the centre of the tile SIGN_TILES_RIGHT right of the first level's start. */
static tl_fpv2 sign_position(const app *a) {
    const sim_level *level = &a->g.world.levels[0];
    return tl_fpv2_make(tl_fp_add(tl_fp_from_int(level->spawns[0].x + SIGN_TILES_RIGHT), TL_FP_HALF),
                        tl_fp_add(tl_fp_from_int(level->spawns[0].y), TL_FP_HALF));
}

/* Its answer to OnInteract: the HUD's message line. */
static bool read_sign(void *ctx, uint32_t id) {
    app *a = (app *)ctx;
    (void)id;
    snprintf(a->g.feed.message, sizeof a->g.feed.message, "SIGN: 100 POINTS OPEN THE EXIT");
    a->g.feed.message_frames = 120;
    return true;
}

static void sign_add(app *a) {
    tl_interface_interactable_desc sign;
    memset(&sign, 0, sizeof sign);
    sign.id = SIGN_ID;
    sign.interact = read_sign;
    sign.ctx = a;
    sign.shape = TL_INTERFACE_CIRCLE;
    sign.centre = sign_position(a);
    sign.radius = tl_fp_from_fraction(3, 2);
    tl_interface_interactable_add(a->ui, &sign);
    a->menu.sign = tl_scope_load(a->prompt_scope, Content_Game_Sprites_sign); /* drawn in the first level */
    a->menu.sign_at = sign.centre;
}

/* Each frame of play: the player in range of the sign (in the first level only) may read it. */
static void sign_update(app *a) {
    const sim_header *h = sim_head_const(a->g.block);
    tl_fpv2 far = tl_fpv2_make(tl_fp_from_int(-100), tl_fp_from_int(-100));
    tl_interface_detect(a->ui, a->started && h->level == 0 ? h->player : far);
    a->menu.sign_shown = a->started && h->level == 0;
    a->menu.interact_prompt = NULL;
    if (tl_interface_in_range(a->ui) == SIGN_ID) { /* "E read", or "x read" with a pad */
        uint32_t devices = tl_input_current_family(a->input) == TL_INPUT_FAMILY_MOUSE_AND_KEYBOARD
                               ? TL_INPUT_DEVICES_KEYBOARD_MOUSE
                               : TL_INPUT_DEVICES_GAMEPAD;
        uint32_t i = tl_input_binding_find(a->input, ACTION(Interact), devices, 0);
        char name[40] = "?";
        if (i != UINT32_MAX) tl_input_control_name(tl_input_binding_control(a->input, ACTION(Interact), i), name, sizeof name);
        (void)text_InteractRead(a->g.text, a->interact_text, sizeof a->interact_text,
                                strchr(name, '/') ? strchr(name, '/') + 1 : name);
        a->menu.interact_prompt = a->interact_text;
    }
    if (tl_input_pressed(a->input, ACTION(Interact)) && tl_interface_in_range(a->ui) == SIGN_ID)
        (void)tl_interface_interact(a->ui, NULL);
}

/* A note is a text of the locale it was shown in, whose table game_set_locale releases once no
   locale shown needs it: a switch takes the note away (menu_refresh fetches the items again). */
static void on_locale_changed(void *ctx, const char *locale) {
    (void)locale;
    ((app *)ctx)->menu.note = NULL;
}

static bool controls_open(app *a) {
    static const tl_input_events events = TL_INPUT_EVENTS_INIT(Iris_Events_);
    tl_input_desc d;
    memset(&d, 0, sizeof d);
    d.map = input_map();
    d.registry = &a->g.registry;
    d.events = &events; /* the game's Iris.Events ordinals (its own events came first) */
    d.logger = &a->g.logger;
    if (!(a->input = tl_input_create(&d))) return false;
    tl_input_set_mode_active(a->input, TL_INPUT_MODE_GAMEPLAY, true);
    load_bindings(a);
    if (!menus_open(a, &a->g.logger)) return false;
    prompts_watch(a);
    Iris_Events_OnLocaleChanged_subscribe(&a->g.registry, on_locale_changed, a);
    sign_add(a);
    return true;
}

static void controls_close(app *a) {
    tl_input_prompt_unwatch(a->input, a->prompt_watch[0]);
    tl_input_prompt_unwatch(a->input, a->prompt_watch[1]);
    tl_input_prompt_unwatch(a->input, a->prompt_watch[2]);
    tl_scope_dispose(a->prompt_scope);
    tl_interface_destroy(a->ui);
    tl_input_destroy(a->input);
    tl_input_sdl2_close_all();
}

/* ---- the frame -------------------------------------------------------------------------------- */

/* One fixed step of the core's time service: the simulation's frame. */
static void on_fixed_update(void *ctx, float dt) {
    app *a = (app *)ctx;
    (void)dt;
    if (a->recording_on) input_tape_push(&a->recording, a->g.input);
    game_frame(&a->g, a->g.input);
}

/* The menus' sounds (sound.c), from the commands tl_interface_update is about to apply. */
static void menu_sounds(app *a) {
    uint32_t commands = menu_commands(a->input), top = tl_interface_top(a->ui);
    if (commands & 0xfu) game_sound_ui(a->sound, TL_AUDIO_UI_NAVIGATE);
    if (commands & (1u << TL_INTERFACE_CONFIRM)) game_sound_ui(a->sound, TL_AUDIO_UI_CONFIRM);
    if ((commands & (1u << TL_INTERFACE_CANCEL)) && (top == UI_PAUSE || top == UI_OPTIONS))
        game_sound_ui(a->sound, TL_AUDIO_UI_CANCEL);
}

/* SDL's events into input.h, one update, then the menus or the game read the actions. */
static void handle_events(app *a) {
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        if (e.type == SDL_QUIT) a->running = false;
        else (void)tl_input_sdl2_feed(a->input, &e);
    }
    tl_input_update(a->input);
    capture_poll(a);
    if (tl_interface_top(a->ui)) {
        if (tl_input_capture_status(a->input) != TL_INPUT_CAPTURE_WAITING) {
            menu_sounds(a);
            tl_interface_update(a->ui);
        }
        menu_refresh(a);
        a->g.input = 0;
    } else {
        if (tl_input_pressed(a->input, ACTION(Pause))) open_menu(a, UI_PAUSE);
        sign_update(a);
        a->g.input = gameplay_input(a->input);
    }
}

/* A performance-counter interval in whole nanoseconds, for the time service's exact 60 Hz steps
   (no overflow for counter rates under 18 GHz). */
static uint64_t counter_ns(Uint64 ticks) {
    Uint64 rate = SDL_GetPerformanceFrequency();
    return (uint64_t)(ticks / rate * 1000000000u + ticks % rate * 1000000000u / rate);
}

/* --record FILE: the simulation's input of every fixed step is kept while the game runs (play or
   drive) and written when it ends. False, said, when it cannot be kept or written: the run then
   fails (an older recording of that name stays as it was, inputs.c). */
static bool recording_start(app *a, const options *o) {
    a->recording_on = o->record && input_tape_init(&a->recording, 4096);
    if (o->record && !a->recording_on) fprintf(stderr, "%s: the recording was not written: out of memory\n", o->record);
    return a->recording_on || !o->record;
}

static bool recording_finish(app *a, const options *o) {
    bool ok;
    if (!a->recording_on) return true;
    ok = input_tape_write(&a->recording, o->record, "recorded by game --record");
    input_tape_free(&a->recording);
    a->recording_on = false;
    return ok;
}

static int play(app *a, const options *o) {
    Uint64 last = SDL_GetPerformanceCounter();
    if (!recording_start(a, o) || !controls_open(a)) return 1;
    Iris_Events_OnFixedUpdate_subscribe(&a->g.registry, on_fixed_update, a);
    a->running = true;
    open_menu(a, UI_TITLE);
    while (a->running) {
        Uint64 now = SDL_GetPerformanceCounter();
        handle_events(a);
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
    controls_close(a);
    return recording_finish(a, o) ? 0 : 1;
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
static bool matches(const unsigned char *rgba, const char *expected_path, uint32_t tolerance) {
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
    printf("screenshot: %zu of %zu pixels differ from %s (tolerance %u per mille)\n", off, n, expected_path, (unsigned)tolerance);
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

/* ---- driven: a script of SDL events (the tests) ------------------------------------------------ */

/* One line of a drive script: "FRAME key NAME down|up", "FRAME pad attach VENDOR PRODUCT", "FRAME pad
   button NAME down|up", "FRAME pad axis NAME VALUE", "FRAME pad detach", "FRAME print", or
   "FRAME end". Keys are pushed with SDL_PushEvent, the pad is a virtual controller. */
typedef struct driver {
    int pad_index;
    SDL_Joystick *pad;
} driver;

static bool drive_key(const char *name, const char *how) {
    SDL_Event e;
    SDL_zero(e);
    e.type = strcmp(how, "down") == 0 ? SDL_KEYDOWN : SDL_KEYUP;
    e.key.state = e.type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.scancode = SDL_GetScancodeFromName(name);
    return e.key.keysym.scancode != SDL_SCANCODE_UNKNOWN && SDL_PushEvent(&e) == 1;
}

static bool drive_pad(driver *d, const char *what, const char *name, const char *arg) {
    if (strcmp(what, "attach") == 0) {
        SDL_VirtualJoystickDesc v;
        SDL_zero(v);
        v.version = SDL_VIRTUAL_JOYSTICK_DESC_VERSION;
        v.type = SDL_JOYSTICK_TYPE_GAMECONTROLLER;
        v.naxes = SDL_CONTROLLER_AXIS_MAX;
        v.nbuttons = SDL_CONTROLLER_BUTTON_MAX;
        v.vendor_id = (Uint16)strtoul(name, NULL, 16);
        v.product_id = (Uint16)strtoul(arg, NULL, 16);
        v.name = "virtual pad";
        d->pad_index = SDL_JoystickAttachVirtualEx(&v);
        d->pad = d->pad_index >= 0 ? SDL_JoystickOpen(d->pad_index) : NULL;
        return d->pad != NULL;
    }
    if (!d->pad) return false;
    if (strcmp(what, "button") == 0)
        return SDL_JoystickSetVirtualButton(d->pad, SDL_GameControllerGetButtonFromString(name),
                                            strcmp(arg, "down") == 0 ? SDL_PRESSED : SDL_RELEASED) == 0;
    if (strcmp(what, "axis") == 0)
        return SDL_JoystickSetVirtualAxis(d->pad, SDL_GameControllerGetAxisFromString(name), (Sint16)atoi(arg)) == 0;
    if (strcmp(what, "detach") == 0) {
        SDL_JoystickClose(d->pad);
        d->pad = NULL;
        return SDL_JoystickDetachVirtual(d->pad_index) == 0;
    }
    return false;
}

static void drive_print(app *a, uint32_t frame) {
    char fire_key[40] = "none", fire_pad[40] = "none";
    uint32_t k = tl_input_binding_find(a->input, ACTION(Fire), TL_INPUT_DEVICES_KEYBOARD_MOUSE, 0);
    uint32_t p = tl_input_binding_find(a->input, ACTION(Fire), TL_INPUT_DEVICES_GAMEPAD, 0);
    if (k != UINT32_MAX) tl_input_control_name(tl_input_binding_control(a->input, ACTION(Fire), k), fire_key, sizeof fire_key);
    if (p != UINT32_MAX) tl_input_control_name(tl_input_binding_control(a->input, ACTION(Fire), p), fire_pad, sizeof fire_pad);
    printf("frame %u: menu %u selected %d started %d family %s fire %s %s input %x sign %s message \"%s\" glyphs %08x %08x %08x prompt \"%s\"\n",
           frame, tl_interface_top(a->ui), a->menu.open ? a->menu.selected + 1 : 0, a->started,
           tl_input_family_name(tl_input_current_family(a->input)), fire_key, fire_pad, a->g.input,
           tl_interface_in_range(a->ui) == SIGN_ID ? "in-range" : "away", a->g.feed.message, a->prompt_glyph_id[0], a->prompt_glyph_id[1],
           a->prompt_glyph_id[2], a->menu.prompt ? a->menu.prompt : "");
}

/* Runs the script frame by frame at a fixed 60 Hz (no clock); a screenshot of the last frame. */
static int drive(app *a, const options *o) {
    FILE *f = fopen(o->drive, "r");
    char line[256];
    driver d = { -1, NULL };
    uint32_t frame = 0, at;
    int rc = 0;
    if (!f || !recording_start(a, o) || !controls_open(a)) {
        if (f) fclose(f);
        recording_finish(a, o);
        return 1;
    }
    Iris_Events_OnFixedUpdate_subscribe(&a->g.registry, on_fixed_update, a);
    a->running = true;
    open_menu(a, UI_TITLE);
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char verb[32] = "", what[32] = "", name[32] = "", arg[32] = "";
        if (line[0] == '#' || sscanf(line, "%u %31s %31s %31s %31s", &at, verb, what, name, arg) < 2) continue;
        for (; frame < at && a->running; frame++) {
            handle_events(a);
            tl_time_frame_ns(&a->g.time, 16666667u);
        }
        if (strcmp(verb, "end") == 0) break;
        if (strcmp(verb, "print") == 0) drive_print(a, frame);
        else if (!(strcmp(verb, "key") == 0 ? drive_key(what, name) : strcmp(verb, "pad") == 0 && drive_pad(&d, what, name, arg))) {
            fprintf(stderr, "game: %s: cannot do \"%s\": %s\n", o->drive, line, SDL_GetError());
            rc = 1;
        }
    }
    fclose(f);
    if (rc == 0 && o->screenshot) {
        unsigned char *rgba;
        render_frame(&a->render, &a->g, &a->menu);
        rgba = read_frame(a->sdl);
        rc = rgba && stbi_write_png(o->screenshot, RENDER_W, RENDER_H, 4, rgba, RENDER_W * 4) && looks_drawn(rgba) &&
                     (!o->expect || matches(rgba, o->expect, o->tolerance))
                 ? 0
                 : 1;
        free(rgba);
    }
    if (d.pad) SDL_JoystickClose(d.pad);
    Iris_Events_OnFixedUpdate_unsubscribe(&a->g.registry, on_fixed_update, a);
    controls_close(a);
    return recording_finish(a, o) ? rc : 1;
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
        else if (strcmp(k, "--frames") == 0) {
            if (!count_arg("game", v, "--frames", 1, UINT32_MAX, &o->frames)) return false;
        }
        else if (strcmp(k, "--screenshot") == 0) o->screenshot = v;
        else if (strcmp(k, "--expect") == 0) o->expect = v;
        else if (strcmp(k, "--locale") == 0) o->locale = v;
        else if (strcmp(k, "--tolerance") == 0) {
            if (!count_arg("game", v, "--tolerance (pixels per mille)", 0, 1000, &o->tolerance)) return false;
        }
        else if (strcmp(k, "--drive") == 0) o->drive = v;
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
    if (SDL_Init(software ? SDL_INIT_VIDEO : SDL_INIT_VIDEO | SDL_INIT_GAMECONTROLLER) != 0) {
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
    d.locale = o.locale;
#if defined(GAME_SOUND)
    d.external_fader = o.replay == NULL; /* the sound provides the fader's events (sound.h) */
#endif
#if defined(GAME_VAULT_IMAGE_DIR) /* development builds (game-dev): the source tree's generated directory */
    d.vault_image_dir = GAME_VAULT_IMAGE_DIR;
#endif
    if (!game_open(&a.g, &d)) {
        fprintf(stderr, "game: the game did not start: %s\n", a.g.refusal);
        return 1;
    }
    if (o.drive) SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1"); /* no window has focus */
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
    rc = o.replay ? screenshot(&a, &o) : o.drive ? drive(&a, &o) : play(&a, &o);
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
