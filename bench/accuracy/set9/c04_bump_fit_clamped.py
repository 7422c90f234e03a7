# correct: Adam bump fit that zeroes every gradient with tape.zero() after the step and clamps widths in place outside the tape
"""Fit the centers and widths of three Gaussian bumps to a sampled signal with warp.optim.Adam."""

import numpy as np
import warp as wp
import warp.optim

N_SAMPLES = 48
AMPLITUDES = wp.constant(wp.vec3(1.0, 0.6, 0.8))
TRUE_CENTERS = np.array([-1.0, 0.3, 1.4], dtype=np.float32)
TRUE_WIDTHS = np.array([0.35, 0.5, 0.25], dtype=np.float32)
INIT_CENTERS = np.array([-0.8, 0.1, 1.2], dtype=np.float32)
INIT_WIDTHS = np.array([0.5, 0.4, 0.4], dtype=np.float32)


@wp.func
def bumps(t: float, centers: wp.array(dtype=float), widths: wp.array(dtype=float)):
    f = float(0.0)
    for k in range(3):
        z = (t - centers[k]) / widths[k]
        f += AMPLITUDES[k] * wp.exp(-0.5 * z * z)
    return f


@wp.kernel
def sample_bumps(ts: wp.array(dtype=float), centers: wp.array(dtype=float), widths: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = bumps(ts[i], centers, widths)


@wp.kernel
def fit_loss(
    ts: wp.array(dtype=float),
    ys: wp.array(dtype=float),
    centers: wp.array(dtype=float),
    widths: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    r = bumps(ts[i], centers, widths) - ys[i]
    wp.atomic_add(loss, 0, r * r / float(N_SAMPLES))


@wp.kernel
def clamp_widths(widths: wp.array(dtype=float), min_width: float):
    k = wp.tid()
    widths[k] = wp.max(widths[k], min_width)


def make_data():
    ts = wp.array(np.linspace(-2.0, 2.5, N_SAMPLES, dtype=np.float32), dtype=float)
    ys = wp.zeros(N_SAMPLES, dtype=float)
    wp.launch(sample_bumps, dim=N_SAMPLES, inputs=[ts, wp.array(TRUE_CENTERS), wp.array(TRUE_WIDTHS)], outputs=[ys])
    return ts, ys


def objective(c, w):
    ts, ys = make_data()
    loss = wp.zeros(1, dtype=float)
    wp.launch(fit_loss, dim=N_SAMPLES, inputs=[ts, ys, wp.array(c, dtype=float), wp.array(w, dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def fit(iters=60, lr=0.03, verbose=False):
    ts, ys = make_data()
    centers = wp.array(INIT_CENTERS, dtype=float, requires_grad=True)
    widths = wp.array(INIT_WIDTHS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    opt = warp.optim.Adam([centers, widths], lr=lr)
    for it in range(iters):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(fit_loss, dim=N_SAMPLES, inputs=[ts, ys, centers, widths], outputs=[loss])
        tape.backward(loss)
        opt.step([centers.grad, widths.grad])
        tape.zero()
        wp.launch(clamp_widths, dim=3, inputs=[widths, 0.05])
        if verbose and it % 10 == 0:
            print(f"iter {it:3d}  loss {loss.numpy()[0]:.6f}")
    return centers.numpy(), widths.numpy()


def verify(iters=5, eps=1e-3):
    """Gradient the optimizer consumed at its last step vs central differences at those parameters."""
    seen = []
    step = warp.optim.Adam.step

    def spy(self, grad):
        seen.append(([p.numpy().copy() for p in self.params], [g.numpy().copy() for g in grad]))
        return step(self, grad)

    warp.optim.Adam.step = spy
    try:
        fit(iters)
    finally:
        warp.optim.Adam.step = step
    params, grads = seen[-1]
    p = np.concatenate(params).astype(np.float64)
    ad = np.concatenate(grads).astype(np.float64)
    fd = np.zeros_like(p)
    for k in range(p.size):
        hi, lo = p.copy(), p.copy()
        hi[k] += eps
        lo[k] -= eps
        fd[k] = (objective(hi[:3], hi[3:]) - objective(lo[:3], lo[3:])) / (2 * eps)
    return ad, fd


if __name__ == "__main__":
    c, w = fit(verbose=True)
    print("centers", np.round(c, 3), "widths", np.round(w, 3))
