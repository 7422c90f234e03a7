"""Fit a 2-D capsule signed distance function to boundary samples.

Parameters theta = (a_x, a_y, b_x, b_y, r): segment end points and radius.
The loss is the mean squared SDF at points sampled on the target outline plus
a small penalty keeping the segment from collapsing.  The update is a
hand-written Adam in NumPy.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PTS = 64


@wp.func
def capsule_sdf(p: wp.vec2, a: wp.vec2, b: wp.vec2, r: float):
    pa = p - a
    ba = b - a
    h = wp.clamp(wp.dot(pa, ba) / wp.dot(ba, ba), 0.0, 1.0)
    return wp.length(pa - ba * h) - r


@wp.kernel
def sdf_loss(pts: wp.array(dtype=wp.vec2), theta: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    a = wp.vec2(theta[0], theta[1])
    b = wp.vec2(theta[2], theta[3])
    d = capsule_sdf(pts[i], a, b, theta[4])
    wp.atomic_add(loss, 0, d * d / float(N_PTS))
    if i == 0:
        seg = wp.length(b - a)
        wp.atomic_add(loss, 0, 0.01 / (seg * seg + 0.01))


def outline_samples(seed=0):
    rng = np.random.default_rng(seed)
    a, b, r = np.array([-0.5, -0.1]), np.array([0.4, 0.3]), 0.25
    pts = []
    while len(pts) < N_PTS:
        t = rng.uniform(0, 1)
        ang = rng.uniform(0, 2 * np.pi)
        c = a + t * (b - a) if rng.uniform() < 0.6 else (a if rng.uniform() < 0.5 else b)
        p = c + r * np.array([np.cos(ang), np.sin(ang)])
        # keep only points on the capsule boundary
        ba = b - a
        h = np.clip(np.dot(p - a, ba) / np.dot(ba, ba), 0, 1)
        if abs(np.linalg.norm(p - a - ba * h) - r) < 1e-3:
            pts.append(p)
    return wp.array(np.array(pts, np.float32), dtype=wp.vec2)


class CapsuleFitter:
    def __init__(self, theta0, pts):
        self.theta = wp.array(np.asarray(theta0, np.float32), dtype=float, requires_grad=True)
        self.pts = pts
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        self.m = np.zeros(5)
        self.v = np.zeros(5)
        self.t = 0

    def compute_gradient(self):
        self.loss.zero_()
        self.tape.reset()
        with self.tape:
            wp.launch(sdf_loss, dim=N_PTS, inputs=[self.pts, self.theta], outputs=[self.loss])
        self.tape.backward(self.loss)
        grad = self.theta.grad.numpy()  # expect: grad_read
        self.tape.zero()
        return float(self.loss.numpy()[0]), grad

    def adam_step(self, lr=0.02, b1=0.9, b2=0.999, eps=1e-8):
        loss, g = self.compute_gradient()
        self.t += 1
        self.m = b1 * self.m + (1 - b1) * g
        self.v = b2 * self.v + (1 - b2) * g * g
        mh = self.m / (1 - b1 ** self.t)
        vh = self.v / (1 - b2 ** self.t)
        self.theta.assign((self.theta.numpy() - lr * mh / (np.sqrt(vh) + eps)).astype(np.float32))
        return loss


PTS = outline_samples()
PARAMS0 = np.array([-0.3, 0.0, 0.3, 0.1, 0.15])


def evaluate(p):
    loss, g = CapsuleFitter(p, PTS).compute_gradient()
    return loss, np.array(g, dtype=np.float64)


if __name__ == "__main__":
    fit = CapsuleFitter(PARAMS0, PTS)
    for it in range(150):
        loss = fit.adam_step()
        if it % 50 == 0:
            print(f"iter {it:3d} loss {loss:.6f} theta {np.round(fit.theta.numpy(), 3)}")
