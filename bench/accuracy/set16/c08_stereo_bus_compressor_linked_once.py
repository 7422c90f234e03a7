# correct: retain_grad gain curve computed once per tape, before the per-channel loop that applies it
"""Stereo-linked bus compressor: recover threshold, ratio and make-up gain
from a mastered drum loop (the reference output) and its unprocessed mix.

Linked detection: mean-square of both channels over an 8-sample window,
soft knee of 6 dB, static gain applied per channel. The gain curve is kept
with a retained gradient so the gain-reduction meter can show where the
fit pulls hardest.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

FS = 8000.0
N = 1024
WIN = 8
KNEE = 6.0
LN10_20 = 0.1151292546  # ln(10) / 20


def _drum_loop():
    t = np.arange(N) / FS
    rng = np.random.default_rng(17)
    env = np.exp(-((t * 4.0) % 1.0) * 9.0)
    kick = env * np.sin(2 * np.pi * 70.0 * t)
    hat = np.exp(-((t * 8.0 + 0.5) % 1.0) * 30.0) * rng.standard_normal(N) * 0.3
    left = 0.8 * kick + hat + 0.02 * np.sin(2 * np.pi * 440.0 * t)
    right = 0.7 * kick + 0.6 * hat + 0.02 * np.sin(2 * np.pi * 660.0 * t)
    return left.astype(np.float32), right.astype(np.float32)


@wp.func
def soft_knee_reduction(over: float, slope: float):
    if over <= -0.5 * KNEE:
        return 0.0
    if over < 0.5 * KNEE:
        h = over + 0.5 * KNEE
        return slope * h * h / (2.0 * KNEE)
    return slope * over


@wp.kernel
def linked_gain(left: wp.array(dtype=float), right: wp.array(dtype=float), prm: wp.array(dtype=float),
                gain: wp.array(dtype=float)):
    n = wp.tid()
    ms = float(1.0e-10)
    for k in range(WIN):
        j = wp.max(n - k, 0)
        ms += 0.5 * (left[j] * left[j] + right[j] * right[j]) / float(WIN)
    level_db = 10.0 * wp.log10(ms)
    gr = soft_knee_reduction(level_db - prm[0], 1.0 - 1.0 / prm[1])
    gain[n] = wp.exp(LN10_20 * (prm[2] - gr))


@wp.kernel
def apply_gain(x: wp.array(dtype=float), gain: wp.array(dtype=float), y: wp.array(dtype=float)):
    n = wp.tid()
    y[n] = x[n] * gain[n]


@wp.kernel
def master_misfit(y: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    n = wp.tid()
    d = y[n] - ref[n]
    wp.atomic_add(loss, 0, 1000.0 * d * d / float(2 * N))


def reference(p):
    left, right = _drum_loop()
    ms = np.zeros(N)
    for k in range(WIN):
        j = np.maximum(np.arange(N) - k, 0)
        ms += 0.5 * (left[j] ** 2 + right[j] ** 2) / WIN
    over = 10 * np.log10(ms + 1e-10) - p[0]
    h = over + KNEE / 2
    gr = (1 - 1 / p[1]) * np.where(over <= -KNEE / 2, 0.0, np.where(over < KNEE / 2, h * h / (2 * KNEE), over))
    g = np.exp(LN10_20 * (p[2] - gr))
    return (left * g).astype(np.float32), (right * g).astype(np.float32)


MIX = [wp.array(c, dtype=float) for c in _drum_loop()]
REF = [wp.array(c, dtype=float) for c in reference([-18.0, 4.0, 3.0])]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    gain = wp.zeros(N, dtype=float, requires_grad=True, retain_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(linked_gain, dim=N, inputs=[MIX[0], MIX[1], prm], outputs=[gain])
        for ch in range(2):
            y = wp.zeros(N, dtype=float, requires_grad=True)
            wp.launch(apply_gain, dim=N, inputs=[MIX[ch], gain], outputs=[y])
            wp.launch(master_misfit, dim=N, inputs=[y, REF[ch]], outputs=[loss])
    tape.backward(loss)
    evaluate.meter = gain.grad.numpy().copy()
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([-15.0, 3.0, 2.0])
FD_EPS = 1e-3

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    worst = int(np.argmax(np.abs(evaluate.meter)))
    print(f"mastering misfit {f:.4f}; d/d(threshold, ratio, makeup) = {g}; meter peaks at sample {worst}")
