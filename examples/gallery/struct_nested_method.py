"""A model struct with a nested particles struct, stepped in place by a method.

The kernel updates `m.particles.x` and `m.particles.v` in place: inside one
launch it reads and then overwrites them (TW104), and the next step's launch
overwrites what the previous one read (TW101). Warp sees neither: it does
not track arrays inside structs.
"""

import warp as wp

from _helpers_model import Simulator

sim = Simulator(6, 2.0)
loss = wp.zeros(1, dtype=float, requires_grad=True)


@wp.kernel
def total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i])


tape = wp.Tape()
with tape:
    for _ in range(3):
        sim.step(0.05)
    wp.launch(total, dim=6, inputs=[sim.model.particles.x], outputs=[loss])
tape.backward(loss)
print("d loss / d k", sim.model.stiffness.grad.numpy())
