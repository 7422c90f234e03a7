# correct: multi-robot formation with pairwise exponential repulsion that skips the self pair, so sqrt never sees a zero distance
import numpy as np
import warp as wp

DT = wp.constant(0.05)
STEPS = 30
N = 5
H = wp.constant(0.4)


@wp.kernel
def formation_step(x: wp.array(dtype=wp.vec2), slots: wp.array(dtype=wp.vec2), gain: wp.array(dtype=float),
                   x_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    u = gain[0] * (slots[i] - x[i])
    for j in range(N):
        if j != i:
            d = x[i] - x[j]
            r = wp.sqrt(d[0] * d[0] + d[1] * d[1])
            u += gain[1] * wp.exp(-r / H) * d
    x_out[i] = x[i] + DT * u


@wp.kernel
def formation_error(x: wp.array(dtype=wp.vec2), slots: wp.array(dtype=wp.vec2), cost: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - slots[i]
    wp.atomic_add(cost, 0, wp.dot(d, d))


SLOTS = np.array([[0.0, 1.0], [0.95, 0.31], [0.59, -0.81], [-0.59, -0.81], [-0.95, 0.31]])
rng = np.random.default_rng(4)
X0 = rng.uniform(-0.5, 0.5, (N, 2))
PARAMS0 = np.array([1.5, 0.8])


def evaluate(p):
    gain = wp.array(p, dtype=float, requires_grad=True)
    slots = wp.array(SLOTS, dtype=wp.vec2)
    x = wp.array(X0, dtype=wp.vec2, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x_new = wp.empty_like(x)
            wp.launch(formation_step, dim=N, inputs=[x, slots, gain], outputs=[x_new])
            x = x_new
        wp.launch(formation_error, dim=N, inputs=[x, slots], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), gain.grad.numpy().copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("formation error", loss, "grad", g)
