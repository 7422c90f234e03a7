"""Pull a set of probe points towards the real roots of a polynomial by minimising sum p(x)^2."""
import numpy as np
import warp as wp

from _poly import horner


@wp.kernel
def eval_poly(coeffs: wp.array(dtype=float), x: wp.array(dtype=float), px: wp.array(dtype=float)):
    i = wp.tid()
    px[i] = horner(coeffs, x[i])


@wp.kernel
def residual_energy(px: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * px[i] * px[i])


# (x - 1.5)(x + 0.5)(x - 0.2) expanded, highest degree first
coeffs_np = np.poly([1.5, -0.5, 0.2]).astype(np.float32)
coeffs = wp.array(coeffs_np, dtype=float)
probes = wp.array([1.2, -0.8, 0.4, 1.9], dtype=float, requires_grad=True)
px = wp.zeros(4, dtype=float, requires_grad=True)
energy = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(eval_poly, dim=4, inputs=[coeffs, probes], outputs=[px])
    wp.launch(residual_energy, dim=4, inputs=[px], outputs=[energy])
tape.backward(energy)

energy_value = float(energy.numpy()[0])
probe_grad = probes.grad.numpy().copy()
print("energy", energy_value, "d energy / d probes", probe_grad)
