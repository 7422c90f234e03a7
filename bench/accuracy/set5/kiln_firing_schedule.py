"""Tune kiln PI gains; the model keeps its simulation buffers between iterations to avoid reallocations."""
import numpy as np
import warp as wp

from _thermal import room_step, tracking_cost


class Kiln:
    def __init__(self, steps=50, dt=0.1, setpoint=30.0, outside=20.0, start=24.0):
        self.steps, self.dt, self.setpoint, self.outside, self.start = steps, dt, setpoint, outside, start
        self.temp = wp.zeros(steps + 1, dtype=wp.float32, requires_grad=True)
        self.integ = wp.zeros(steps + 1, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def cost(self, gains):
        self.temp.fill_(self.start)
        self.integ.zero_()
        self.loss.zero_()
        for t in range(self.steps):
            wp.launch(room_step, dim=1, inputs=[self.temp, self.integ, gains, self.setpoint, self.outside, self.dt, t])
        wp.launch(tracking_cost, dim=self.steps + 1, inputs=[self.temp, self.setpoint], outputs=[self.loss])
        return self.loss


def tune(iters=40, lr=0.02):
    kiln = Kiln()
    gains = wp.array(np.array([0.5, 0.1], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    history = []
    for it in range(iters):
        with tape:
            loss = kiln.cost(gains)
        tape.backward(loss)
        g = gains.grad.numpy().copy()
        history.append((gains.numpy().copy(), g))
        gains.assign(gains.numpy() - lr * g)
        tape.zero()  # expect: missing_zero
    print("gains", gains.numpy())
    return history


if __name__ == "__main__":
    tune()
