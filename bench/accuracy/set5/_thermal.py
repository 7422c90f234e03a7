"""Lumped room thermal model with a PI heater controller."""
from dataclasses import dataclass

import numpy as np
import warp as wp


@wp.kernel
def room_step(temp: wp.array(dtype=wp.float32), integ: wp.array(dtype=wp.float32), gains: wp.array(dtype=wp.float32),
              setpoint: wp.float32, outside: wp.float32, dt: wp.float32, t: int):
    e = setpoint - temp[t]
    u = wp.clamp(gains[0] * e + gains[1] * integ[t], 0.0, 5.0)
    integ[t + 1] = integ[t] + dt * e
    temp[t + 1] = temp[t] + dt * (0.3 * (outside - temp[t]) + u)


@wp.kernel
def tracking_cost(temp: wp.array(dtype=wp.float32), setpoint: wp.float32, loss: wp.array(dtype=wp.float32)):
    t = wp.tid()
    e = temp[t] - setpoint
    wp.atomic_add(loss, 0, e * e / wp.float32(temp.shape[0]))


@dataclass
class Room:
    steps: int = 60
    dt: float = 0.1
    setpoint: float = 21.0
    outside: float = 10.0
    start: float = 15.0

    def cost(self, gains):
        temp = wp.zeros(self.steps + 1, dtype=wp.float32, requires_grad=True)
        integ = wp.zeros(self.steps + 1, dtype=wp.float32, requires_grad=True)
        temp.fill_(self.start)
        for t in range(self.steps):
            wp.launch(room_step, dim=1, inputs=[temp, integ, gains, self.setpoint, self.outside, self.dt, t])
        loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        wp.launch(tracking_cost, dim=self.steps + 1, inputs=[temp, self.setpoint], outputs=[loss])
        return loss
