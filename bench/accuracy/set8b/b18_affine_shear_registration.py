"""Register two 2D point sets with a rotation + shear + translation model.

A = R(theta) + [[0, shear], [0, 0]],  loss = mean |A p + t - q|^2.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 16


@wp.func
def pose_matrix(theta: float, shear: float):
    c = wp.cos(theta)
    s = wp.sin(theta)
    A = wp.mat22(c, -s, s, c)
    A[0, 1] = A[0, 1] + shear  # expect: component_reassign
    return A


@wp.kernel
def registration_loss(src: wp.array(dtype=wp.vec2), dst: wp.array(dtype=wp.vec2), pose: wp.array(dtype=float),
                      inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    A = pose_matrix(pose[0], pose[1])
    r = A * src[i] + wp.vec2(pose[2], pose[3]) - dst[i]
    wp.atomic_add(loss, 0, wp.dot(r, r) * inv_n)


def point_sets():
    rng = np.random.default_rng(51)
    src = rng.uniform(-1, 1, (N, 2))
    th, sh, t = 0.4, 0.25, np.array([0.3, -0.2])
    A = np.array([[np.cos(th), -np.sin(th) + sh], [np.sin(th), np.cos(th)]])
    dst = src @ A.T + t + 0.01 * rng.normal(size=(N, 2))
    return wp.array(src.astype(np.float32), dtype=wp.vec2), wp.array(dst.astype(np.float32), dtype=wp.vec2)


class Registration:
    def __init__(self):
        self.src, self.dst = point_sets()

    def __call__(self, p):
        pose = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with wp.Tape() as tape:
            wp.launch(registration_loss, dim=N, inputs=[self.src, self.dst, pose, 1.0 / N], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), pose.grad.numpy().astype(np.float64)


PARAMS0 = np.array([0.1, 0.0, 0.0, 0.0])


def evaluate(p):
    return Registration()(p)


if __name__ == "__main__":
    reg = Registration()
    p = PARAMS0.copy()
    for it in range(60):
        loss, g = reg(p)
        p -= 0.3 * g
        if it % 20 == 0:
            print(f"iter {it:2d} loss {loss:.6f}")
    print("theta, shear, tx, ty =", np.round(p, 4))
