# correct: the load carried by each element of a hanging bar is a running sum of the masses below it, but it is accumulated with += in a single-thread loop of compile-time length, which the adjoint replays exactly
import numpy as np
import warp as wp

wp.init()

NE = 16
DX = 1.0 / NE
GRAV = 9.81
PARAMS0 = [1.2, 0.4, 1.5]


@wp.kernel
def element_mass(rho: wp.array(dtype=float), m: wp.array(dtype=float)):
    i = wp.tid()
    x = (float(i) + 0.5) * DX
    m[i] = (rho[0] + rho[1] * x + rho[2] * x * x) * DX


@wp.kernel
def hanging_stress(m: wp.array(dtype=float), carried: wp.array(dtype=float), stress: wp.array(dtype=float)):
    # element 0 is the free bottom end; each element carries everything below it
    below = float(0.0)
    for i in range(NE):
        stress[i] = GRAV * (below + 0.5 * m[i])
        below += m[i]
    carried[0] = below


@wp.kernel
def creep_energy(stress: wp.array(dtype=float), sigma_ref: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    s = stress[i] / sigma_ref
    wp.atomic_add(loss, 0, DX * s * s * s * s)


def evaluate(p):
    rho = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    m = wp.zeros(NE, dtype=float, requires_grad=True)
    carried = wp.zeros(1, dtype=float, requires_grad=True)
    stress = wp.zeros(NE, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(element_mass, dim=NE, inputs=[rho], outputs=[m])
        wp.launch(hanging_stress, dim=1, inputs=[m], outputs=[carried, stress])
        wp.launch(creep_energy, dim=NE, inputs=[stress, 10.0], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), rho.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
