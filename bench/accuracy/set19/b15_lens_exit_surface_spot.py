"""Spot-size optimisation of a plano-convex collimator's exit surface.

Rays travel inside the glass parallel to the axis at heights h and leave
through a paraboloidal surface z = c h^2 / 2. Snell's law is applied in vector
form (wp.vec3); marginal rays beyond the critical angle are totally internally
reflected and do not reach the detector, so they are masked out of the spot.
Curvature c (1/mm) and refractive index n are the design variables; the merit
function is the RMS ray height on the detector plane.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

Z_DET = 30.0  # mm behind the vertex
HEIGHTS = np.linspace(-12.0, 12.0, 25)


@wp.kernel
def trace_exit(par: wp.array(dtype=float), h: wp.array(dtype=float), spot: wp.array(dtype=float),
               count: wp.array(dtype=float)):
    i = wp.tid()
    c = par[0]
    eta = par[1]  # n_glass / n_air
    d = wp.vec3(0.0, 0.0, 1.0)
    nrm = wp.normalize(wp.vec3(-c * h[i], 0.0, 1.0))
    cos_i = wp.dot(d, nrm)
    arg = 1.0 - eta * eta * (1.0 - cos_i * cos_i)
    cos_t = wp.where(arg > 0.0, wp.sqrt(arg), 0.0)  # expect: nonfinite
    t = eta * d + (cos_t - eta * cos_i) * nrm
    sag = 0.5 * c * h[i] * h[i]
    x = h[i] + t[0] * (Z_DET - sag) / t[2]
    w = wp.where(arg > 0.0, 1.0, 0.0)
    wp.atomic_add(spot, 0, w * x * x)
    wp.atomic_add(count, 0, w)


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    spot = wp.zeros(1, dtype=float, requires_grad=True)
    count = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(trace_exit, dim=len(HEIGHTS), inputs=[par, wp.array(HEIGHTS, dtype=float)], outputs=[spot, count])
    tape.backward(spot)
    return float(spot.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [0.1, 1.5]
FD_EPS = 1e-4

if __name__ == "__main__":
    merit, g = evaluate(np.array(PARAMS0))
    print(f"sum of squared ray heights {merit:.3f} mm^2  d/dc {g[0]:.3f}  d/dn {g[1]:.3f}")
