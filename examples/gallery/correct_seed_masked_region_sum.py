"""Heat loss of one wing of a building: the program reports the sum over the rooms of the east wing
(a boolean mask over all rooms) and seeds the backward pass with that mask: the gradient is the
east wing's."""

import numpy as np
import warp as wp

wp.config.quiet = True

ROOMS = 8
EAST = np.array([True, False, True, True, False, False, True, False])
AREA = wp.array(np.linspace(12.0, 30.0, ROOMS).astype(np.float32), dtype=float)


@wp.kernel
def room_loss(u: wp.array(dtype=float), area: wp.array(dtype=float), dt: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    loss[i] = u[0] * area[i] * dt * (1.0 + 0.1 * float(i))


u = wp.array([0.35], dtype=float, requires_grad=True)
loss = wp.zeros(ROOMS, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(room_loss, dim=ROOMS, inputs=[u, AREA, 18.0], outputs=[loss])
east_wing = float(loss.numpy()[EAST].sum())
loss.grad.assign(EAST.astype(np.float32))
tape.backward()
print("east wing loss", east_wing, "d/du", u.grad.numpy()[0])
