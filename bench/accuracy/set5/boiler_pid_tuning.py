# correct: one persistent tape re-recorded every iteration, but tape.reset() at the end of each iteration clears the recorded launches and zeroes the gradients
"""Tune boiler PI gains with a single reusable tape object."""
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
        tape.reset()
        if it % 10 == 0:
            print(f"iter {it} tracking cost {loss.numpy()[0]:.3f}")
    return history


if __name__ == "__main__":
    tune()
