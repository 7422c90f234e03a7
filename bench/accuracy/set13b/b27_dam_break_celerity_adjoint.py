"""Reservoir level and tailwater depth of a dam break from downstream gauges.

1-D shallow water, local Lax-Friedrichs fluxes whose dissipation speed is
the mean of |u| + c of the two cells. The gravity-wave celerity c = sqrt(g h)
has a hand-written adjoint that is cut off in (nearly) dry cells.
"""
import numpy as np
import warp as wp

N = 60
NSTEPS = 45
DT, DX = 0.05, 1.0
G = 9.81
H_DRY = 1.0e-3
GAUGES = np.array([34, 40, 48], dtype=np.int32)


@wp.func
def celerity(h: float):
    return wp.sqrt(G * wp.max(h, H_DRY))


@wp.func_grad(celerity)
def adj_celerity(h: float, adj_ret: float):
    if h > H_DRY:
        wp.adjoint[h] = adj_ret * 0.5 * G / wp.sqrt(G * h)  # expect: custom_adjoint


@wp.kernel
def dam(levels: wp.array(dtype=float), h: wp.array(dtype=float), q: wp.array(dtype=float)):
    i = wp.tid()
    s = 1.0 / (1.0 + wp.exp(-(float(i) - 29.5) * 2.0))
    h[i] = levels[0] * (1.0 - s) + levels[1] * s
    q[i] = 0.0


@wp.func
def momentum_flux(h: float, q: float):
    return q * q / h + 0.5 * G * h * h


@wp.kernel
def rusanov_step(h: wp.array(dtype=float), q: wp.array(dtype=float), dt: float,
                 h_out: wp.array(dtype=float), q_out: wp.array(dtype=float)):
    i = wp.tid()
    il = wp.max(i - 1, 0)
    ir = wp.min(i + 1, N - 1)
    hl = h[il]
    hc = h[i]
    hr = h[ir]
    ql = q[il]
    qc = q[i]
    qr = q[ir]
    cc = celerity(hc)
    a_w = 0.5 * (wp.abs(ql / hl) + celerity(hl) + wp.abs(qc / hc) + cc)
    a_e = 0.5 * (wp.abs(qc / hc) + celerity(hc) + wp.abs(qr / hr) + celerity(hr))
    fh_w = 0.5 * (ql + qc) - 0.5 * a_w * (hc - hl)
    fh_e = 0.5 * (qc + qr) - 0.5 * a_e * (hr - hc)
    fq_w = 0.5 * (momentum_flux(hl, ql) + momentum_flux(hc, qc)) - 0.5 * a_w * (qc - ql)
    fq_e = 0.5 * (momentum_flux(hc, qc) + momentum_flux(hr, qr)) - 0.5 * a_e * (qr - qc)
    h_out[i] = hc - dt / DX * (fh_e - fh_w)
    q_out[i] = qc - dt / DX * (fq_e - fq_w)


@wp.kernel
def gauge_misfit(h: wp.array(dtype=float), gauges: wp.array(dtype=wp.int32), obs: wp.array2d(dtype=float), n: int,
                 loss: wp.array(dtype=float)):
    k = wp.tid()
    d = h[gauges[k]] - obs[n, k]
    wp.atomic_add(loss, 0, d * d)


GAUGE_IDX = wp.array(GAUGES, dtype=wp.int32)


def release(levels, loss=None, obs=None):
    h = wp.zeros(N, dtype=float, requires_grad=True)
    q = wp.zeros(N, dtype=float, requires_grad=True)
    wp.launch(dam, dim=N, inputs=[levels], outputs=[h, q])
    rec = np.zeros((NSTEPS, len(GAUGES)), dtype=np.float32)
    for n in range(NSTEPS):
        h_new = wp.zeros_like(h)
        q_new = wp.zeros_like(q)
        wp.launch(rusanov_step, dim=N, inputs=[h, q, DT], outputs=[h_new, q_new])
        h, q = h_new, q_new
        if loss is None:
            rec[n] = h.numpy()[GAUGES]
        else:
            wp.launch(gauge_misfit, dim=len(GAUGES), inputs=[h, GAUGE_IDX, obs, n], outputs=[loss])
    return rec


OBS = wp.array(release(wp.array([2.0, 0.5], dtype=float)), dtype=float)
PARAMS0 = [1.7, 0.6]
FD_EPS = 1e-3


def evaluate(p):
    levels = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        release(levels, loss, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), levels.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  reservoir {p[0]:.3f} m tailwater {p[1]:.3f} m  grad {g}")
        p = p - 0.05 * g / (np.abs(g).max() + 1e-12)
