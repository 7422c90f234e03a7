"""1-D shallow-water channel (Lax-Friedrichs, reflective ends)."""
import numpy as np
import warp as wp

G = 9.81


@wp.kernel
def initial_surface(params: wp.array(dtype=float), dx: float, h: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i) * dx
    h[i] = 1.0 + params[0] * wp.exp(-((x - 0.3) * (x - 0.3)) / 0.01)


@wp.func
def flux(h: float, hu: float):
    return wp.vec2(hu, hu * hu / h + 0.5 * G * h * h)


@wp.kernel
def lax_friedrichs(h: wp.array(dtype=float), hu: wp.array(dtype=float), params: wp.array(dtype=float),
                   dt: float, dx: float, h_out: wp.array(dtype=float), hu_out: wp.array(dtype=float)):
    i = wp.tid()
    n = h.shape[0]
    l = wp.max(i - 1, 0)
    r = wp.min(i + 1, n - 1)
    hul = hu[l]
    hur = hu[r]
    if i == 0:
        hul = -hu[r]
    if i == n - 1:
        hur = -hu[l]
    Fl = flux(h[l], hul)
    Fr = flux(h[r], hur)
    hn = 0.5 * (h[l] + h[r]) - 0.5 * dt / dx * (Fr[0] - Fl[0])
    hun = 0.5 * (hul + hur) - 0.5 * dt / dx * (Fr[1] - Fl[1])
    h_out[i] = hn
    hu_out[i] = hun - dt * params[1] * hun / hn


@wp.kernel
def gauge_errors(h: wp.array(dtype=float), gauges: wp.array(dtype=int), obs: wp.array(dtype=float),
                 err: wp.array(dtype=float)):
    k = wp.tid()
    d = h[gauges[k]] - obs[k]
    err[k] = d * d


class Channel:
    def __init__(self, n=64, length=1.0, steps=40):
        self.n = n
        self.dx = length / n
        self.dt = 0.3 * self.dx / np.sqrt(G * 1.2)
        self.steps = steps
        self.gauges = wp.array(np.array([8, 20, 33, 41, 50, 58], dtype=np.int32), dtype=int)
        self.obs = wp.array(np.array([1.02, 1.05, 1.03, 1.01, 1.0, 0.99], dtype=np.float32), dtype=float)
