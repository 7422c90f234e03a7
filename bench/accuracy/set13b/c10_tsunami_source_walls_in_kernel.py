# correct: tsunami-source location with retain_grad states where the reflective walls are applied inside the single update kernel (one writer per state)
"""Locate an initial sea-surface hump (tsunami source) from two wall gauges.

1-D shallow water with ghost cells: the update kernel advances all cells
and mirrors the wall neighbours itself (reflective walls). Every state keeps its
gradient (retain_grad) so the sensitivity of the misfit to the surface at
any time can be plotted after backward.
"""
import numpy as np
import warp as wp

NC = 40          # interior cells, ghosts at 0 and NC + 1
NSTEPS = 70
DT_DX = 0.04
G = 9.81
ALPHA = 6.0
GAUGES = np.array([2, 6], dtype=np.int32)


@wp.kernel
def initial_surface(src: wp.array(dtype=float), h: wp.array(dtype=float), q: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i) - src[0]
    h[i] = 1.0 + src[1] * wp.exp(-x * x / 10.0)
    q[i] = 0.0


@wp.func
def fq(h: float, q: float):
    return q * q / h + 0.5 * G * h * h


@wp.kernel
def lax_friedrichs(h: wp.array(dtype=float), q: wp.array(dtype=float), r: float,
                   h_out: wp.array(dtype=float), q_out: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0 or i == NC + 1:
        h_out[i] = h[i]
        q_out[i] = q[i]
        return
    hl = h[i - 1]
    ql = q[i - 1]
    if i == 1:
        hl = h[1]
        ql = -q[1]
    hr = h[i + 1]
    qr = q[i + 1]
    if i == NC:
        hr = h[NC]
        qr = -q[NC]
    fw_h = 0.5 * (ql + q[i]) - 0.5 * ALPHA * (h[i] - hl)
    fe_h = 0.5 * (q[i] + qr) - 0.5 * ALPHA * (hr - h[i])
    fw_q = 0.5 * (fq(hl, ql) + fq(h[i], q[i])) - 0.5 * ALPHA * (q[i] - ql)
    fe_q = 0.5 * (fq(h[i], q[i]) + fq(hr, qr)) - 0.5 * ALPHA * (qr - q[i])
    h_out[i] = h[i] - r * (fe_h - fw_h)
    q_out[i] = q[i] - r * (fe_q - fw_q)


@wp.kernel
def gauge_misfit(h: wp.array(dtype=float), gauges: wp.array(dtype=wp.int32), obs: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    k = wp.tid()
    d = h[gauges[k]] - obs[k]
    wp.atomic_add(loss, 0, d * d)


GAUGE_IDX = wp.array(GAUGES, dtype=wp.int32)


def propagate(src, loss=None, obs=None):
    h = [wp.zeros(NC + 2, dtype=float, requires_grad=True, retain_grad=True) for _ in range(NSTEPS + 1)]
    q = [wp.zeros(NC + 2, dtype=float, requires_grad=True) for _ in range(NSTEPS + 1)]
    wp.launch(initial_surface, dim=NC + 2, inputs=[src], outputs=[h[0], q[0]])
    record = []
    for n in range(NSTEPS):
        wp.launch(lax_friedrichs, dim=NC + 2, inputs=[h[n], q[n], DT_DX], outputs=[h[n + 1], q[n + 1]])
        if loss is not None:
            wp.launch(gauge_misfit, dim=len(GAUGES), inputs=[h[n + 1], GAUGE_IDX, obs[n]], outputs=[loss])
        else:
            record.append(wp.array(h[n + 1].numpy()[GAUGES], dtype=float))
    return h, record


_, OBS = propagate(wp.array([14.0, 0.3], dtype=float))
PARAMS0 = [17.0, 0.2]
FD_EPS = 1e-2


def evaluate(p, show=False):
    src = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        h, _ = propagate(src, loss, OBS)
    tape.backward(loss)
    if show:
        print("  dL/dh(t=0) near the wall:", np.round(h[0].grad.numpy()[:8], 4))
    return float(loss.numpy()[0]), src.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p, show=True)
        print(f"iter {it}: misfit {f:.4e}  centre {p[0]:.3f} amp {p[1]:.3f}  grad {g}")
        p = p - np.array([20.0, 0.5]) * g
