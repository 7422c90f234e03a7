"""Pull probe points towards the roots of a cubic by minimising sum p(x)^2 (Horner's rule in a helper module).

tapewatch-test: --check-launches
"""

import numpy as np
import warp as wp

from _series import horner_any


@wp.kernel
def evaluate(coeffs: wp.array(dtype=float), x: wp.array(dtype=float), px: wp.array(dtype=float)):
    i = wp.tid()
    px[i] = horner_any(coeffs, x[i])


@wp.kernel
def energy(px: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * px[i] * px[i])


def main():
    coeffs = wp.array(np.poly([1.5, -0.5, 0.2]).astype(np.float32), dtype=float)
    probes = wp.array([1.2, -0.8, 0.4, 1.9], dtype=float, requires_grad=True)
    px = wp.zeros(4, dtype=float, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    for it in range(3):
        e.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(evaluate, dim=4, inputs=[coeffs, probes], outputs=[px])
            wp.launch(energy, dim=4, inputs=[px], outputs=[e])
        tape.backward(e)
        probes.assign(probes.numpy() - 0.05 * probes.grad.numpy())
        tape.zero()
    print("probes", probes.numpy(), "energy", e.numpy()[0])


if __name__ == "__main__":
    main()
