# correct: projection with radial distortion; vector components are each assigned exactly once on a fresh vec2, depth clamp goes to a separate scalar
import numpy as np
import warp as wp

FOCAL = 400.0


@wp.func
def distort_project(pc: wp.vec3, k1: float, k2: float, focal: float):
    z = wp.max(pc.z, 0.05)
    xn = pc.x / z
    yn = pc.y / z
    r2 = xn * xn + yn * yn
    s = 1.0 + k1 * r2 + k2 * r2 * r2
    uv = wp.vec2()
    uv[0] = focal * s * xn
    uv[1] = focal * s * yn
    return uv


@wp.kernel
def reprojection(
    pts: wp.array(dtype=wp.vec3),
    obs: wp.array(dtype=wp.vec2),
    k: wp.array(dtype=float),
    focal: float,
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    uv = distort_project(pts[i], k[0], k[1], focal)
    r = (uv - obs[i]) / focal
    wp.atomic_add(loss, 0, wp.dot(r, r))


rng = np.random.default_rng(31)
n = 24
pts_np = np.concatenate([rng.uniform(-1.5, 1.5, (n, 2)), rng.uniform(2, 4, (n, 1))], axis=1).astype(np.float32)
xn = pts_np[:, :2] / pts_np[:, 2:3]
r2 = np.sum(xn ** 2, axis=1, keepdims=True)
obs_np = (FOCAL * (1 - 0.12 * r2 + 0.03 * r2 ** 2) * xn).astype(np.float32)

pts = wp.array(pts_np, dtype=wp.vec3)
obs = wp.array(obs_np, dtype=wp.vec2)
k = wp.array([0.0, 0.0], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(reprojection, dim=n, inputs=[pts, obs, k, FOCAL], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
k_grad = k.grad.numpy().copy()
print("loss", loss_value, "dk", k_grad)
