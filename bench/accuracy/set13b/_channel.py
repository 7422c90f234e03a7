"""1-D shallow-water channel (h, q = hu) with variable bathymetry.

Lax-Friedrichs fluxes with a global dissipation speed, hydrostatic bed-slope
source term, reflective walls. The simulator preallocates the whole state
history so every step writes its own arrays.
"""
import numpy as np
import warp as wp

NCELL = 48
DX = 10.0
DT = 0.4
GRAV = wp.constant(9.81)
ALPHA = wp.constant(7.0)        # global LF dissipation speed (> |u| + sqrt(g h))
H_REST = 1.5
GAUGES = np.array([12, 24, 36], dtype=np.int32)


@wp.kernel
def bed_from_controls(ctrl: wp.array(dtype=float), dx: float, b: wp.array(dtype=float)):
    # piecewise-linear bed through len(ctrl) equally spaced control points
    i = wp.tid()
    n = b.shape[0]
    s = float(i) / float(n - 1) * float(ctrl.shape[0] - 1)
    k = wp.min(int(s), ctrl.shape[0] - 2)
    w = s - float(k)
    b[i] = (1.0 - w) * ctrl[k] + w * ctrl[k + 1]


@wp.kernel
def still_water_with_hump(b: wp.array(dtype=float), h_rest: float, amp: float, center: float,
                          h: wp.array(dtype=float), q: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i) - center
    h[i] = h_rest - b[i] + amp * wp.exp(-x * x / 8.0)
    q[i] = 0.0


@wp.func
def flux_q(h: float, q: float):
    return q * q / h + 0.5 * GRAV * h * h


@wp.kernel
def lf_step(h: wp.array(dtype=float), q: wp.array(dtype=float), b: wp.array(dtype=float), dt: float, dx: float,
            h_out: wp.array(dtype=float), q_out: wp.array(dtype=float)):
    i = wp.tid()
    n = h.shape[0]
    # reflective ghost cells
    hl = h[wp.max(i - 1, 0)]
    ql = q[wp.max(i - 1, 0)]
    if i == 0:
        ql = -q[0]
    hr = h[wp.min(i + 1, n - 1)]
    qr = q[wp.min(i + 1, n - 1)]
    if i == n - 1:
        qr = -q[n - 1]
    hc = h[i]
    qc = q[i]
    # Lax-Friedrichs fluxes at the two faces
    fh_w = 0.5 * (ql + qc) - 0.5 * ALPHA * (hc - hl)
    fh_e = 0.5 * (qc + qr) - 0.5 * ALPHA * (hr - hc)
    fq_w = 0.5 * (flux_q(hl, ql) + flux_q(hc, qc)) - 0.5 * ALPHA * (qc - ql)
    fq_e = 0.5 * (flux_q(hc, qc) + flux_q(hr, qr)) - 0.5 * ALPHA * (qr - qc)
    bl = b[wp.max(i - 1, 0)]
    br = b[wp.min(i + 1, n - 1)]
    slope = (br - bl) / (2.0 * dx)
    h_out[i] = hc - dt / dx * (fh_e - fh_w)
    q_out[i] = qc - dt / dx * (fq_e - fq_w) - dt * GRAV * hc * slope


@wp.kernel
def record_gauges(h: wp.array(dtype=float), b: wp.array(dtype=float), gauges: wp.array(dtype=wp.int32), t: int,
                  eta: wp.array2d(dtype=float)):
    g = wp.tid()
    k = gauges[g]
    eta[t, g] = h[k] + b[k]


@wp.kernel
def series_misfit(eta: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    t, g = wp.tid()
    d = eta[t, g] - obs[t, g]
    wp.atomic_add(loss, 0, d * d)


class Channel:
    def __init__(self, nsteps, requires_grad=True):
        self.nsteps = nsteps
        rg = requires_grad
        self.b = wp.zeros(NCELL, dtype=float, requires_grad=rg)
        self.h = [wp.zeros(NCELL, dtype=float, requires_grad=rg) for _ in range(nsteps + 1)]
        self.q = [wp.zeros(NCELL, dtype=float, requires_grad=rg) for _ in range(nsteps + 1)]
        self.eta = wp.zeros((nsteps, len(GAUGES)), dtype=float, requires_grad=rg)
        self.gauges = wp.array(GAUGES, dtype=wp.int32)

    def run(self, ctrl, amp, center=10.0):
        wp.launch(bed_from_controls, dim=NCELL, inputs=[ctrl, DX], outputs=[self.b])
        wp.launch(still_water_with_hump, dim=NCELL, inputs=[self.b, H_REST, amp, center],
                  outputs=[self.h[0], self.q[0]])
        for t in range(self.nsteps):
            wp.launch(lf_step, dim=NCELL, inputs=[self.h[t], self.q[t], self.b, DT, DX],
                      outputs=[self.h[t + 1], self.q[t + 1]])
            wp.launch(record_gauges, dim=len(GAUGES), inputs=[self.h[t + 1], self.b, self.gauges, t],
                      outputs=[self.eta])
        return self.eta
