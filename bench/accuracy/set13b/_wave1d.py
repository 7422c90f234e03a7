"""1-D acoustic wave propagation for full-waveform inversion.

Velocity is a piecewise-linear profile through control nodes; second-order
leapfrog in time with the full wavefield history kept (one buffer per time
level); pressure traces recorded at receivers.
"""
import numpy as np
import warp as wp

N = 100
DX = 10.0
DT = 2.5e-3
NT = 180
SRC = 6
RECS = np.array([30, 55, 80, 95], dtype=np.int32)


@wp.kernel
def profile_from_nodes(nodes: wp.array(dtype=float), c: wp.array(dtype=float)):
    i = wp.tid()
    s = float(i) / float(c.shape[0] - 1) * float(nodes.shape[0] - 1)
    k = wp.min(int(s), nodes.shape[0] - 2)
    w = s - float(k)
    c[i] = (1.0 - w) * nodes[k] + w * nodes[k + 1]


@wp.kernel
def leapfrog(u_prev: wp.array(dtype=float), u: wp.array(dtype=float), c: wp.array(dtype=float),
             f: float, src: int, k2: float, u_next: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    if i == 0 or i == n - 1:
        u_next[i] = 0.0
        return
    val = 2.0 * u[i] - u_prev[i] + c[i] * c[i] * k2 * (u[i - 1] - 2.0 * u[i] + u[i + 1])
    if i == src:
        val = val + f
    u_next[i] = val


@wp.kernel
def record(u: wp.array(dtype=float), recs: wp.array(dtype=wp.int32), t: int, traces: wp.array2d(dtype=float)):
    r = wp.tid()
    traces[t, r] = u[recs[r]]


def ricker(nt=NT, dt=DT, f0=12.0, delay=1.2):
    t = np.arange(nt) * dt - delay / f0
    a = (np.pi * f0 * t) ** 2
    return ((1.0 - 2.0 * a) * np.exp(-a)).astype(np.float32)


class Acoustic1D:
    def __init__(self, requires_grad=True):
        rg = requires_grad
        self.c = wp.zeros(N, dtype=float, requires_grad=rg)
        self.u = [wp.zeros(N, dtype=float, requires_grad=rg) for _ in range(NT + 2)]
        self.traces = wp.zeros((NT, len(RECS)), dtype=float, requires_grad=rg)
        self.recs = wp.array(RECS, dtype=wp.int32)
        self.wavelet = ricker()

    def forward(self, nodes, src=SRC):
        wp.launch(profile_from_nodes, dim=N, inputs=[nodes], outputs=[self.c])
        k2 = DT * DT / (DX * DX)
        for t in range(NT):
            wp.launch(leapfrog, dim=N, inputs=[self.u[t], self.u[t + 1], self.c, float(self.wavelet[t]), src, k2],
                      outputs=[self.u[t + 2]])
            wp.launch(record, dim=len(RECS), inputs=[self.u[t + 2], self.recs, t], outputs=[self.traces])
        return self.traces


def synthetic_data(true_nodes, src=SRC):
    sim = Acoustic1D(requires_grad=False)
    return wp.clone(sim.forward(wp.array(np.asarray(true_nodes, dtype=np.float32), dtype=float), src))
