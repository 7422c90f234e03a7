"""Tracer transport c_t + u c_x = -lambda c on a periodic channel (first-order
upwind): estimate the advection speed and the decay rate from a final
concentration profile; intermediate profiles are kept for plotting."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 64
STEPS = 40
DX = 1.0 / N
DT = 0.004
SNAP_EVERY = 15
PARAMS0 = [1.2, 0.5]
TRUE_PARAMS = [1.5, 0.9]


@wp.kernel
def upwind(c: wp.array(dtype=float), prm: wp.array(dtype=float), dx: float, dt: float,
           c_out: wp.array(dtype=float)):
    i = wp.tid()
    n = c.shape[0]
    u = prm[0]
    up = c[(i + n - 1) % n]
    flux_in = u * up
    flux_out = u * c[i]
    c_out[i] = c[i] + dt / dx * (flux_in - flux_out) - dt * prm[1] * c[i] * c[i]


@wp.kernel
def profile_loss(c: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = c[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


class Channel:
    def __init__(self):
        x = (np.arange(N) + 0.5) / N
        self.c0 = (np.exp(-((x - 0.25) / 0.06) ** 2) + 0.4).astype(np.float32)
        self.snapshots = []

    def run(self, prm, requires_grad=False):
        c = wp.array(self.c0, dtype=float, requires_grad=requires_grad)
        for s in range(STEPS):
            c_next = wp.empty_like(c)
            wp.launch(upwind, dim=N, inputs=[c, prm, DX, DT], outputs=[c_next])
            c = c_next
            if (s + 1) % SNAP_EVERY == 0:
                self.snapshots.append(c.numpy().copy())
                c = wp.array(self.snapshots[-1], dtype=float, requires_grad=requires_grad)  # expect: truncation
        return c


OBS = Channel().run(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p):
    ch = Channel()
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        c = ch.run(prm, requires_grad=True)
        wp.launch(profile_loss, dim=N, inputs=[c, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(8):
        l, g = evaluate(p)
        p -= 0.5 * g
        print(f"iter {it} loss {l:.5f} u {p[0]:.3f} lambda {p[1]:.3f}")
