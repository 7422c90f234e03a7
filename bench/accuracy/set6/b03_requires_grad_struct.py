"""Quasi-static bar: strains from node positions, stresses from a material struct, elastic energy."""
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
def stresses(eps: wp.array(dtype=float), mat: Material, sig: wp.array(dtype=float)):
    e = wp.tid()
    s = eps[e]
    sig[e] = mat.stiffness[e] * s / (1.0 + mat.softening * s * s)


@wp.kernel
def energy(eps: wp.array(dtype=float), sig: wp.array(dtype=float), total: wp.array(dtype=float)):
    e = wp.tid()
    wp.atomic_add(total, 0, 0.5 * sig[e] * eps[e])


def make_buffers(n):
    eps = wp.zeros(n, dtype=float, requires_grad=True)
    sig = wp.zeros(n, dtype=float)  # expect: requires_grad
    total = wp.zeros(1, dtype=float, requires_grad=True)
    return eps, sig, total


def main():
    rest = 1.0 / N
    x = wp.array((np.linspace(0.0, 1.0, N + 1) ** 1.1).astype(np.float32), requires_grad=True)
    mat = Material()
    mat.stiffness = wp.array(np.linspace(1.0, 2.0, N, dtype=np.float32), requires_grad=True)
    mat.softening = 0.5
    eps, sig, total = make_buffers(N)
    tape = wp.Tape()
    with tape:
        wp.launch(strains, dim=N, inputs=[x, rest], outputs=[eps])
        wp.launch(stresses, dim=N, inputs=[eps, mat], outputs=[sig])
        wp.launch(energy, dim=N, inputs=[eps, sig], outputs=[total])
    tape.backward(total)
    print("energy", total.numpy()[0])
    print("dE/dx", x.grad.numpy())
    return x.grad.numpy()


if __name__ == "__main__":
    main()
