/* sound.c - the game's sound (see sound.h): audio.h with the SDL_mixer backend
 * (backends/sdl2/tl_audio_sdl_mixer.h), clips from the content pack's Sounds category. */
#include "sound.h"

#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <SDL_mixer.h>

#include "content_game.h"
#include "iris_events.h"
#include "levels.h"
#include "tl_audio_sdl_mixer.h"

#define SOUND_VOICES 24

struct game_sound {
    game *g;
    tl_audio_sdl_mixer mixer;
    tl_audio *audio;
    tl_scope scope; /* where a clip's bytes are loaded, until SDL_mixer has decoded them */
    tl_audio_object waterfall;
    uint32_t level;
    bool exit_open;
};

/* The clip source: a Sounds asset's bytes (the category has no kind: content.h keeps it as its
   bytes), released as soon as SDL_mixer has decoded them. */
static bool clip_bytes(void *ctx, uint32_t clip, const void **bytes, size_t *size) {
    game_sound *s = (game_sound *)ctx;
    tl_asset asset = tl_scope_load(s->scope, clip);
    if (!tl_asset_object(asset)) return false;
    *bytes = tl_asset_object(asset);
    *size = tl_asset_size(asset);
    return true;
}
static void clip_release(void *ctx, uint32_t clip) { tl_scope_release(((game_sound *)ctx)->scope, clip); }

static void on_enemy_killed(void *ctx, const struct sim_kill *kill) {
    (void)kill;
    tl_audio_play(((game_sound *)ctx)->audio, Content_Game_Sounds_hit, TL_FP_ONE);
}
static void on_item_picked(void *ctx, uint32_t item) {
    (void)item;
    tl_audio_play(((game_sound *)ctx)->audio, Content_Game_Sounds_pickup, tl_fp_from_fraction(4, 5));
}
static void on_player_hurt(void *ctx, int32_t health) {
    (void)health;
    tl_audio_play(((game_sound *)ctx)->audio, Content_Game_Sounds_hurt, TL_FP_ONE);
}

/* Each level's music and ambience with their volumes (the seed's scene entry). */
static void set_scenarios(game_sound *s) {
    tl_audio_scenario meadow = {Content_Game_Sounds_music_meadow, Content_Game_Sounds_atmos_meadow,
                                tl_fp_from_fraction(7, 10), tl_fp_from_fraction(1, 2)};
    tl_audio_scenario cave = {Content_Game_Sounds_music_cave, Content_Game_Sounds_atmos_cave,
                              tl_fp_from_fraction(7, 10), tl_fp_from_fraction(3, 5)};
    tl_audio_set_level_scenario(s->audio, NEXUS_LEVELS_U32(Nexus_Levels_Meadow), &meadow);
    tl_audio_set_level_scenario(s->audio, NEXUS_LEVELS_U32(Nexus_Levels_Cave), &cave);
}

/* The meadow's waterfall, in its bottom-left corner: a zone that lowers the music to 30% at full
   immersion (within 2 tiles), its own roar on the atmos bus, heard from 8 tiles. */
static void place_waterfall(game_sound *s) {
    tl_audio_object_desc d = {0};
    d.name = "Waterfall";
    d.level = NEXUS_LEVELS_U32(Nexus_Levels_Meadow);
    d.clip = Content_Game_Sounds_waterfall;
    d.bus = TL_AUDIO_BUS_ATMOS;
    d.position = tl_fpv3_make(tl_fp_from_fraction(5, 2), tl_fp_from_fraction(25, 2), TL_FP_ZERO);
    d.volume = tl_fp_from_fraction(4, 5);
    d.min_distance = TL_FP_ONE;
    d.max_distance = tl_fp_from_int(8);
    d.zone = true;
    d.radius_coefficient = tl_fp_from_fraction(1, 4);
    d.influence = tl_fp_from_fraction(7, 10);
    s->waterfall = tl_audio_object_create(s->audio, &d);
}

static bool open_module(game_sound *s) {
    static const tl_audio_events events = TL_AUDIO_EVENTS_INIT(Iris_Events_);
    tl_audio_desc desc = {0};
    desc.backend = tl_audio_sdl_mixer_backend(&s->mixer);
    desc.clips.bytes = clip_bytes;
    desc.clips.release = clip_release;
    desc.clips.ctx = s;
    desc.registry = &s->g->registry;
    desc.events = &events;
    desc.logger = &s->g->logger;
    desc.level_id = tl_level_id;
    desc.fade_speed = tl_fp_from_int(2); /* a full fade in half a second */
    desc.voices = SOUND_VOICES;
    desc.ui.clips[TL_AUDIO_UI_NAVIGATE] = Content_Game_Sounds_ui_move;
    desc.ui.clips[TL_AUDIO_UI_CONFIRM] = Content_Game_Sounds_ui_confirm;
    desc.ui.clips[TL_AUDIO_UI_CANCEL] = Content_Game_Sounds_ui_cancel;
    desc.fader.provide = true; /* the listener fades out behind the game's fader, and back */
    desc.fader.display = game_display_fader;
    desc.fader.hide = game_hide_fader;
    desc.fader.ctx = s->g;
    return (s->audio = tl_audio_create(&desc)) != NULL;
}

game_sound *game_sound_open(game *g) {
    game_sound *s = (game_sound *)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->g = g;
    if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0 || Mix_OpenAudio(44100, MIX_DEFAULT_FORMAT, 2, 1024) != 0) {
        tl_log(&g->logger, TL_LOG_LEVEL_WARNING, "Game", "no sound: %s", SDL_GetError());
        free(s);
        return NULL;
    }
    s->scope = tl_scope_create(tl_content_root(g->content), "Sound", TL_SCOPE_ENTITY);
    if (!tl_audio_sdl_mixer_init(&s->mixer, SOUND_VOICES) || !open_module(s)) {
        game_sound_close(s);
        return NULL;
    }
    set_scenarios(s);
    place_waterfall(s);
    Iris_Events_OnEnemyKilled_subscribe(&g->registry, on_enemy_killed, s);
    Iris_Events_OnItemPicked_subscribe(&g->registry, on_item_picked, s);
    Iris_Events_OnPlayerHurt_subscribe(&g->registry, on_player_hurt, s);
    return s;
}

/* The exit's chime when it opens (the simulation says whether it is open; sound only reads). */
static void watch_exit(game_sound *s) {
    uint32_t level = sim_head(s->g->block)->level;
    bool open = sim_exit_open(s->g->block, &s->g->world);
    if (open && !s->exit_open && level == s->level) tl_audio_play(s->audio, Content_Game_Sounds_exit_open, TL_FP_ONE);
    s->exit_open = open;
    s->level = level;
}

void game_sound_frame(game_sound *s, double seconds) {
    tl_fpv2 player;
    if (!s) return;
    player = sim_head(s->g->block)->player;
    tl_audio_drive_listener(s->audio, tl_fpv3_make(player.x, player.y, TL_FP_ZERO), NULL);
    watch_exit(s);
    tl_audio_update(s->audio, seconds);
}

void game_sound_ui(game_sound *s, tl_audio_ui_sound which) {
    if (s) tl_audio_play_ui(s->audio, which);
}

void game_sound_close(game_sound *s) {
    if (!s) return;
    if (s->audio) {
        Iris_Events_OnEnemyKilled_unsubscribe(&s->g->registry, on_enemy_killed, s);
        Iris_Events_OnItemPicked_unsubscribe(&s->g->registry, on_item_picked, s);
        Iris_Events_OnPlayerHurt_unsubscribe(&s->g->registry, on_player_hurt, s);
    }
    tl_audio_destroy(s->audio); /* unsubscribes it, stops every channel, frees the chunks */
    if (tl_scope_valid(s->scope)) tl_scope_dispose(s->scope);
    Mix_CloseAudio();
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    free(s);
}

void game_sound_state_of(const game_sound *s, game_sound_state *state) {
    memset(state, 0, sizeof *state);
    if (!s) return;
    tl_audio_presented_level(s->audio, &state->presented);
    state->voices_busy = tl_audio_get_stats(s->audio).voices_busy;
    state->zone_attenuation = tl_fp_to_double(tl_audio_zone_attenuation(s->audio));
    state->waterfall_gain = tl_fp_to_double(tl_audio_object_gain(s->waterfall));
    state->listener_volume = tl_fp_to_double(tl_audio_listener_volume(s->audio));
}
