# correct: the previous-iterate distances are copied after backward(), outside the recorded region
"""Fit a sphere SDF (centre, radius) to a scanned point cloud with a proximal term.

Each iteration minimises  mean(sdf(p)^2) + lam * mean((sdf(p) - sdf_prev(p))^2),
where sdf_prev holds the distances of the previous iterate.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 48
LAM = 0.5


@wp.func
def sphere_sdf(p: wp.vec3, c: wp.vec3, r: float):
    return wp.length(p - c) - r


@wp.kernel
def eval_sdf(pts: wp.array(dtype=wp.vec3), center: wp.array(dtype=wp.vec3), radius: wp.array(dtype=float),
             d: wp.array(dtype=float)):
    i = wp.tid()
    d[i] = sphere_sdf(pts[i], center[0], radius[0])


@wp.kernel
def data_term(d: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, d[i] * d[i] * inv_n)


@wp.kernel
def prox_term(d: wp.array(dtype=float), d_prev: wp.array(dtype=float), lam: float, inv_n: float,
              loss: wp.array(dtype=float)):
    i = wp.tid()
    e = d[i] - d_prev[i]
    wp.atomic_add(loss, 0, lam * e * e * inv_n)


def scan(seed=3):
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(N, 3))
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    pts = np.array([0.3, -0.2, 0.1]) + u * np.array([1.1, 0.9, 1.0]) + 0.01 * rng.normal(size=(N, 3))
    return wp.array(pts.astype(np.float32), dtype=wp.vec3)


class SphereFit:
    def __init__(self, pts, p, p_prev):
        self.pts = pts
        self.center = wp.array([p[:3].astype(np.float32)], dtype=wp.vec3, requires_grad=True)
        self.radius = wp.array(p[3:4].astype(np.float32), dtype=float, requires_grad=True)
        self.d = wp.zeros(N, dtype=float, requires_grad=True)
        self.d_prev = wp.zeros(N, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        # distances of the previous iterate (warm start from an earlier run)
        c_prev = wp.array([p_prev[:3].astype(np.float32)], dtype=wp.vec3)
        r_prev = wp.array(p_prev[3:4].astype(np.float32), dtype=float)
        wp.launch(eval_sdf, dim=N, inputs=[self.pts, c_prev, r_prev], outputs=[self.d_prev])

    def step(self):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(eval_sdf, dim=N, inputs=[self.pts, self.center, self.radius], outputs=[self.d])
            wp.launch(data_term, dim=N, inputs=[self.d, 1.0 / N], outputs=[self.loss])
            wp.launch(prox_term, dim=N, inputs=[self.d, self.d_prev, LAM, 1.0 / N], outputs=[self.loss])
        tape.backward(self.loss)
        wp.copy(self.d_prev, self.d)
        g = np.concatenate([self.center.grad.numpy().ravel(), self.radius.grad.numpy()]).astype(np.float64)
        return float(self.loss.numpy()[0]), g, tape


PARAMS0 = np.array([0.0, 0.0, 0.0, 0.7])
PARAMS_PREV = np.array([0.05, -0.05, 0.0, 0.6])


def evaluate(p):
    fit = SphereFit(scan(), np.asarray(p), PARAMS_PREV)
    loss, g, _ = fit.step()
    return loss, g


if __name__ == "__main__":
    fit = SphereFit(scan(), PARAMS0, PARAMS_PREV)
    lr = 0.3
    for it in range(30):
        loss, g, tape = fit.step()
        fit.center.assign(fit.center.numpy() - lr * g[:3].astype(np.float32))
        fit.radius.assign(fit.radius.numpy() - lr * g[3:].astype(np.float32))
        tape.zero()
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.5f}")
    print("centre", fit.center.numpy()[0], "radius", fit.radius.numpy()[0])
