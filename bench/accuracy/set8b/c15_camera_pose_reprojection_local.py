# correct: the near-plane clamp goes into a fresh local; every vector component is assigned once
"""Estimate a camera translation and focal length from 2D observations of known 3D points.

Points closer than the near plane are projected at the near plane, as the
renderer that produced the observations does.
"""

import numpy as np
import warp as wp


wp.config.quiet = True

NEAR = 0.5
N_PTS = 10


@wp.func
def world_to_camera(p: wp.vec3, t: wp.vec3):
    return p - t


@wp.func
def project(pc: wp.vec3, focal: float, near: float):
    z = wp.max(pc.z, near)
    uv = wp.vec2()
    uv[0] = focal * pc.x / z
    uv[1] = focal * pc.y / z
    return uv


@wp.kernel
def reprojection(pts: wp.array(dtype=wp.vec3), obs: wp.array(dtype=wp.vec2), t: wp.array(dtype=wp.vec3),
                 focal: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    uv = project(world_to_camera(pts[i], t[0]), focal[0], NEAR)
    r = uv - obs[i]
    wp.atomic_add(loss, 0, wp.dot(r, r) * inv_n)


def scene():
    rng = np.random.default_rng(41)
    pts = np.c_[rng.uniform(-1, 1, (N_PTS, 2)), rng.uniform(1.5, 4.0, N_PTS)]
    pts[:3, 2] = [0.3, 0.45, 0.35]  # a few points sit right in front of the camera
    t_true, f_true = np.array([0.1, -0.05, 0.0]), 1.1
    pc = pts - t_true
    z = np.maximum(pc[:, 2], NEAR)
    uv = f_true * pc[:, :2] / z[:, None]
    return wp.array(pts.astype(np.float32), dtype=wp.vec3), wp.array(uv.astype(np.float32), dtype=wp.vec2)


def loss_and_grad(p, pts, obs):
    t = wp.array([np.asarray(p[:3], dtype=np.float32)], dtype=wp.vec3, requires_grad=True)
    focal = wp.array(np.asarray(p[3:4], dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    with wp.Tape() as tape:
        wp.launch(reprojection, dim=N_PTS, inputs=[pts, obs, t, focal, 1.0 / N_PTS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.r_[t.grad.numpy()[0], focal.grad.numpy()].astype(np.float64)


PARAMS0 = np.array([0.0, 0.0, 0.05, 1.0])


def evaluate(p):
    pts, obs = scene()
    return loss_and_grad(p, pts, obs)


if __name__ == "__main__":
    pts, obs = scene()
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = loss_and_grad(p, pts, obs)
        p -= 0.05 * g
        if it % 10 == 0:
            print(f"iter {it:2d} reprojection {loss:.6f}")
    print("t", np.round(p[:3], 4), "focal", round(p[3], 4))
