"""Goodwin model of a circadian clock gene (mRNA -> protein -> repressor).

Each of eight cell lines (different initial phase) is advanced between
hourly luminescence readings by explicit sub-steps inside the kernel; the
transcription rate and the degradation rate are fitted to the readings.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CELL = 8
N_HOURS = 16
N_SUB = 10
H = 1.0 / N_SUB


@wp.kernel
def advance_hour(x: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), n_sub: int,
                 x_out: wp.array(dtype=wp.vec3)):
    c = wp.tid()
    s = x[c]
    for k in range(n_sub):  # expect: dynamic_loop
        z = s[2]
        rep = 1.0 / (1.0 + z * z * z * z)
        s = s + H * wp.vec3(prm[0] * rep - prm[1] * s[0], s[0] - prm[1] * s[1], s[1] - prm[1] * s[2])
    x_out[c] = s


@wp.kernel
def luminescence_misfit(x: wp.array(dtype=wp.vec3), obs: wp.array2d(dtype=float), hr: int,
                        loss: wp.array(dtype=float)):
    c = wp.tid()
    d = x[c][1] - obs[hr, c]
    wp.atomic_add(loss, 0, d * d)


def simulate(p, obs=None):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ph = np.linspace(0.0, 2.0, N_CELL)
    x = wp.array(np.stack([0.5 + 0.3 * np.sin(ph), 0.6 + 0.2 * np.cos(ph), 0.8 + 0.1 * ph], 1).astype(np.float32),
                 dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    rows = []
    tape = wp.Tape()
    with tape:
        for hr in range(N_HOURS):
            x_new = wp.empty_like(x)
            wp.launch(advance_hour, dim=N_CELL, inputs=[x, prm, N_SUB], outputs=[x_new])
            x = x_new
            if obs is None:
                rows.append(x.numpy()[:, 1].copy())
            else:
                wp.launch(luminescence_misfit, dim=N_CELL, inputs=[x, obs, hr], outputs=[loss])
    return tape, prm, loss, rows


OBS = wp.array(np.array(simulate([1.2, 0.25])[3]), dtype=float)
PARAMS0 = np.array([1.0, 0.3])


def evaluate(p):
    tape, prm, loss, _ = simulate(p, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"luminescence misfit {l:.5f}; d/d(transcription, degradation) = {g}")
