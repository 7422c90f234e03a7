"""Recover a sphere's position and radius from a depth image by differentiating
through a fixed number of relaxed sphere-tracing steps."""
import numpy as np
import warp as wp

from _sdf_scene import RES, Sphere, camera_rays, depth_np, sphere_sdf

STEPS = 6
RELAX = 0.8


@wp.kernel
def trace_step(dirs: wp.array(dtype=wp.vec3), t: wp.array(dtype=float), sph: Sphere,
               t_next: wp.array(dtype=float)):
    i = wp.tid()
    p = t[i] * dirs[i]
    t_next[i] = t[i] + RELAX * sphere_sdf(p, sph.center[0], sph.radius[0])


@wp.kernel
def depth_loss(t: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = t[i] - ref[i]
    wp.atomic_add(loss, 0, d * d / float(RES * RES))


DIRS = camera_rays()
REF = depth_np(DIRS, (0.1, -0.05, 3.0), 0.9)
PARAMS0 = [0.0, 0.05, 3.2, 0.8]


def evaluate(p):
    sph = Sphere()
    sph.center = wp.array([p[:3]], dtype=wp.vec3, requires_grad=True)
    sph.radius = wp.array([p[3]], dtype=float, requires_grad=True)
    dirs = wp.array(DIRS, dtype=wp.vec3)
    ref = wp.array(REF, dtype=float)
    t = wp.full(RES * RES, 0.5, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(STEPS):
            t_next = wp.empty_like(t)
            wp.launch(trace_step, dim=RES * RES, inputs=[dirs, t, sph], outputs=[t_next])
            wp.copy(t, t_next)  # expect: overwrite
        wp.launch(depth_loss, dim=RES * RES, inputs=[t, ref], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([sph.center.grad.numpy()[0], sph.radius.grad.numpy()])
    return float(loss.numpy()[0]), g.astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(15):
        l, g = evaluate(p)
        p -= 0.02 * g
    print(f"depth loss {l:.3e} center {p[:3].round(3)} radius {p[3]:.3f}")
