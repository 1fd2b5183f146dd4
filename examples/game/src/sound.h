/* sound.h - the game's sound in the window (audio.h, the seed's Aura, on SDL_mixer): each level's
 * music and ambience cross-fading on the level change, the listener faded behind the fader,
 * effects for hits, pickups, the player's hurts and the exit opening, interface sounds in the
 * menu, and the meadow's waterfall, a zone that lowers the music as the player nears it.
 * Only the window has sound: the headless driver, the replays and the rollback never open it, so
 * no frame hash depends on it (audio never feeds the simulation). */
#ifndef GAME_SOUND_H
#define GAME_SOUND_H

#include "game.h"

typedef struct game_sound game_sound;

/* Opens the audio device and the module; NULL (logged) when there is no device: the game plays
   silent. The game must have been opened with desc.external_fader: the module is the fader's
   provider and polls the game's own fader alongside. */
game_sound *game_sound_open(game *g);
/* Once a rendered frame, with its real seconds: the listener at the player, the exit, the update. */
void game_sound_frame(game_sound *s, double seconds);
void game_sound_ui(game_sound *s, tl_audio_ui_sound which);
void game_sound_close(game_sound *s);

/* What the sound decided, for tests/sound_check.c (presentation only: floats). */
typedef struct game_sound_state {
    uint32_t presented;      /* the level audio.h follows, 0 before the first */
    uint32_t voices_busy;
    double zone_attenuation; /* the waterfall's hold on the music: 1 far away, 0.3 beside it */
    double waterfall_gain;   /* its roar's */
    double listener_volume;  /* 0 behind the fader */
} game_sound_state;
void game_sound_state_of(const game_sound *s, game_sound_state *state);

#endif
