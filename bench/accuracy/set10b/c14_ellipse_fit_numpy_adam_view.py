# correct: the NumPy optimizer holds a view of .grad (not a copy) across the step, but uses it before tape.zero() clears it
"""Geometric ellipse fitting to noisy edge points with a hand-written Adam in
NumPy.  Parameters: centre (2), log semi-axes (2), rotation angle.  The
residual is the algebraic distance normalised by its gradient norm (Sampson
approximation of the geometric distance).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 50


@wp.kernel
def sampson_residuals(pts: wp.array(dtype=wp.vec2), theta: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    c = wp.vec2(theta[0], theta[1])
    a = wp.exp(theta[2])
    b = wp.exp(theta[3])
    cs = wp.cos(theta[4])
    sn = wp.sin(theta[4])
    d = pts[i] - c
    u = cs * d[0] + sn * d[1]
    v = -sn * d[0] + cs * d[1]
    f = u * u / (a * a) + v * v / (b * b) - 1.0
    gu = 2.0 * u / (a * a)
    gv = 2.0 * v / (b * b)
    r = f / wp.sqrt(gu * gu + gv * gv + 1e-6)
    wp.atomic_add(loss, 0, r * r / float(N))


def edge_points(seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, 2 * np.pi, N)
    a, b, rot, c = 0.8, 0.45, 0.6, np.array([0.2, -0.1])
    p = np.stack([a * np.cos(t), b * np.sin(t)], 1)
    R = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]])
    return wp.array((p @ R.T + c + rng.normal(0, 0.01, p.shape)).astype(np.float32), dtype=wp.vec2)


PTS = edge_points()
PARAMS0 = np.array([0.0, 0.0, np.log(0.6), np.log(0.6), 0.3])


class EllipseFitter:
    def __init__(self, theta0):
        self.theta = wp.array(np.asarray(theta0, np.float32), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        self.m = np.zeros(5)
        self.v = np.zeros(5)
        self.t = 0
        self.last_grad = None

    def record(self):
        self.loss.zero_()
        self.tape.reset()
        with self.tape:
            wp.launch(sampson_residuals, dim=N, inputs=[PTS, self.theta], outputs=[self.loss])
        self.tape.backward(self.loss)

    def adam_step(self, lr=0.02, b1=0.9, b2=0.999, eps=1e-8):
        self.record()
        g = self.theta.grad.numpy()  # a view on the CPU
        self.last_grad = g.astype(np.float64)  # astype copies
        self.t += 1
        self.m = b1 * self.m + (1 - b1) * g
        self.v = b2 * self.v + (1 - b2) * g * g
        step = lr * (self.m / (1 - b1 ** self.t)) / (np.sqrt(self.v / (1 - b2 ** self.t)) + eps)
        self.theta.assign((self.theta.numpy() - step).astype(np.float32))
        self.tape.zero()
        return float(self.loss.numpy()[0])


def evaluate(p):
    fit = EllipseFitter(p)
    loss = fit.adam_step(lr=0.0)
    return loss, fit.last_grad


if __name__ == "__main__":
    fit = EllipseFitter(PARAMS0)
    for it in range(300):
        loss = fit.adam_step()
        if it % 100 == 0:
            print(f"iter {it:3d} sampson {loss:.2e} axes {np.round(np.exp(fit.theta.numpy()[2:4]), 3)}")
