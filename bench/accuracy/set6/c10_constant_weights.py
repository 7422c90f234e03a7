# correct: Correct look-alike of b03: an intermediate without requires_grad that is computed only from data (a constant).
"""Correct look-alike of b03: an intermediate without requires_grad that is computed only from data (a constant)."""
import numpy as np
import warp as wp

N = 12  # elements


@wp.struct
class Material:
    stiffness: wp.array(dtype=float)
    softening: float


@wp.kernel
def strains(x: wp.array(dtype=float), rest: float, eps: wp.array(dtype=float)):
    e = wp.tid()
    eps[e] = (x[e + 1] - x[e]) / rest - 1.0


@wp.kernel
def damage_weights(age: wp.array(dtype=float), w: wp.array(dtype=float)):
    e = wp.tid()
    w[e] = 1.0 / (1.0 + 0.1 * age[e] * age[e])


@wp.kernel
def energy(eps: wp.array(dtype=float), w: wp.array(dtype=float), mat: Material, total: wp.array(dtype=float)):
    e = wp.tid()
    s = eps[e]
    wp.atomic_add(total, 0, 0.5 * w[e] * mat.stiffness[e] * s * s / (1.0 + mat.softening * s * s))


def make_buffers(n):
    eps = wp.zeros(n, dtype=float, requires_grad=True)
    w = wp.zeros(n, dtype=float)  # a constant: computed from measured ages only
    total = wp.zeros(1, dtype=float, requires_grad=True)
    return eps, w, total


def main():
    rest = 1.0 / N
    x = wp.array((np.linspace(0.0, 1.0, N + 1) ** 1.1).astype(np.float32), requires_grad=True)
    age = wp.array(np.linspace(0.0, 5.0, N, dtype=np.float32))
    mat = Material()
    mat.stiffness = wp.array(np.linspace(1.0, 2.0, N, dtype=np.float32), requires_grad=True)
    mat.softening = 0.5
    eps, w, total = make_buffers(N)
    tape = wp.Tape()
    with tape:
        wp.launch(strains, dim=N, inputs=[x, rest], outputs=[eps])
        wp.launch(damage_weights, dim=N, inputs=[age], outputs=[w])
        wp.launch(energy, dim=N, inputs=[eps, w, mat], outputs=[total])
    tape.backward(total)
    print("energy", total.numpy()[0])
    print("dE/dx", x.grad.numpy())
    return x.grad.numpy()


if __name__ == "__main__":
    main()
