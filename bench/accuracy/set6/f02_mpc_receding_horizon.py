# correct: Correct: receding-horizon MPC. Each solve starts from the current (measured) state; plans are independent.
"""Correct: receding-horizon MPC. Each solve starts from the current (measured) state; plans are independent."""
import numpy as np
import warp as wp

H = 8        # horizon
DT = 0.1
ITERS = 3
CONTROL_STEPS = 3


@wp.kernel
def step(x: wp.array(dtype=float), u: wp.array(dtype=float), t: int, dt: float, x_out: wp.array(dtype=float)):
    # pendulum-like scalar plant
    x_out[0] = x[0] + dt * (u[t] - wp.sin(x[0]))


@wp.kernel
def track(x: wp.array(dtype=float), u: wp.array(dtype=float), t: int, ref: float, cost: wp.array(dtype=float)):
    d = x[0] - ref
    wp.atomic_add(cost, 0, d * d + 0.01 * u[t] * u[t])


def solve(x_now, u):
    for it in range(ITERS):
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        states = [x_now] + [wp.zeros(1, dtype=float, requires_grad=True) for _ in range(H)]
        tape = wp.Tape()
        with tape:
            for t in range(H):
                wp.launch(step, dim=1, inputs=[states[t], u, t, DT], outputs=[states[t + 1]])
                wp.launch(track, dim=1, inputs=[states[t + 1], u, t, 1.0], outputs=[cost])
        tape.backward(cost)
        u.assign(u.numpy() - 0.5 * u.grad.numpy())
        tape.zero()
    return states, float(cost.numpy()[0])


def main():
    u = wp.zeros(H, dtype=float, requires_grad=True)
    x_now = wp.array([0.0], dtype=float, requires_grad=True)
    for k in range(CONTROL_STEPS):
        states, c = solve(x_now, u)
        print(f"control step {k}: x {x_now.numpy()[0]:.4f} plan cost {c:.4f} u0 {u.numpy()[0]:.4f}")
        # apply the first control: the plant moves to the predicted next state (a perfect model)
        x_now = wp.clone(states[1])
        # warm-start the next plan by shifting it
        u.assign(np.append(u.numpy()[1:], 0.0).astype(np.float32))


if __name__ == "__main__":
    main()
