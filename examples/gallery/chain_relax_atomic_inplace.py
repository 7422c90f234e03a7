"""Bug: a relaxation sweep of a spring chain scatters each spring's correction back into the positions it
read, with atomics, in place; the backward pass re-reads the corrected positions. Warp's warning at codegen
names only the array; the finding sits on each atomic that writes after the read."""

import numpy as np
import warp as wp

N = 6


@wp.kernel
def relax(x: wp.array(dtype=float), rest: float, stiffness: float):
    s = wp.tid()
    stretch = x[s + 1] - x[s] - rest
    push = stiffness * wp.tanh(stretch)
    wp.atomic_add(x, s, 0.5 * push)  # expect: TW104
    wp.atomic_sub(x, s + 1, 0.5 * push)  # expect: TW104


@wp.kernel
def length_error(x: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = x[N - 1] - x[0] - target
    loss[0] = d * d


class Chain:
    def __init__(self, positions):
        self.x = wp.array(positions, dtype=float, requires_grad=True)

    def settle(self, sweeps, rest, stiffness, tape):
        with tape:
            for _ in range(sweeps):
                wp.launch(relax, dim=N - 1, inputs=[self.x, rest, stiffness])  # expect: TW101


chain = Chain(np.linspace(0.0, 7.0, N).astype(np.float32))
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
chain.settle(3, 1.0, 0.4, tape)
with tape:
    wp.launch(length_error, dim=1, inputs=[chain.x, 4.0], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "dL/dx", chain.x.grad.numpy())
