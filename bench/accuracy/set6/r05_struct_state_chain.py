"""Identify spring stiffnesses of a chain from its final node positions (struct-held state)."""
import numpy as np
import warp as wp

from _r05_model import State, integrate, make_state, spring_forces

N = 10
STEPS = 8
DT = 0.05


@wp.kernel
def position_error(s: State, target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = s.q[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def main():
    q0 = (np.arange(N) * 1.2).astype(np.float32)
    target = wp.array((np.arange(N) * 1.05).astype(np.float32))
    k = wp.array(np.full(N - 1, 3.0, dtype=np.float32), requires_grad=True)
    states = [make_state(N, q0)] + [make_state(N) for _ in range(STEPS)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            wp.launch(spring_forces, dim=N, inputs=[states[t], k])
            wp.launch(integrate, dim=N, inputs=[states[t], DT], outputs=[states[t + 1]])
        wp.launch(position_error, dim=N, inputs=[states[-1], target], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0])
    print("dloss/dk", k.grad.numpy())
    return k.grad.numpy()


if __name__ == "__main__":
    main()
