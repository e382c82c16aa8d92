"""Synthesize the game's sounds, once: the WAV files are committed (made here from noise and sine
waves with NumPy, no recording or sound library involved), and the app only plays them.

- shake.wav: dice rattling in a cup, three shakes (clicks of filtered noise over a muffled thump);
- dice.wav: five dice landing on a table, each bouncing a few times (damped resonances);
- celebrate.wav: a bright rising arpeggio (C E G C, bell-like partials), for a Penta, a Generala, a
  5000 and a win.

Mono, 16-bit, 22 050 Hz; a fixed random seed, so the files come out the same every time.

    .venv/bin/python scripts/make_sounds.py
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 22_050
OUTPUT = Path(__file__).resolve().parent.parent / "src" / "cubilete" / "web" / "static" / "sounds"
rng = np.random.default_rng(5000)


def seconds(duration: float) -> np.ndarray:
    return np.arange(int(duration * RATE)) / RATE


def resonance(frequency: float, decay: float, duration: float) -> np.ndarray:
    """A struck body ringing at `frequency`, dying away in about `decay` seconds."""
    time = seconds(duration)
    return np.sin(2 * np.pi * frequency * time + rng.uniform(0, np.pi)) * np.exp(-time / decay)


def click(duration: float = 0.012, low: float = 2_000, high: float = 5_000) -> np.ndarray:
    """A short tick of noise kept between `low` and `high` Hz (a die knocking on a hard surface)."""
    noise = rng.standard_normal(int(duration * RATE))
    spectrum = np.fft.rfft(noise)
    frequencies = np.fft.rfftfreq(noise.size, 1 / RATE)
    spectrum[(frequencies < low) | (frequencies > high)] = 0
    return np.fft.irfft(spectrum, noise.size) * np.exp(-seconds(duration) / (duration / 5))


def place(track: np.ndarray, sound: np.ndarray, at: float, gain: float) -> None:
    start = int(at * RATE)
    end = min(track.size, start + sound.size)
    track[start:end] += gain * sound[: end - start]


def shake() -> np.ndarray:
    track = np.zeros(int(0.48 * RATE))
    for shake_start in (0.0, 0.15, 0.30):
        place(track, resonance(160, 0.03, 0.1), shake_start, 0.35)  # the cup's muffled thump
        for _ in range(9):
            at = shake_start + rng.gamma(2.0, 0.018)
            place(track, click(0.010, 1_500, 3_800), at, rng.uniform(0.25, 0.6))
    return track


def dice() -> np.ndarray:
    track = np.zeros(int(0.42 * RATE))
    for _die in range(5):
        at, gain, gap = rng.uniform(0.0, 0.06), rng.uniform(0.6, 1.0), rng.uniform(0.07, 0.11)
        for _bounce in range(rng.integers(3, 6)):
            knock = click(0.014, 2_200, 6_000) + 0.5 * resonance(rng.uniform(700, 1_100), 0.012, 0.05)[: int(0.014 * RATE)]
            place(track, knock, at, gain)
            at += gap
            gain *= 0.55
            gap *= 0.7
    return track


def celebrate() -> np.ndarray:
    track = np.zeros(int(0.95 * RATE))
    for index, frequency in enumerate((523.25, 659.25, 783.99, 1046.5)):
        tone = sum(resonance(frequency * partial, 0.28 / partial, 0.6) / partial for partial in (1, 2, 3))
        attack = np.minimum(1, seconds(0.6) / 0.005)  # no click at the onset
        place(track, tone * attack, 0.09 * index, 0.5 if index < 3 else 0.7)
    return track


def write(name: str, track: np.ndarray) -> None:
    fade = np.minimum(1, (track.size - np.arange(track.size)) / (0.02 * RATE))  # silent at the end
    samples = track * fade
    samples = samples / np.abs(samples).max() * 0.8
    with wave.open(str(OUTPUT / name), "wb") as output:
        output.setnchannels(1)
        output.setsampwidth(2)
        output.setframerate(RATE)
        output.writeframes((samples * 32767).astype("<i2").tobytes())
    print(f"wrote {OUTPUT / name} ({track.size / RATE:.2f} s)")


def main() -> None:
    OUTPUT.mkdir(exist_ok=True)
    write("shake.wav", shake())
    write("dice.wav", dice())
    write("celebrate.wav", celebrate())


if __name__ == "__main__":
    main()
