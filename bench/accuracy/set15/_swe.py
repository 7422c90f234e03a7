"""1-D shallow-water tsunami channel (Lax-Friedrichs), with a tide-gauge recorder.

200 cells of 500 m over a 60 m deep shelf channel; a Gaussian sea-surface uplift of
amplitude A [m] and half-width w [km] at the centre. The gauge sits 15 km away.
"""
import numpy as np
import warp as wp

NX = 200
DX = 500.0
DEPTH = 60.0
GRAV = 9.81
DT = 8.0
GAUGE = NX // 2 + 30


class Fields:
    def __init__(self, n=NX):
        self.h = wp.zeros(n, dtype=float, requires_grad=True)  # surface elevation above still water [m]
        self.q = wp.zeros(n, dtype=float, requires_grad=True)  # discharge per unit width [m^2/s]


@wp.kernel
def uplift(prm: wp.array(dtype=float), h: wp.array(dtype=float), q: wp.array(dtype=float)):
    i = wp.tid()
    x = (float(i) - float(NX // 2)) * DX / 1000.0
    w = prm[1]
    h[i] = prm[0] * wp.exp(-x * x / (w * w))
    q[i] = 0.0


@wp.kernel
def lax_friedrichs(h: wp.array(dtype=float), q: wp.array(dtype=float), h_out: wp.array(dtype=float),
                   q_out: wp.array(dtype=float)):
    # full nonlinear shallow-water fluxes: q and q^2 / d + g d^2 / 2, d = depth + h
    i = wp.tid()
    if i == 0 or i == NX - 1:
        h_out[i] = h[i]
        q_out[i] = 0.0
    else:
        dl = DEPTH + h[i - 1]
        dr = DEPTH + h[i + 1]
        fl = q[i - 1] * q[i - 1] / dl + 0.5 * GRAV * dl * dl
        fr = q[i + 1] * q[i + 1] / dr + 0.5 * GRAV * dr * dr
        c = DT / (2.0 * DX)
        h_out[i] = 0.5 * (h[i - 1] + h[i + 1]) - c * (q[i + 1] - q[i - 1])
        q_out[i] = 0.5 * (q[i - 1] + q[i + 1]) - c * (fr - fl)


@wp.kernel
def lax_friedrichs_linear(h: wp.array(dtype=float), q: wp.array(dtype=float), h_out: wp.array(dtype=float),
                          q_out: wp.array(dtype=float)):
    # linearised about the still channel: fluxes q and g * depth * h
    i = wp.tid()
    if i == 0 or i == NX - 1:
        h_out[i] = h[i]
        q_out[i] = 0.0
    else:
        c = DT / (2.0 * DX)
        h_out[i] = 0.5 * (h[i - 1] + h[i + 1]) - c * (q[i + 1] - q[i - 1])
        q_out[i] = 0.5 * (q[i - 1] + q[i + 1]) - c * GRAV * DEPTH * (h[i + 1] - h[i - 1])


@wp.kernel
def record_gauge(h: wp.array(dtype=float), t: int, series: wp.array(dtype=float)):
    series[t] = h[GAUGE]


@wp.kernel
def series_misfit(series: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t = wp.tid()
    d = (series[t] - obs[t]) * 10.0
    wp.atomic_add(loss, 0, d * d)
