#!/usr/bin/env python3
"""Synthesises the game's sounds as WAV files (16-bit mono PCM; Python's wave module, nothing
downloaded). Run it once and commit the WAVs: they are sources of the content pack, like the
sprites make_sprites.py draws. The same run writes the same bytes (seeded noise).

    python3 examples/game/tools/make_sounds.py examples/game/assets/Sounds

Music and ambience loop (their ends meet their starts), at 11,025 Hz to stay small; effects and
interface sounds are short, at 22,050 Hz.
"""
import math
import os
import random
import struct
import sys
import wave

LOOP_RATE = 11025
FX_RATE = 22050


def note(semitones_from_a4):
    return 440.0 * 2 ** (semitones_from_a4 / 12.0)


def pluck(buf, rate, start, hz, seconds, level, harmonics=(1.0, 0.35, 0.15)):
    """A plucked tone added into buf at `start` seconds: harmonics under an exponential decay."""
    first = int(start * rate)
    for i in range(int(seconds * rate)):
        t = i / rate
        env = math.exp(-4.0 * t / seconds) * min(1.0, t * 200.0)
        v = sum(h * math.sin(2 * math.pi * hz * (k + 1) * t) for k, h in enumerate(harmonics))
        j = (first + i) % len(buf)  # wraps: a note past the end rings into the loop's start
        buf[j] += level * env * v


def noise(rng, n, smooth):
    """Low-passed white noise (one-pole filter, coefficient `smooth`)."""
    out, y = [], 0.0
    for _ in range(n):
        y += smooth * (rng.uniform(-1, 1) - y)
        out.append(y)
    return out


def seamless(buf, rate, fade=0.25):
    """The last `fade` seconds cross-faded into the first, then cut: the loop has no seam."""
    n = int(fade * rate)
    head, tail = buf[:n], buf[-n:]
    body = buf[n:-n] if n else buf
    mixed = [tail[i] * (1 - i / n) + head[i] * (i / n) for i in range(n)]
    return mixed + body


def melody(notes, beat, bass, rate, level):
    seconds = len(notes) * beat
    buf = [0.0] * int(seconds * rate)
    for i, n in enumerate(notes):
        if n is not None:
            pluck(buf, rate, i * beat, note(n), beat * 1.8, level)
    for i, n in enumerate(bass):
        pluck(buf, rate, i * beat * 4, note(n), beat * 4, level * 0.8, (1.0, 0.2))
    return buf


def music_meadow():
    # C major pentatonic, bright: 32 eighths at 0.25 s = 8 s.
    tune = [3, 7, 10, 7, 12, 10, 7, 5, 3, 5, 7, 10, 7, 5, 3, None,
            5, 8, 12, 8, 15, 12, 10, 8, 7, 10, 12, 10, 7, 5, 3, None]
    bass = [-21, -16, -18, -14, -21, -16, -14, -21]
    return melody(tune, 0.25, bass, LOOP_RATE, 0.12)


def music_cave():
    # A minor, slow and low: 16 quarters at 0.5 s = 8 s.
    tune = [0, None, 3, 7, 5, None, 3, 2, 0, None, -2, 0, 3, None, 2, None]
    bass = [-24, -21, -19, -24]
    return melody([n - 12 if n is not None else None for n in tune], 0.5, bass, LOOP_RATE, 0.16)


def atmos_meadow(rng):
    n = 4 * LOOP_RATE
    wind = noise(rng, n + LOOP_RATE // 4, 0.02)
    buf = [0.6 * w * (0.7 + 0.3 * math.sin(2 * math.pi * i / len(wind))) for i, w in enumerate(wind)]
    for start in (0.4, 1.7, 2.9):  # birds: short rising chirps
        for c in range(3):
            first = int((start + c * 0.09) * LOOP_RATE)
            for i in range(int(0.06 * LOOP_RATE)):
                t = i / LOOP_RATE
                hz = 2400 + 9000 * t
                buf[first + i] += 0.08 * math.sin(2 * math.pi * hz * t) * math.sin(math.pi * t / 0.06)
    return seamless(buf, LOOP_RATE)


def atmos_cave(rng):
    n = 4 * LOOP_RATE
    rumble = noise(rng, n + LOOP_RATE // 4, 0.004)
    buf = [2.5 * r for r in rumble]
    for start, hz in ((0.5, 1500), (1.9, 1250), (3.1, 1700)):  # drips
        pluck(buf, LOOP_RATE, start, hz, 0.18, 0.18, (1.0,))
    return seamless(buf, LOOP_RATE)


def waterfall(rng):
    buf = noise(rng, 3 * LOOP_RATE + LOOP_RATE // 4, 0.35)
    return seamless([0.7 * b for b in buf], LOOP_RATE)


def sweep(seconds, hz0, hz1, level, rate=FX_RATE, shape=1.0):
    out, phase = [], 0.0
    n = int(seconds * rate)
    for i in range(n):
        t = i / n
        phase += 2 * math.pi * (hz0 + (hz1 - hz0) * t) / rate
        out.append(level * math.sin(phase) * (1 - t) ** shape * min(1.0, i / 40.0))
    return out


def hit(rng):
    tone = sweep(0.15, 420, 90, 0.5)
    crack = noise(rng, len(tone), 0.6)
    return [t + 0.5 * c * (1 - i / len(tone)) ** 3 for i, (t, c) in enumerate(zip(tone, crack))]


def chime(notes, each, level):
    buf = [0.0] * int((len(notes) * each + each * 2) * FX_RATE)
    for i, n in enumerate(notes):
        pluck(buf, FX_RATE, i * each, note(n), each * 2.5, level, (1.0, 0.5, 0.25))
    return buf


def hurt():
    return [s * (1 if math.sin(2 * math.pi * 55 * i / FX_RATE) > 0 else 0.6)
            for i, s in enumerate(sweep(0.25, 220, 110, 0.45, shape=0.5))]


SOUNDS = {
    'music_meadow': (LOOP_RATE, lambda rng: music_meadow()),
    'music_cave': (LOOP_RATE, lambda rng: music_cave()),
    'atmos_meadow': (LOOP_RATE, atmos_meadow),
    'atmos_cave': (LOOP_RATE, atmos_cave),
    'waterfall': (LOOP_RATE, waterfall),
    'hit': (FX_RATE, hit),
    'pickup': (FX_RATE, lambda rng: chime([15, 22], 0.06, 0.3)),
    'hurt': (FX_RATE, lambda rng: hurt()),
    'exit_open': (FX_RATE, lambda rng: chime([3, 7, 10, 15, 19], 0.09, 0.25)),
    'ui_move': (FX_RATE, lambda rng: sweep(0.04, 1800, 1500, 0.3)),
    'ui_confirm': (FX_RATE, lambda rng: chime([10, 17], 0.05, 0.3)),
    'ui_cancel': (FX_RATE, lambda rng: chime([10, 3], 0.05, 0.3)),
}


def write_wav(path, rate, samples):
    peak = max(1e-9, max(abs(s) for s in samples))
    scale = min(1.0, 0.9 / peak)  # never clips
    frames = b''.join(struct.pack('<h', int(round(s * scale * 32767))) for s in samples)
    with wave.open(path, 'wb') as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)


def main(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    for name, (rate, make) in SOUNDS.items():
        rng = random.Random(name)  # each sound its own stream: one edit changes one file
        write_wav(os.path.join(out_dir, name + '.wav'), rate, make(rng))
    print('wrote %d sounds to %s' % (len(SOUNDS), out_dir))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
