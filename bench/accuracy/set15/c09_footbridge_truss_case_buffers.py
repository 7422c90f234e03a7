# correct: b09_footbridge_truss_two_loads (retain_grad elongation buffers, one per load case, each written by one taped launch)
"""Member sizing of a Warren-truss footbridge for two load cases (compliance + steel volume).

Member elongations are computed per load case by one kernel; the compliance
F . delta of each case is accumulated by a second. Each load case has its own
elongation buffer, which keeps its gradient (retain_grad) so the member
sensitivities can be printed after backward; every buffer is written once.
"""
import numpy as np
import warp as wp

from _truss import E_STEEL, load_cases

wp.config.quiet = True

LENGTHS, FORCES = load_cases()
N_MEM = len(LENGTHS)
PARAMS0 = np.linspace(1800.0, 2600.0, N_MEM)  # member areas [mm^2]
FD_EPS = 4.0
VOLUME_PRICE = 2.0e-6  # N mm per mm^3 of steel


@wp.kernel
def elongation(force: wp.array(dtype=float), length: wp.array(dtype=float), area: wp.array(dtype=float),
               delta: wp.array(dtype=float)):
    j = wp.tid()
    delta[j] = force[j] * length[j] / (E_STEEL * area[j])


@wp.kernel
def compliance(force: wp.array(dtype=float), delta: wp.array(dtype=float), weight: float,
               total: wp.array(dtype=float)):
    j = wp.tid()
    wp.atomic_add(total, 0, weight * force[j] * delta[j] * 1.0e-3)


@wp.kernel
def steel_volume(length: wp.array(dtype=float), area: wp.array(dtype=float), price: float,
                 total: wp.array(dtype=float)):
    j = wp.tid()
    wp.atomic_add(total, 0, price * length[j] * area[j])


def evaluate(p, report=False):
    area = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    length = wp.array(LENGTHS, dtype=float)
    deltas = [wp.zeros(N_MEM, dtype=float, requires_grad=True, retain_grad=True) for _ in range(2)]
    total = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for case, weight in ((0, 1.0), (1, 0.6)):
            force = wp.array(FORCES[case], dtype=float)
            delta = deltas[case]
            wp.launch(elongation, dim=N_MEM, inputs=[force, length, area], outputs=[delta])
            wp.launch(compliance, dim=N_MEM, inputs=[force, delta, weight], outputs=[total])
        wp.launch(steel_volume, dim=N_MEM, inputs=[length, area, VOLUME_PRICE], outputs=[total])
    tape.backward(total)
    if report:
        print("d total / d delta (last case):", np.round(delta.grad.numpy(), 3))
    return float(total.numpy()[0]), area.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    J, g = evaluate(PARAMS0, report=True)
    print(f"weighted compliance + steel cost {J:.3f} N m; d/dA [N m / mm^2] = {np.round(g * 1e3, 4)} x 1e-3")
