# correct: a persistent tape is only zeroed (never reset) so old launches are replayed, but each iteration writes fresh arrays and the stale loss arrays carry a zero seed, so the replay adds nothing
import numpy as np
import warp as wp

from _thermal import Room


def tune(iters=40, lr=0.02):
    room = Room(steps=50, setpoint=30.0, outside=20.0, start=24.0)
    gains = wp.array(np.array([0.5, 0.1], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    history = []
    for it in range(iters):
        with tape:
            loss = room.cost(gains)
        tape.backward(loss)
        g = gains.grad.numpy().copy()
        history.append((gains.numpy().copy(), g))
        gains.assign(gains.numpy() - lr * g)
        tape.zero()
        if it % 10 == 0:
            print(f"iter {it} tracking cost {loss.numpy()[0]:.3f}")
    return history


if __name__ == "__main__":
    tune()
