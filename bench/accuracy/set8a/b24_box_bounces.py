"""Balls bouncing inside a box: find the launch speed multiplier and the wall restitution
that put the balls at their observed positions after one second."""
import numpy as np
import warp as wp

from _walls import ballistic_drift, reflect_walls

wp.config.quiet = True
wp.set_device("cpu")

STEPS = 100
DT = 0.01
LO = wp.vec2d(0.0, 0.0)
HI = wp.vec2d(1.0, 1.0)
X0 = np.array([[0.2, 0.5], [0.5, 0.8], [0.7, 0.3]])
DIRS = np.array([[1.0, 0.6], [-0.8, 0.2], [0.5, 1.0]])
SEEN = np.array([[0.65, 0.35], [0.45, 0.18], [0.25, 0.55]])


@wp.kernel
def launch_velocity(dirs: wp.array(dtype=wp.vec2d), speed: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    v[i] = speed[0] * dirs[i]


@wp.kernel
def seen_misfit(x: wp.array(dtype=wp.vec2d), seen: wp.array(dtype=wp.vec2d), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    d = x[i] - seen[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def bounce_loss(p):
    n = len(X0)
    speed = wp.array(p[:1], dtype=wp.float64, requires_grad=True)
    rest = wp.array(p[1:], dtype=wp.float64, requires_grad=True)
    dirs = wp.array(DIRS, dtype=wp.vec2d)
    x = wp.array(X0, dtype=wp.vec2d, requires_grad=True)
    v = wp.zeros(n, dtype=wp.vec2d, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(launch_velocity, dim=n, inputs=[dirs, speed], outputs=[v])
        for _ in range(STEPS):
            xm, vm = wp.empty_like(x), wp.empty_like(v)
            wp.launch(ballistic_drift, dim=n, inputs=[x, v, wp.float64(DT)], outputs=[xm, vm])
            x, v = wp.empty_like(x), wp.empty_like(v)
            wp.launch(reflect_walls, dim=n, inputs=[xm, vm, LO, HI, rest], outputs=[x, v])
        wp.launch(seen_misfit, dim=n, inputs=[x, wp.array(SEEN, dtype=wp.vec2d)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([speed.grad.numpy(), rest.grad.numpy()])


PARAMS0 = np.array([1.8, 0.8])
FD_EPS = 1e-6


def evaluate(p):
    return bounce_loss(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = bounce_loss(p)
        p = p - 0.1 * g
        print(f"iter {it}: misfit {l:.5f}  speed={p[0]:.4f} e={p[1]:.4f}")
