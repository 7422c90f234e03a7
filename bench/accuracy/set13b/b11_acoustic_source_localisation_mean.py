"""Locate a buried acoustic source from a surface receiver line (2-D wave equation).

The source is injected with a Gaussian footprint at a continuous position
(sx, sy); each receiver's squared trace error is reduced per receiver, and
the objective is the mean over receivers.
"""
import numpy as np
import warp as wp

NX, NY = 48, 40
NT = 90
C2 = 0.2          # (c dt / dx)^2
NREC = 8
REC_J = 2         # receiver depth row
REC_I = np.linspace(6, NX - 7, NREC).astype(np.int32)


@wp.kernel
def step_2d(u_prev: wp.array2d(dtype=float), u: wp.array2d(dtype=float), src: wp.array(dtype=float), amp: float,
            u_next: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == NX - 1 or j == NY - 1:
        u_next[i, j] = 0.0
        return
    lap = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4.0 * u[i, j]
    dx = float(i) - src[0]
    dy = float(j) - src[1]
    inj = amp * wp.exp(-(dx * dx + dy * dy) / 3.0)
    u_next[i, j] = 2.0 * u[i, j] - u_prev[i, j] + C2 * lap + inj


@wp.kernel
def receiver_error(u: wp.array2d(dtype=float), rec_i: wp.array(dtype=wp.int32), obs: wp.array2d(dtype=float),
                   t: int, per_rec: wp.array(dtype=float)):
    r = wp.tid()
    d = u[rec_i[r], REC_J] - obs[t, r]
    wp.atomic_add(per_rec, r, d * d)


def wavelet(nt=NT, f0=0.06):
    t = np.arange(nt) - 1.3 / f0
    a = (np.pi * f0 * t) ** 2
    return ((1.0 - 2.0 * a) * np.exp(-a)).astype(np.float32)


W = wavelet()
RECI = wp.array(REC_I, dtype=wp.int32)


def run(src, per_rec=None, obs=None):
    u = [wp.zeros((NX, NY), dtype=float, requires_grad=True) for _ in range(NT + 2)]
    traces = np.zeros((NT, NREC), dtype=np.float32)
    for t in range(NT):
        wp.launch(step_2d, dim=(NX, NY), inputs=[u[t], u[t + 1], src, float(W[t])], outputs=[u[t + 2]])
        if per_rec is not None:
            wp.launch(receiver_error, dim=NREC, inputs=[u[t + 2], RECI, obs, t], outputs=[per_rec])
        else:
            traces[t] = u[t + 2].numpy()[REC_I, REC_J]
    return traces


OBS = wp.array(run(wp.array([21.3, 24.6], dtype=float)), dtype=float)
PARAMS0 = [24.0, 22.0]
FD_EPS = 1e-2


def evaluate(p):
    src = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    per_rec = wp.zeros(NREC, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        run(src, per_rec, OBS)
    objective = float(per_rec.numpy().mean())
    tape.backward(grads={per_rec: wp.ones(NREC, dtype=float)})  # expect: seeding
    return objective, src.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: mean receiver misfit {f:.4e}  source ({p[0]:.2f}, {p[1]:.2f})  grad {g}")
        p = p - 0.5 * g / (np.linalg.norm(g) + 1e-12)
