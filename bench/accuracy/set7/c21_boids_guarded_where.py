# correct: Boids separation: steer away from neighbours; direction via wp.normalize guarded by wp.where.
"""Boids separation: steer away from neighbours; direction via wp.normalize guarded by wp.where."""
import numpy as np
import warp as wp

N = 12
RADIUS = 0.6


@wp.kernel
def separation(x: wp.array(dtype=wp.vec2), gain: wp.array(dtype=float), v: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    steer = wp.vec2(0.0, 0.0)
    for j in range(N):
        d = x[i] - x[j]
        dist = wp.length(d)
        away = wp.where(dist > 1.0e-6, wp.normalize(d), wp.vec2(0.0, 0.0))  # j == i gives d = 0
        w = wp.max(RADIUS - dist, 0.0)
        steer = steer + w * away
    v[i] = gain[0] * steer


@wp.kernel
def advance(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), dt: float, x_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x_out[i] = x[i] + v[i] * dt


@wp.kernel
def crowding(x: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    if i < j:
        d = x[i] - x[j]
        wp.atomic_add(loss, 0, wp.exp(-4.0 * wp.dot(d, d)))


rng = np.random.default_rng(4)
X0 = rng.uniform(0.0, 1.0, (N, 2)).astype(np.float32)
PARAMS0 = np.array([0.8], dtype=np.float32)


def evaluate(gain_np):
    gain = wp.array(gain_np, dtype=float, requires_grad=True)
    xs = [wp.array(X0, dtype=wp.vec2, requires_grad=True)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(5):
            v = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
            wp.launch(separation, dim=N, inputs=[xs[-1], gain], outputs=[v])
            xs.append(wp.zeros(N, dtype=wp.vec2, requires_grad=True))
            wp.launch(advance, dim=N, inputs=[xs[-2], v, 0.1], outputs=[xs[-1]])
        wp.launch(crowding, dim=(N, N), inputs=[xs[-1]], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), gain.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(PARAMS0))
