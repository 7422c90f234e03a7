"""Creep of a snow slab on an avalanche slope (glide-shoe measurements).

Shear creep rate = A * (tau - tau_y)^n where the shear stress exceeds the
yield stress, zero below it. Slab shear stresses come from depth, density
and slope; A, the exponent n and the yield stress are fitted to creep rates
from glide shoes at nine sites (three of them below yield).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

DEPTH = np.array([0.8, 1.1, 0.6, 1.4, 0.9, 1.2, 0.5, 1.6, 1.0], dtype=np.float32)  # m
RHO = np.array([220.0, 260.0, 180.0, 300.0, 240.0, 280.0, 160.0, 320.0, 250.0], dtype=np.float32)
SLOPE = np.radians(np.array([35.0, 38.0, 20.0, 40.0, 33.0, 37.0, 18.0, 42.0, 25.0])).astype(np.float32)
RATE_OBS = np.array([0.12, 0.61, 0.0, 1.35, 0.22, 0.92, 0.0, 1.81, 0.0], dtype=np.float32)  # mm/h


@wp.kernel
def creep_misfit(depth: wp.array(dtype=float), rho: wp.array(dtype=float), slope: wp.array(dtype=float),
                 obs: wp.array(dtype=float), p: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    tau = rho[i] * 9.81 * depth[i] * wp.sin(slope[i]) * wp.cos(slope[i]) / 1000.0  # kPa
    excess = tau - p[2]
    rate = wp.where(excess > 0.0, p[0] * wp.pow(excess, p[1]), 0.0)  # expect: nonfinite
    r = rate - obs[i]
    wp.atomic_add(loss, 0, r * r)


arrs = [wp.array(a, dtype=float) for a in (DEPTH, RHO, SLOPE, RATE_OBS)]
PARAMS0 = [0.35, 1.6, 0.8]
FD_EPS = [1e-3, 1e-3, 1e-3]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(creep_misfit, dim=len(DEPTH), inputs=arrs + [params], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"creep misfit {l:.4f}  grad A/n/tau_y = {g}")
