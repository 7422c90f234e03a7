# correct: wet-dry beach run-up whose gravity-wave speed clamps the depth with wp.max before the square root
"""Offshore wave amplitude and width from gauge records of run-up on a sloping beach.

1-D shallow water with wetting and drying: the bed rises through the
shoreline so the landward cells start exactly dry (h = 0). Velocities use
the desingularised u = q h / (h^2 + eps); the face dissipation speed is
the mean gravity-wave speed sqrt(g h) of the two cells.
"""
import numpy as np
import warp as wp

N = 50
NSTEPS = 30
DT, DX = 0.1, 1.0
G = 9.81
EPS_H = 1.0e-4
GAUGES = np.array([8, 16, 24], dtype=np.int32)


@wp.kernel
def beach_initial(amp_w: wp.array(dtype=float), bed: wp.array(dtype=float), h: wp.array(dtype=float),
                  q: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i) - 10.0
    eta = amp_w[0] * wp.exp(-x * x / (amp_w[1] * amp_w[1]))
    h[i] = wp.max(eta - bed[i], 0.0)
    q[i] = 0.0


@wp.func
def vel(h: float, q: float):
    return q * h / (h * h + EPS_H)


@wp.func
def wave_speed(h: float):
    return wp.sqrt(G * wp.max(h, EPS_H))


@wp.func
def face_flux(hl: float, ql: float, hr: float, qr: float):
    a = 0.5 * (wave_speed(hl) + wave_speed(hr)) + 1.0
    fh = 0.5 * (ql + qr) - 0.5 * a * (hr - hl)
    fq = 0.5 * (ql * vel(hl, ql) + 0.5 * G * hl * hl + qr * vel(hr, qr) + 0.5 * G * hr * hr) - 0.5 * a * (qr - ql)
    return wp.vec2(fh, fq)


@wp.kernel
def wet_dry_step(h: wp.array(dtype=float), q: wp.array(dtype=float), bed: wp.array(dtype=float), dt: float,
                 h_out: wp.array(dtype=float), q_out: wp.array(dtype=float)):
    i = wp.tid()
    il = wp.max(i - 1, 0)
    ir = wp.min(i + 1, N - 1)
    fw = face_flux(h[il], q[il], h[i], q[i])
    fe = face_flux(h[i], q[i], h[ir], q[ir])
    slope = (bed[ir] - bed[il]) / (float(ir - il) * DX)
    h_out[i] = h[i] - dt / DX * (fe[0] - fw[0])
    q_out[i] = q[i] - dt / DX * (fe[1] - fw[1]) - dt * G * h[i] * slope


@wp.kernel
def gauge_misfit(h: wp.array(dtype=float), bed: wp.array(dtype=float), gauges: wp.array(dtype=wp.int32),
                 obs: wp.array2d(dtype=float), n: int, loss: wp.array(dtype=float)):
    k = wp.tid()
    g = gauges[k]
    d = h[g] + bed[g] - obs[n, k]
    wp.atomic_add(loss, 0, d * d)


BED = wp.array(np.linspace(-1.0, 0.6, N).astype(np.float32), dtype=float)
GAUGE_IDX = wp.array(GAUGES, dtype=wp.int32)


def run_up(amp_w, loss=None, obs=None):
    h = wp.zeros(N, dtype=float, requires_grad=True)
    q = wp.zeros(N, dtype=float, requires_grad=True)
    wp.launch(beach_initial, dim=N, inputs=[amp_w, BED], outputs=[h, q])
    rec = np.zeros((NSTEPS, len(GAUGES)), dtype=np.float32)
    for n in range(NSTEPS):
        h_new = wp.zeros_like(h)
        q_new = wp.zeros_like(q)
        wp.launch(wet_dry_step, dim=N, inputs=[h, q, BED, DT], outputs=[h_new, q_new])
        h, q = h_new, q_new
        if loss is None:
            rec[n] = h.numpy()[GAUGES] + BED.numpy()[GAUGES]
        else:
            wp.launch(gauge_misfit, dim=len(GAUGES), inputs=[h, BED, GAUGE_IDX, obs, n], outputs=[loss])
    return rec


OBS = wp.array(run_up(wp.array([0.3, 3.0], dtype=float)), dtype=float)
PARAMS0 = [0.2, 2.5]
FD_EPS = 1e-3


def evaluate(p):
    amp_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        run_up(amp_w, loss, OBS)
    tape.backward(loss)
    return float(loss.numpy()[0]), amp_w.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: gauge misfit {f:.4e}  amplitude {p[0]:.4f} width {p[1]:.4f}  grad {g}")
        p = p - 0.01 * g
