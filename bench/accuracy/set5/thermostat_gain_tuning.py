"""Tune the PI gains of a room thermostat by gradient descent on the tracking error."""
import numpy as np
import warp as wp

from _thermal import Room


def tune(iters=40, lr=0.02):
    room = Room()
    gains = wp.array(np.array([0.4, 0.05], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = room.cost(gains)
        tape.backward(loss)
        g = gains.grad.numpy().copy()
        history.append((gains.numpy().copy(), g))
        gains.assign(gains.numpy() - lr * g)
        loss.grad.zero_()  # expect: missing_zero
        if it % 10 == 0:
            print(f"iter {it} tracking cost {loss.numpy()[0]:.3f} gains {gains.numpy()}")
    return history


if __name__ == "__main__":
    tune()
