"""The parameter lives in an imported module; the gradient is only printed (no optimizer)."""

import numpy as np
import warp as wp

from params_model import Model, spring

model = Model()
x = wp.array(np.linspace(0.5, 1.5, 4, dtype=np.float32))
energy = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(spring, dim=4, inputs=[x, model.stiffness], outputs=[energy])
tape.backward(energy)
print("d energy / d stiffness", model.stiffness.grad.numpy())
