# correct: Laplacian smoothing iterations ping-pong between two buffers on one tape, but the smoothing step is linear in the overwritten buffer, so no adjoint needs the old values
"""Curve editing by displacement + Laplacian smoothing (geometry processing).

A closed polyline is displaced by per-vertex offsets u (the unknowns), then
smoothed by a few explicit Laplacian iterations x <- x + lam * L x that
ping-pong between two scratch buffers, and compared with a target curve
(with a bending penalty on the smoothed result).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

V = 24
ITERS = 4
LAM = 0.3


@wp.kernel
def displace(x_rest: wp.array(dtype=wp.vec2), u: wp.array(dtype=wp.vec2), x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x[i] = x_rest[i] + u[i]


@wp.kernel
def laplacian_smooth(x: wp.array(dtype=wp.vec2), lam: float, x_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    prev = x[(i + V - 1) % V]
    nxt = x[(i + 1) % V]
    x_out[i] = x[i] + lam * (0.5 * (prev + nxt) - x[i])


@wp.kernel
def fit_energy(x: wp.array(dtype=wp.vec2), target: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    e1 = x[(i + 1) % V] - x[i]
    e0 = x[i] - x[(i + V - 1) % V]
    c = e0[0] * e1[1] - e0[1] * e1[0]
    wp.atomic_add(loss, 0, wp.dot(d, d) + 0.5 * c * c)


ANG = np.linspace(0, 2 * np.pi, V, endpoint=False)
X_REST = wp.array(np.stack([np.cos(ANG), np.sin(ANG)], 1).astype(np.float32), dtype=wp.vec2)
TARGET = wp.array(np.stack([1.2 * np.cos(ANG) + 0.1 * np.cos(3 * ANG), 0.8 * np.sin(ANG)], 1).astype(np.float32), dtype=wp.vec2)
PARAMS0 = np.random.default_rng(3).normal(0, 0.05, 2 * V)


class CurveEditor:
    def __init__(self):
        self.buf_a = wp.zeros(V, dtype=wp.vec2, requires_grad=True)
        self.buf_b = wp.zeros(V, dtype=wp.vec2, requires_grad=True)

    def loss_and_grad(self, p):
        u = wp.array(np.asarray(p, np.float32).reshape(V, 2), dtype=wp.vec2, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(displace, dim=V, inputs=[X_REST, u], outputs=[self.buf_a])
            src, dst = self.buf_a, self.buf_b
            for _ in range(ITERS):
                wp.launch(laplacian_smooth, dim=V, inputs=[src, LAM], outputs=[dst])
                src, dst = dst, src
            wp.launch(fit_energy, dim=V, inputs=[src, TARGET], outputs=[loss])
        tape.backward(loss)
        g = u.grad.numpy().ravel().astype(np.float64)
        tape.zero()
        return float(loss.numpy()[0]), g


_editor = CurveEditor()


def evaluate(p):
    return _editor.loss_and_grad(p)


if __name__ == "__main__":
    ed = CurveEditor()
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = ed.loss_and_grad(p)
        p -= 0.1 * g
        if it % 25 == 0:
            print(f"iter {it:3d} energy {loss:.5f}")
