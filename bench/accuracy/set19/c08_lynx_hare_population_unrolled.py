# correct: look-alike of b08 (sub-step loop inside the yearly Lotka-Volterra kernel), with the sub-step count a compile-time constant so the loop is unrolled.
"""Lotka-Volterra fit to a decade of lynx and hare pelt counts.

The state (hares, lynx) is a wp.vec2 per trapping district. Each year is one
launch that advances the state by n_sub explicit sub-steps; the sub-step count
is a launch argument so the same kernel serves monthly or weekly stepping.
Parameters: prey growth a, predation b, predator death c, conversion d.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SUB = wp.constant(12)
N_YEARS = 8
N_DIST = 3
START = np.array([[3.0, 0.8], [2.5, 1.0], [3.5, 0.6]])


@wp.kernel
def advance_year(p: wp.array(dtype=float), n_sub: int, x_old: wp.array(dtype=wp.vec2), x_new: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x = x_old[i]
    h = 1.0 / float(n_sub)
    for k in range(N_SUB):
        dh = p[0] * x[0] - p[1] * x[0] * x[1]
        dl = p[3] * x[0] * x[1] - p[2] * x[1]
        x = x + h * wp.vec2(dh, dl)
    x_new[i] = x


@wp.kernel
def pelt_loss(x: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def simulate(a, b, c, d):
    x = START.copy()
    out = []
    for y in range(N_YEARS):
        for k in range(12):
            dx = np.stack([a * x[:, 0] - b * x[:, 0] * x[:, 1], d * x[:, 0] * x[:, 1] - c * x[:, 1]], 1)
            x = x + dx / 12
        out.append(x.copy())
    return np.array(out)


OBS = simulate(0.55, 0.45, 0.8, 0.3) * (1 + 0.05 * np.random.default_rng(2).standard_normal((N_YEARS, N_DIST, 2)))


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(START, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for y in range(N_YEARS):
            x_next = wp.zeros(N_DIST, dtype=wp.vec2, requires_grad=True)
            wp.launch(advance_year, dim=N_DIST, inputs=[par, N_SUB, x], outputs=[x_next])
            wp.launch(pelt_loss, dim=N_DIST, inputs=[x_next, wp.array(OBS[y], dtype=wp.vec2)], outputs=[loss])
            x = x_next
    tape.backward(loss)
    return float(loss.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [0.6, 0.4, 0.75, 0.32]
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"pelt misfit {l:.4f}  gradient (a, b, c, d) = {np.round(g, 4)}")
