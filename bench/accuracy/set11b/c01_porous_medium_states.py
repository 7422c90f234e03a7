# correct: the diffusion step reads one state buffer and writes another in a loop, but every step writes its own preallocated state, so nothing read is overwritten.
"""Porous-medium equation u_t = D (u^m)_xx on a 1-D column: estimate the
diffusion coefficient D and the exponent m from the final moisture profile."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 40
STEPS = 40
DX = 1.0 / N
DT = 1.0e-4
PARAMS0 = [0.8, 1.6]
TRUE_PARAMS = [1.0, 2.0]


@wp.kernel
def pme_step(u: wp.array(dtype=float), prm: wp.array(dtype=float), dx: float, dt: float,
             u_out: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    il = wp.max(i - 1, 0)
    ir = wp.min(i + 1, n - 1)
    m = prm[1]
    pl = wp.pow(u[il], m)
    pc = wp.pow(u[i], m)
    pr = wp.pow(u[ir], m)
    u_out[i] = u[i] + dt * prm[0] * (pl - 2.0 * pc + pr) / (dx * dx)


@wp.kernel
def profile_misfit(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - obs[i]
    wp.atomic_add(loss, 0, 10.0 * d * d)


class Column:
    def __init__(self, requires_grad=False):
        x = (np.arange(N) + 0.5) / N
        u0 = (0.2 + 0.8 * np.exp(-((x - 0.5) / 0.15) ** 2)).astype(np.float32)
        self.states = [wp.array(u0, dtype=float, requires_grad=requires_grad)]
        self.states += [wp.zeros(N, dtype=float, requires_grad=requires_grad) for _ in range(STEPS)]

    def simulate(self, prm):
        for s in range(STEPS):
            wp.launch(pme_step, dim=N, inputs=[self.states[s], prm, DX, DT], outputs=[self.states[s + 1]])
        return self.states[-1]


OBS = Column().simulate(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p):
    col = Column(requires_grad=True)
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        uT = col.simulate(prm)
        wp.launch(profile_misfit, dim=N, inputs=[uT, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.2 * g
        print(f"iter {it} loss {l:.5f} D {p[0]:.3f} m {p[1]:.3f}")
