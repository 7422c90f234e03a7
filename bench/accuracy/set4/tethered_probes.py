# correct: @wp.struct state arrays, but each step writes into a freshly allocated struct
import numpy as np
import warp as wp

from _rigid import integrate_bodies, new_bodies

N = 4
STEPS = 8
DT = 0.05


@wp.kernel
def spread(pos: wp.array(dtype=wp.vec3), goal: wp.float32, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = wp.length(pos[i]) - goal
    wp.atomic_add(loss, 0, d * d)


def start_positions():
    return np.array([[1.0, 0.0, 0.0], [0.0, 1.2, 0.0], [0.0, 0.0, 0.8], [0.6, 0.6, 0.0]], dtype=np.float32)


def spring_grad(k_value):
    k = wp.array([k_value], dtype=wp.float32, requires_grad=True)
    state = new_bodies(N, start_positions())
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            nxt = new_bodies(N)
            wp.launch(integrate_bodies, dim=N, inputs=[state, k, DT], outputs=[nxt])
            state = nxt
        wp.launch(spread, dim=N, inputs=[state.pos, 0.5], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), float(k.grad.numpy()[0])


def main():
    k = 2.0
    for it in range(6):
        l, g = spring_grad(k)
        print(f"iter {it}: k={k:.4f} loss={l:.6f} grad={g:.6f}")
        k -= 1.0 * g


if __name__ == "__main__":
    main()
