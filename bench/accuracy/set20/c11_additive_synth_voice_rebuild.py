# correct: b11 (component_reassign): each damping stage rebuilds the stereo vec2 instead of assigning its left component in place.
"""Additive-synthesis voice of a virtual plucked instrument (stereo, vec2
samples): a sum of partials with exponential decay, an equal-power pan law,
and a three-stage one-pole damping of the left (body-mic) channel. The pan
position and the damping gain are matched to a reference recording.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

SR = 8000.0
N_SAMP = 256
N_PART = 4
F0 = 220.0
PARAMS0 = np.array([0.35, 0.9])


@wp.func
def partial_sum(t: float):
    s = float(0.0)
    for h in range(N_PART):
        k = float(h + 1)
        s += wp.sin(2.0 * wp.pi * F0 * k * t) * wp.exp(-3.0 * k * t) / k
    return s


@wp.kernel
def render(p: wp.array(dtype=float), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    t = float(i) / SR
    x = partial_sum(t)
    theta = p[0] * wp.pi * 0.5
    s = wp.vec2(x * wp.cos(theta), x * wp.sin(theta))
    for stage in range(3):
        s = wp.vec2(s[0] * p[1], s[1])
    out[i] = s


@wp.kernel
def spectral_loss(out: wp.array(dtype=wp.vec2), ref: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = out[i] - ref[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def make_reference():
    t = np.arange(N_SAMP) / SR
    x = sum(np.sin(2 * np.pi * F0 * k * t) * np.exp(-3.0 * k * t) / k for k in range(1, N_PART + 1))
    th = 0.42 * np.pi * 0.5
    return np.stack([x * np.cos(th) * 0.85 ** 3, x * np.sin(th)], 1)


REF = wp.array(make_reference(), dtype=wp.vec2)


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    out = wp.zeros(N_SAMP, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(render, dim=N_SAMP, inputs=[p], outputs=[out])
        wp.launch(spectral_loss, dim=N_SAMP, inputs=[out, REF], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        val, g = evaluate(p)
        p -= 0.002 * g
    print(f"render misfit {val:.5f}  pan {p[0]:.3f}  damping gain {p[1]:.3f}")
