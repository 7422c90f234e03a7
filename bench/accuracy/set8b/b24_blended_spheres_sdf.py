"""Fit two smoothly blended spheres (log-sum-exp union) to signed-distance samples."""

import numpy as np
import warp as wp

from _sdf_ops import smooth_union, sphere

wp.config.quiet = True

N = 40
K_SMOOTH = 0.1


@wp.kernel
def sdf_fit(pts: wp.array(dtype=wp.vec3), d_obs: wp.array(dtype=float), centers: wp.array(dtype=wp.vec3),
            radii: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = smooth_union(sphere(pts[i], centers[0], radii[0]), sphere(pts[i], centers[1], radii[1]), K_SMOOTH)
    r = d - d_obs[i]
    wp.atomic_add(loss, 0, r * r * inv_n)


TRUE = np.array([-0.35, 0.0, 0.0, 0.4, 0.1, 0.0, 0.45, 0.35])


def samples():
    rng = np.random.default_rng(81)
    pts = rng.uniform(-1, 1, (N, 3))
    da = np.linalg.norm(pts - TRUE[0:3], axis=1) - TRUE[6]
    db = np.linalg.norm(pts - TRUE[3:6], axis=1) - TRUE[7]
    m = np.minimum(da, db)
    d = m - K_SMOOTH * np.log(np.exp((m - da) / K_SMOOTH) + np.exp((m - db) / K_SMOOTH))
    return wp.array(pts.astype(np.float32), dtype=wp.vec3), wp.array(d.astype(np.float32), dtype=float)


class BlobFit:
    def __init__(self):
        self.pts, self.d_obs = samples()

    def loss_and_grad(self, p):
        p = np.asarray(p, dtype=np.float32)
        centers = wp.array(p[:6].reshape(2, 3), dtype=wp.vec3, requires_grad=True)
        radii = wp.array(p[6:], dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with wp.Tape() as tape:
            wp.launch(sdf_fit, dim=N, inputs=[self.pts, self.d_obs, centers, radii, 1.0 / N], outputs=[loss])
        tape.backward(loss)
        g = np.r_[centers.grad.numpy().ravel(), radii.grad.numpy()].astype(np.float64)
        return float(loss.numpy()[0]), g


PARAMS0 = np.array([-0.3, 0.05, 0.0, 0.3, 0.0, 0.05, 0.4, 0.4])


def evaluate(p):
    return BlobFit().loss_and_grad(p)


if __name__ == "__main__":
    fit = BlobFit()
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = fit.loss_and_grad(p)
        p -= 0.5 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.6f}")
    print("centres", np.round(p[:6].reshape(2, 3), 3).tolist(), "radii", np.round(p[6:], 3))
