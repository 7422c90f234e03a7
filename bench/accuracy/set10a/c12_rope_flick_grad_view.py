# correct: the update reads a NumPy view of .grad and tape.reset() follows, but the view is consumed before the reset()
"""A robot hand flicks a rope so that the rope's tip hits a target: the hand
velocity is piecewise constant over four knots (the control). Gradient
descent is done on the host with NumPy.
"""
import numpy as np
import warp as wp

N = 7
SEG = 0.06
KNOTS = 4
SUB = 15
DT = 0.004


@wp.kernel
def rope_forces(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2)):
    s = wp.tid()
    d = x[s + 1] - x[s]
    l = wp.length(d)
    n = d / l
    c = 300.0 * (l - SEG) + 0.8 * wp.dot(v[s + 1] - v[s], n)
    wp.atomic_add(f, s, c * n)
    wp.atomic_sub(f, s + 1, c * n)


@wp.kernel
def rope_step(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2),
              hand: wp.array(dtype=wp.vec2), knot: int, dt: float,
              x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v1 = hand[knot]
    if i > 0:
        v1 = v[i] + dt * (f[i] / 0.02 + wp.vec2(0.0, -9.81))
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def tip_loss(x: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=float)):
    d = x[N - 1] - target
    loss[0] = wp.dot(d, d)


X0 = np.stack([np.arange(N) * SEG, np.zeros(N)], 1).astype(np.float32)
TARGET = wp.vec2(0.25, 0.2)


def rollout(hand, requires_grad=True):
    x = wp.array(X0, dtype=wp.vec2, requires_grad=requires_grad)
    v = wp.zeros(N, dtype=wp.vec2, requires_grad=requires_grad)
    for k in range(KNOTS):
        for _ in range(SUB):
            f = wp.zeros_like(x)
            wp.launch(rope_forces, dim=N - 1, inputs=[x, v], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(rope_step, dim=N, inputs=[x, v, f, hand, k, DT], outputs=[x1, v1])
            x, v = x1, v1
    loss = wp.zeros(1, dtype=float, requires_grad=requires_grad)
    wp.launch(tip_loss, dim=1, inputs=[x, TARGET], outputs=[loss])
    return loss


def objective(h_np):
    return float(rollout(wp.array(np.asarray(h_np, dtype=np.float32), dtype=wp.vec2), False).numpy()[0])


def train(iters, lr=0.5, record=None):
    h_np = np.array([[0.0, 1.0], [0.5, 0.5], [0.5, -0.5], [0.0, -0.5]], dtype=np.float32)
    hand = wp.array(h_np, dtype=wp.vec2, requires_grad=True)
    tape = wp.Tape()
    for it in range(iters):
        with tape:
            loss = rollout(hand)
        tape.backward(loss)
        g = hand.grad.numpy()
        if record is not None:
            record.append((h_np.copy(), g.copy()))
        h_np = h_np - lr * g
        hand.assign(h_np)
        tape.reset()
        print(f"iter {it}: tip miss {float(loss.numpy()[0]):.5f}")
    return h_np


def verify():
    """AD: gradient used by the 3rd host update; FD: central differences of
    the rollout objective at that iteration's hand velocities."""
    rec = []
    train(3, record=rec)
    h_used, g_used = rec[-1]
    eps = 1e-3
    fd = np.zeros(h_used.size)
    for i in range(h_used.size):
        hp, hm = h_used.copy().ravel(), h_used.copy().ravel()
        hp[i] += eps
        hm[i] -= eps
        fd[i] = (objective(hp.reshape(-1, 2)) - objective(hm.reshape(-1, 2))) / (2 * eps)
    return g_used.ravel(), fd


if __name__ == "__main__":
    train(5)
