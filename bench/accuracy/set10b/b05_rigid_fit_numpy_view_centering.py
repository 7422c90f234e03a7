"""Rigid registration with known correspondences (quaternion + translation).

Source points are rotated by a (normalised) quaternion, translated and
compared to the target scan; the residual is a Cauchy-robustified point
distance.  After each forward pass the script logs the centred RMS spread of
the source scan as a diagnostic.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PTS = 40
SCALE = 0.05  # Cauchy scale


@wp.kernel
def residuals(
    src: wp.array(dtype=wp.vec3),
    dst: wp.array(dtype=wp.vec3),
    q_raw: wp.array(dtype=wp.quat),
    t: wp.array(dtype=wp.vec3),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    q = wp.normalize(q_raw[0])
    p = wp.quat_rotate(q, src[i]) + t[0]
    d = p - dst[i]
    r2 = wp.dot(d, d) / (SCALE * SCALE)
    wp.atomic_add(loss, 0, wp.log(1.0 + r2) / float(N_PTS))


def random_scan(seed):
    rng = np.random.default_rng(seed)
    src = rng.normal(size=(N_PTS, 3)).astype(np.float32) * np.array([0.5, 0.3, 0.2], np.float32) + np.array([0.8, -0.4, 0.3], np.float32)
    axis = np.array([0.3, 0.8, 0.5])
    axis /= np.linalg.norm(axis)
    ang = 0.4
    q = np.concatenate([axis * np.sin(ang / 2), [np.cos(ang / 2)]])
    x, y, z, w = q
    R = np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])
    dst = src @ R.T + np.array([0.1, 0.05, -0.2]) + rng.normal(0, 0.01, (N_PTS, 3))
    return src, dst.astype(np.float32)


class RigidFit:
    def __init__(self, src, dst):
        self.src = wp.array(src, dtype=wp.vec3)
        self.dst = wp.array(dst, dtype=wp.vec3)
        self.q = wp.array([wp.quat(0.05, 0.1, 0.05, 1.0)], dtype=wp.quat, requires_grad=True)
        self.t = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.log = []

    def spread_diagnostic(self):
        pts = self.src.numpy()  # expect: untaped_write
        pts -= pts.mean(axis=0)
        self.log.append(float(np.sqrt((pts ** 2).sum(1).mean())))

    def loss_and_grad(self):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(residuals, dim=N_PTS, inputs=[self.src, self.dst, self.q, self.t], outputs=[self.loss])
        self.spread_diagnostic()
        tape.backward(self.loss)
        g = np.concatenate([self.q.grad.numpy().ravel(), self.t.grad.numpy().ravel()]).astype(np.float64)
        tape.zero()
        return float(self.loss.numpy()[0]), g

    def set_flat(self, p):
        p = np.asarray(p, dtype=np.float32)
        self.q.assign(p[None, 0:4])
        self.t.assign(p[None, 4:7])


_SRC, _DST = random_scan(0)
PARAMS0 = np.array([0.05, 0.1, 0.05, 1.0, 0.0, 0.0, 0.0])
FD_EPS = 1e-3


def evaluate(p):
    fit = RigidFit(_SRC, _DST)
    fit.set_flat(p)
    return fit.loss_and_grad()


if __name__ == "__main__":
    fit = RigidFit(_SRC, _DST)
    p = PARAMS0.copy()
    for it in range(150):
        fit.set_flat(p)
        loss, g = fit.loss_and_grad()
        p -= 0.01 * g
        if it % 50 == 0:
            print(f"iter {it:3d} loss {loss:.4f} spread {fit.log[-1]:.3f}")
    print("final loss", loss)
