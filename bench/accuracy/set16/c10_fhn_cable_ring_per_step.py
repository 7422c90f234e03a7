# correct: the (v, w) ring has one slot per time step, so no slot is reused on the tape
"""Cardiac cable (FitzHugh-Nagumo): fit the recovery parameters a, b and the
time-scale ratio eps to optical-mapping traces at four recording sites after
an S1 stimulus at the left end.

    dv/dt = D v_xx + v - v^3 / 3 - w + I_stim,   dw/dt = eps (v + a - b w)

The state lives in a ring of preallocated (v, w) slots that the time loop
cycles through.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CELL = 64
N_STEPS = 60
DT = 0.05
DIFF = 0.8  # D / dx^2
SITES = np.array([8, 24, 40, 56], dtype=np.int32)
N_SITE = SITES.size
RING = N_STEPS + 1


@wp.kernel
def fhn_step(v: wp.array(dtype=float), w: wp.array(dtype=float), prm: wp.array(dtype=float), n: int,
             v_out: wp.array(dtype=float), w_out: wp.array(dtype=float)):
    i = wp.tid()
    vl = v[wp.max(i - 1, 0)]
    vr = v[wp.min(i + 1, N_CELL - 1)]
    vi = v[i]
    stim = float(0.0)
    if i < 4 and n < 10:
        stim = 1.2
    v_out[i] = vi + DT * (DIFF * (vl - 2.0 * vi + vr) + vi - vi * vi * vi / 3.0 - w[i] + stim)
    w_out[i] = w[i] + DT * prm[2] * (vi + prm[0] - prm[1] * w[i])


@wp.kernel
def trace_misfit(v: wp.array(dtype=float), sites: wp.array(dtype=int), obs: wp.array2d(dtype=float), n: int,
                 loss: wp.array(dtype=float)):
    k = wp.tid()
    d = v[sites[k]] - obs[n, k]
    wp.atomic_add(loss, 0, d * d / float(N_STEPS * N_SITE))


class Cable:
    def __init__(self, requires_grad=True):
        self.v = [wp.zeros(N_CELL, dtype=float, requires_grad=requires_grad) for _ in range(RING)]
        self.w = [wp.zeros(N_CELL, dtype=float, requires_grad=requires_grad) for _ in range(RING)]
        self.sites = wp.array(SITES, dtype=int)

    def run(self, prm, obs=None, loss=None):
        rest = np.full(N_CELL, -1.2, dtype=np.float32)
        self.v[0].assign(rest)
        self.w[0].assign(np.full(N_CELL, -0.62, dtype=np.float32))
        trace = []
        for n in range(N_STEPS):
            cur, nxt = n % RING, (n + 1) % RING
            wp.launch(fhn_step, dim=N_CELL, inputs=[self.v[cur], self.w[cur], prm, n],
                      outputs=[self.v[nxt], self.w[nxt]])
            if loss is not None:
                wp.launch(trace_misfit, dim=N_SITE, inputs=[self.v[nxt], self.sites, obs, n], outputs=[loss])
            else:
                trace.append(self.v[nxt].numpy()[SITES])
        return np.array(trace)


OBS = wp.array(Cable(requires_grad=False).run(wp.array([0.7, 0.8, 0.08], dtype=float)), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    cable = Cable()
    tape = wp.Tape()
    with tape:
        cable.run(prm, OBS, loss)
    tape.backward(loss)
    return 1000.0 * float(loss.numpy()[0]), 1000.0 * prm.grad.numpy()


PARAMS0 = np.array([0.6, 0.9, 0.12])
FD_EPS = 1e-3

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"trace misfit {f:.4f}; d/d(a, b, eps) = {g}")
