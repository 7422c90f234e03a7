# correct: per-step cable tensions are allocated with retain_grad=True for inspection, and each is assigned by exactly one taped launch
"""A small suspension-bridge deck hung from cables: identify the cable
stiffness and the deck damping from the deck's sag after a truck crosses.
Tension sensitivities (the retained gradients) are inspected after backward.
"""
import numpy as np
import warp as wp

N = 6  # deck nodes
STEPS = 50
DT = 0.004


@wp.kernel
def cable_tension(y: wp.array(dtype=float), params: wp.array(dtype=float), tension: wp.array(dtype=float)):
    i = wp.tid()
    stretch = 0.1 - y[i]
    tension[i] = params[0] * stretch * (1.0 + 5.0 * stretch * stretch)


@wp.kernel
def deck_step(y: wp.array(dtype=float), vy: wp.array(dtype=float), tension: wp.array(dtype=float),
              params: wp.array(dtype=float), load_pos: float, dt: float,
              y_out: wp.array(dtype=float), vy_out: wp.array(dtype=float)):
    i = wp.tid()
    left = y[wp.max(i - 1, 0)]
    right = y[wp.min(i + 1, N - 1)]
    bend = 50.0 * (left - 2.0 * y[i] + right)
    d = float(i) - load_pos
    load = -40.0 * wp.exp(-d * d)
    a = (tension[i] + bend + load - params[1] * vy[i]) / 2.0 - 9.81
    v1 = vy[i] + dt * a
    vy_out[i] = v1
    y_out[i] = y[i] + dt * v1


@wp.kernel
def sag_loss(y: wp.array(dtype=float), measured: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - measured[i]
    wp.atomic_add(loss, 0, 100.0 * d * d)


measured = wp.array([0.0, -0.03, -0.05, -0.05, -0.03, 0.0], dtype=float)
tensions = [wp.zeros(N, dtype=float, requires_grad=True, retain_grad=True) for _ in range(STEPS)]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    y = wp.zeros(N, dtype=float, requires_grad=True)
    vy = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(STEPS):
            wp.launch(cable_tension, dim=N, inputs=[y, params], outputs=[tensions[s]])
            y1, vy1 = wp.empty_like(y), wp.empty_like(vy)
            load_pos = -1.0 + 7.0 * s / STEPS
            wp.launch(deck_step, dim=N, inputs=[y, vy, tensions[s], params, load_pos, DT], outputs=[y1, vy1])
            y, vy = y1, vy1
        wp.launch(sag_loss, dim=N, inputs=[y, measured], outputs=[loss])
    tape.backward(loss)
    g = params.grad.numpy().copy()
    sens = [float(np.abs(t.grad.numpy()).max()) for t in tensions]
    tape.zero()
    evaluate.last_sensitivity = sens
    return float(loss.numpy()[0]), g


PARAMS0 = np.array([200.0, 8.0])
FD_EPS = [0.1, 0.01]

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("sag misfit", l, "grad", g, "max tension sensitivity", max(evaluate.last_sensitivity))
