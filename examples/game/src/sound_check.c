/* sound_check.c - the game's sound on the real SDL_mixer, its output written by SDL's disk audio
 * driver (the game-sound test):
 *
 *   game-sound-check CONTENT OUTPUT.raw
 *
 * The whole game (core, levels, content) with sound.c, one game frame per 1/60 s of audio mixed
 * (the mixer's own clock): the meadow is presented and its music and ambience fade in; the player
 * walks to the waterfall, whose zone lowers the music to 30%; a pickup plays its chime; given the
 * exit's score (as kills would give it: the check's one change to the simulation's state), the
 * exit opens with its chime and the player walks through it: the transition fades the listener
 * out behind the fader, the cave's music and ambience replace the meadow's. Then the file is read
 * back: silence before the presentation and at the fader's darkest, sound after (RMS).
 * No window: the replays and their hashes never involve sound. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <SDL_mixer.h>

#include "iris_events.h"
#include "levels.h"
#include "sound.h"

#define RATE 44100

static SDL_atomic_t mixed; /* frames mixed, from the post-mix hook */
static void count_mixed(void *udata, Uint8 *stream, int len) {
    (void)udata;
    (void)stream;
    SDL_AtomicAdd(&mixed, len / 4);
}

static int frames_run; /* game frames so far: frame k runs once k/60 s more have been mixed */
static int clock_base;

/* Game frames with `input` while `more` says so (at most `limit`), each once its 1/60 s has been
   mixed. */
static int run(game *g, game_sound *s, uint32_t input, int limit, bool (*more)(game *)) {
    int f;
    for (f = 0; f < limit && (!more || more(g)); f++, frames_run++) {
        while (SDL_AtomicGet(&mixed) - clock_base < frames_run * RATE / 60) SDL_Delay(1);
        game_frame(g, input);
        game_sound_frame(s, 1.0 / 60);
    }
    return f;
}

static bool far_from_waterfall(game *g) {
    tl_fpv2 p = sim_head(g->block)->player;
    double dx = tl_fp_to_double(p.x) - 2.5, dy = tl_fp_to_double(p.y) - 12.5;
    return dx * dx + dy * dy > 1.5 * 1.5;
}

static bool in_meadow(game *g) { return sim_head(g->block)->level == 0; }

/* Through the exit: the clock at the first frame the listener is silent, and whether the cave's
   scenario took over. */
static bool walk_to_the_cave(game *g, game_sound *s, double *silent_at) {
    game_sound_state st;
    int f;
    sim_head(g->block)->score = g->world.levels[0].exit_score; /* the exit opens */
    run(g, s, SIM_DOWN, 40, NULL);                              /* to the bottom row */
    run(g, s, SIM_RIGHT, 400, in_meadow);                       /* along it to the exit */
    *silent_at = -1;
    for (f = 0; f < 240; f++) { /* the transition: fader and listener out, present, back in */
        run(g, s, 0, 1, NULL);
        game_sound_state_of(s, &st);
        if (*silent_at < 0 && st.listener_volume == 0) *silent_at = (double)(SDL_AtomicGet(&mixed) - clock_base) / RATE;
    }
    game_sound_state_of(s, &st);
    printf("cave: %s, silent behind the fader at %.2f s, listener back at %.2f, %u voices\n",
           st.presented == NEXUS_LEVELS_U32(Nexus_Levels_Cave) ? "presented" : "not presented", *silent_at,
           st.listener_volume, st.voices_busy);
    return st.presented == NEXUS_LEVELS_U32(Nexus_Levels_Cave) && *silent_at > 0 && st.listener_volume == 1.0 &&
           st.voices_busy >= 2;
}

static double window_rms(const int16_t *out, long frames, double at, double seconds) {
    long first = (long)(at * RATE), n = (long)(seconds * RATE), i;
    double sum = 0;
    if (first < 0 || first + n > frames) return -1;
    for (i = first; i < first + n; i++) sum += (double)out[2 * i] * out[2 * i];
    return sqrt(sum / (double)n);
}

/* The lowest RMS of the 10 ms windows between two times: where the fader is darkest. */
static double quietest(const int16_t *out, long frames, double from, double to) {
    double t, low = -1;
    for (t = from; t < to; t += 0.005) {
        double r = window_rms(out, frames, t, 0.01);
        if (r >= 0 && (low < 0 || r < low)) low = r;
    }
    return low;
}

static bool check_output(const char *path, double presented_at, double silent_at, double end) {
    FILE *f = fopen(path, "rb");
    long size, frames;
    int16_t *out;
    double before, after, dark, cave;
    if (!f) return false;
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fseek(f, 0, SEEK_SET);
    out = (int16_t *)malloc((size_t)size);
    if (!out || fread(out, 1, (size_t)size, f) != (size_t)size) size = 0;
    fclose(f);
    frames = size / 4; /* 0 when unread: both windows are then -1 */
    before = window_rms(out, frames, presented_at - 0.12, 0.1);
    after = window_rms(out, frames, presented_at + 0.75, 0.5); /* the fade-in took 0.35 s */
    dark = quietest(out, frames, presented_at + silent_at - 0.05, presented_at + silent_at + 0.15);
    cave = window_rms(out, frames, presented_at + end - 0.6, 0.5);
    printf("output: %.2f s; RMS 0.1 s before the meadow %.0f, 0.5 s from 0.75 s after %.0f; behind the "
           "fader (the quietest 10 ms) %.1f; in the cave %.0f\n", (double)frames / RATE, before, after, dark, cave);
    free(out);
    return before >= 0 && before < 30 && after > 500 && dark >= 0 && dark < 5 && cave > 500;
}

int main(int argc, char **argv) {
    static game g;
    game_desc d;
    game_sound *s;
    game_sound_state st;
    double presented_at, silent_at, end;
    int walked;
    bool ok = true;
    if (argc != 3) {
        fprintf(stderr, "usage: game-sound-check CONTENT OUTPUT.raw\n");
        return 2;
    }
    setenv("SDL_AUDIODRIVER", "disk", 1);
    setenv("SDL_DISKAUDIOFILE", argv[2], 1);
    memset(&d, 0, sizeof d);
    d.content_dir = argv[1];
    d.seed = UINT64_C(0x7468726561646c6b);
    d.quiet = true;
    d.external_fader = true;
    if (SDL_Init(0) != 0 || !game_open(&g, &d) || !(s = game_sound_open(&g))) {
        fprintf(stderr, "game-sound-check: no game or no sound (%s)\n", g.refusal[0] ? g.refusal : SDL_GetError());
        return 1;
    }
    Mix_SetPostMix(count_mixed, NULL);
    SDL_Delay(150); /* silence first: nothing is presented yet */
    clock_base = SDL_AtomicGet(&mixed);
    presented_at = (double)clock_base / RATE;
    run(&g, s, 0, 90, NULL); /* 1.5 s: the meadow is presented at the first frame */
    game_sound_state_of(s, &st);
    printf("meadow: presented %s, %u voices, zone attenuation %.2f\n",
           st.presented == NEXUS_LEVELS_U32(Nexus_Levels_Meadow) ? "yes" : "no", st.voices_busy, st.zone_attenuation);
    ok &= st.presented == NEXUS_LEVELS_U32(Nexus_Levels_Meadow) && st.voices_busy >= 2 && st.zone_attenuation > 0.99;
    walked = run(&g, s, SIM_LEFT | SIM_DOWN, 240, far_from_waterfall);
    run(&g, s, 0, 30, NULL);
    game_sound_state_of(s, &st);
    printf("waterfall: walked %d frames, zone attenuation %.2f, its roar at %.2f\n", walked, st.zone_attenuation, st.waterfall_gain);
    ok &= far_from_waterfall(&g) == false && st.zone_attenuation < 0.45 && st.waterfall_gain > 0.5;
    Iris_Events_OnItemPicked_publish(&g.registry, 1);
    game_sound_state_of(s, &st);
    printf("pickup: %u voices\n", st.voices_busy);
    ok &= st.voices_busy >= 4; /* music, atmos, the roar, the chime */
    ok &= walk_to_the_cave(&g, s, &silent_at);
    end = (double)(SDL_AtomicGet(&mixed) - clock_base) / RATE;
    game_sound_close(s);
    game_close(&g);
    SDL_Quit();
    ok &= check_output(argv[2], presented_at, silent_at, end);
    puts(ok ? "ok: the game's sound" : "FAIL: the game's sound");
    return ok ? 0 : 1;
}
