# correct: Correct look-alike of b02: every episode restarts frame 0 from host data; frames never alias.
"""Correct look-alike of b02: every episode restarts frame 0 from host data; frames never alias."""
import numpy as np
import warp as wp

FRAMES = 6
N = 16
DT = 0.05


@wp.kernel
def advance(q: wp.array(dtype=float), u: wp.array(dtype=float), dt: float, q_out: wp.array(dtype=float)):
    i = wp.tid()
    x = q[i]
    q_out[i] = x + dt * (u[i] * x - x * x * x)


@wp.kernel
def terminal_cost(q: wp.array(dtype=float), goal: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    e = q[i] - goal
    wp.atomic_add(cost, 0, e * e)


def run_episodes(u, states, episodes=2, lr=0.5):
    grads = []
    for ep in range(episodes):
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        states = [states[0]] + [wp.empty_like(states[0]) for _ in range(FRAMES)]
        tape = wp.Tape()
        with tape:
            for f in range(FRAMES):
                wp.launch(advance, dim=N, inputs=[states[f], u, DT], outputs=[states[f + 1]])
            wp.launch(terminal_cost, dim=N, inputs=[states[-1], 1.0], outputs=[cost])
        tape.backward(cost)
        grads.append(u.grad.numpy().copy())
        print(f"episode {ep}: cost {cost.numpy()[0]:.5f}  |grad| {np.linalg.norm(grads[-1]):.5f}")
        u.assign(u.numpy() - lr * grads[-1])
        tape.zero()
        states[0].assign(np.full(N, 0.8, dtype=np.float32))
    return grads


def main():
    u = wp.array(np.linspace(0.0, 2.0, N, dtype=np.float32), requires_grad=True)
    states = [wp.full(N, 0.8, dtype=float, requires_grad=True) for _ in range(FRAMES + 1)]
    return run_episodes(u, states)


if __name__ == "__main__":
    main()
