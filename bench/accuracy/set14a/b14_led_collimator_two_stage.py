"""Uniform illumination from an LED through a plano-convex collimator (two stages).

Stage 1 traces a fan of LED rays through the collimator (front curvature c1, lens
position z_l) to the exit plane; stage 2 propagates them to a target 200 mm away and
measures the irradiance non-uniformity. The stages are recorded on two tapes (stage 2
is reused for several targets), and the gradient is chained by hand through the ray
state at the exit plane.
"""
import numpy as np
import warp as wp

from _raytrace import through_surface

N_RAYS = 96
N_BINS = 24
N_GLASS = 1.49
THICK = 6.0
Z_EXIT = 40.0
Z_TARGET = 240.0
ANG = np.linspace(-0.35, 0.35, N_RAYS).astype(np.float32)
PARAMS0 = np.array([0.055, 18.0])  # c1 (1/mm), lens vertex z (mm)
FD_EPS = [1e-5, 1e-2]


@wp.kernel
def collimator(ang: wp.array(dtype=float), prm: wp.array(dtype=float), n_glass: float, thick: float, z_exit: float,
               ray: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p = wp.vec2(0.0, 0.0)
    d = wp.vec2(wp.cos(ang[i]), wp.sin(ang[i]))
    z_l = prm[1]
    p, d = through_surface(p, d, z_l, 0.0, 1.0 / n_glass)        # plane face towards the LED
    p, d = through_surface(p, d, z_l + thick, -prm[0], n_glass)  # convex exit face
    y = p[1] + (z_exit - p[0]) * d[1] / d[0]
    ray[i] = wp.vec2(y, d[1] / d[0])


@wp.kernel
def irradiance(ray: wp.array(dtype=wp.vec2), dz: float, half: float, e: wp.array(dtype=float)):
    i, b = wp.tid()
    y = ray[i][0] + dz * ray[i][1]
    yc = -half + (float(b) + 0.5) * 2.0 * half / float(e.shape[0])
    u = (y - yc) / 6.0
    wp.atomic_add(e, b, wp.cos(wp.atan(ray[i][1])) * wp.exp(-u * u))


@wp.kernel
def total_power(e: wp.array(dtype=float), s: wp.array(dtype=float)):
    wp.atomic_add(s, 0, e[wp.tid()])


@wp.kernel
def nonuniformity(e: wp.array(dtype=float), s: wp.array(dtype=float), loss: wp.array(dtype=float)):
    b = wp.tid()
    mean = s[0] / float(e.shape[0])
    wp.atomic_add(loss, 0, (e[b] - mean) * (e[b] - mean) / float(e.shape[0]))


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ang = wp.array(ANG, dtype=float)
    ray = wp.zeros(N_RAYS, dtype=wp.vec2, requires_grad=True)
    ray2 = wp.zeros(N_RAYS, dtype=wp.vec2, requires_grad=True)
    e = wp.zeros(N_BINS, dtype=float, requires_grad=True)
    s = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape1 = wp.Tape()
    with tape1:
        wp.launch(collimator, dim=N_RAYS, inputs=[ang, prm, N_GLASS, THICK, Z_EXIT], outputs=[ray])
    wp.copy(ray2, ray)
    tape2 = wp.Tape()
    with tape2:
        wp.launch(irradiance, dim=(N_RAYS, N_BINS), inputs=[ray2, Z_TARGET - Z_EXIT, 60.0], outputs=[e])
        wp.launch(total_power, dim=N_BINS, inputs=[e], outputs=[s])
        wp.launch(nonuniformity, dim=N_BINS, inputs=[e, s], outputs=[loss])
    tape2.backward(loss)
    tape2.zero()  # expect: grad_read
    tape1.backward(grads={ray: wp.clone(ray2.grad)})
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"irradiance variance {L:.4f}; d/d(c1, z_l) = {g}")
