# correct: bent-ray tomography whose ray-marching loop has the compile-time constant bound RAY_STEPS (16, unrolled)
"""Travel-time tomography with bent rays through a smooth velocity model.

v(x, z) = v0 + k z + A exp(-|x - x_a|^2 / w^2): the background velocity v0,
the depth gradient k and the amplitude A of a low-velocity anomaly are
fitted to first-arrival times and emergence points of rays shot at fixed
take-off angles. Each thread traces one ray with the ray equations.
"""
import numpy as np
import warp as wp

RAY_STEPS = wp.constant(16)
ARC = 6.0           # km of ray path
ANOM = wp.constant(wp.vec2(2.5, 1.5))


@wp.func
def velocity(x: wp.vec2, prm: wp.array(dtype=float)):
    d = x - ANOM
    return prm[0] + prm[1] * x[1] + prm[2] * wp.exp(-wp.dot(d, d))


@wp.func
def velocity_grad(x: wp.vec2, prm: wp.array(dtype=float)):
    d = x - ANOM
    g = -2.0 * prm[2] * wp.exp(-wp.dot(d, d)) * d
    return g + wp.vec2(0.0, prm[1])


@wp.kernel
def trace_rays(angles: wp.array(dtype=float), prm: wp.array(dtype=float),
               tt: wp.array(dtype=float), end: wp.array(dtype=wp.vec2)):
    r = wp.tid()
    ds = ARC / float(RAY_STEPS)
    x = wp.vec2(0.0, 0.0)
    e = wp.vec2(wp.cos(angles[r]), wp.sin(angles[r]))
    t = float(0.0)
    for k in range(RAY_STEPS):
        v = velocity(x, prm)
        gv = velocity_grad(x, prm)
        # de/ds = -(grad v - (grad v . e) e) / v  (rays bend towards low velocity)
        e = wp.normalize(e - ds * (gv - wp.dot(gv, e) * e) / v)
        x = x + ds * e
        t += ds / velocity(x, prm)
    tt[r] = t
    end[r] = x


@wp.kernel
def arrival_misfit(tt: wp.array(dtype=float), end: wp.array(dtype=wp.vec2), tt_obs: wp.array(dtype=float),
                   end_obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    r = wp.tid()
    dt = tt[r] - tt_obs[r]
    de = end[r] - end_obs[r]
    wp.atomic_add(loss, 0, 100.0 * dt * dt + wp.dot(de, de))


ANGLES = wp.array(np.deg2rad(np.linspace(15.0, 75.0, 9)).astype(np.float32), dtype=float)
NRAYS = ANGLES.shape[0]


def shoot(prm):
    tt = wp.zeros(NRAYS, dtype=float, requires_grad=True)
    end = wp.zeros(NRAYS, dtype=wp.vec2, requires_grad=True)
    wp.launch(trace_rays, dim=NRAYS, inputs=[ANGLES, prm], outputs=[tt, end])
    return tt, end


TT_OBS, END_OBS = [wp.clone(a) for a in shoot(wp.array([4.0, 0.5, -1.2], dtype=float))]
PARAMS0 = [3.9, 0.48, -0.6]
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        tt, end = shoot(prm)
        wp.launch(arrival_misfit, dim=NRAYS, inputs=[tt, end, TT_OBS, END_OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(5):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  v0 {p[0]:.3f} k {p[1]:.3f} A {p[2]:.3f}  grad {g}")
        p = p - 0.05 * g / (np.abs(g).max() + 1e-12)
