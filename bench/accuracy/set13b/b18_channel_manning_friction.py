"""Manning roughness of two river reaches from stage records of a flood wave.

1-D shallow water over a flat bed (Lax-Friedrichs fluxes from helper
_channel.py's flux function), with semi-implicit Manning friction applied to
the discharge after the flux update: q <- q* / (1 + dt g n^2 |u| / h^(4/3)).
"""
import numpy as np
import warp as wp

from _channel import ALPHA, GRAV, flux_q, record_gauges, series_misfit, GAUGES

NC = 48
NSTEPS = 70
DT, DX = 0.4, 10.0


@wp.kernel
def flood_wave(h: wp.array(dtype=float), q: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i) - 8.0
    h[i] = 0.25 + 0.25 * wp.exp(-x * x / 12.0)
    q[i] = 0.4 * wp.exp(-x * x / 12.0)


@wp.func
def manning_drag(n: float, h: float, q: float):
    u = q / h
    speed = wp.sqrt(u * u + 1.0e-6)
    return GRAV * n * n * speed / wp.pow(h, 4.0 / 3.0)


@wp.kernel
def step_with_friction(h: wp.array(dtype=float), q: wp.array(dtype=float), n_reach: wp.array(dtype=float),
                       dt: float, dx: float, h_out: wp.array(dtype=float), q_out: wp.array(dtype=float)):
    i = wp.tid()
    il = wp.max(i - 1, 0)
    ir = wp.min(i + 1, NC - 1)
    hl = h[il]
    ql = q[il]
    hr = h[ir]
    qr = q[ir]
    if i == 0:
        ql = -q[0]
    if i == NC - 1:
        qr = -q[NC - 1]
    fh_w = 0.5 * (ql + q[i]) - 0.5 * ALPHA * (h[i] - hl)
    fh_e = 0.5 * (q[i] + qr) - 0.5 * ALPHA * (hr - h[i])
    fq_w = 0.5 * (flux_q(hl, ql) + flux_q(h[i], q[i])) - 0.5 * ALPHA * (q[i] - ql)
    fq_e = 0.5 * (flux_q(h[i], q[i]) + flux_q(hr, qr)) - 0.5 * ALPHA * (qr - q[i])
    h_new = h[i] - dt / dx * (fh_e - fh_w)
    q_star = q[i] - dt / dx * (fq_e - fq_w)
    n = n_reach[i * 2 // NC]
    h_out[i] = h_new
    q_out[i] = q_star
    q_out[i] /= 1.0 + dt * manning_drag(n, h_new, q_star)  # expect: inplace_op


ZERO_BED = wp.zeros(NC, dtype=float)
GAUGE_IDX = wp.array(GAUGES, dtype=wp.int32)


def route(n_reach, eta):
    h = wp.zeros(NC, dtype=float, requires_grad=True)
    q = wp.zeros(NC, dtype=float, requires_grad=True)
    wp.launch(flood_wave, dim=NC, inputs=[], outputs=[h, q])
    for t in range(NSTEPS):
        h_new = wp.zeros_like(h)
        q_new = wp.zeros_like(q)
        wp.launch(step_with_friction, dim=NC, inputs=[h, q, n_reach, DT, DX], outputs=[h_new, q_new])
        wp.launch(record_gauges, dim=len(GAUGES), inputs=[h_new, ZERO_BED, GAUGE_IDX, t], outputs=[eta])
        h, q = h_new, q_new
    return eta


OBS = route(wp.array([0.10, 0.15], dtype=float), wp.zeros((NSTEPS, len(GAUGES)), dtype=float))
PARAMS0 = [0.14, 0.10]
FD_EPS = 1e-3


def evaluate(p):
    n_reach = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    eta = wp.zeros((NSTEPS, len(GAUGES)), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        route(n_reach, eta)
        wp.launch(series_misfit, dim=(NSTEPS, len(GAUGES)), inputs=[eta, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), n_reach.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: stage misfit {f:.4e}  Manning n {np.round(p, 4)}  grad {g}")
        p = np.clip(p - 0.002 * g / (np.abs(g).max() + 1e-12), 0.01, 0.2)
