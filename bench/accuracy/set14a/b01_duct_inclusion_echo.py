"""Echo of an acoustic pulse from a soft inclusion in a 1-D duct.

A Gaussian pressure pulse starts at x = 0.2 and reflects off a segment (0.5 < x < 0.7)
of lower sound speed. The microphone at x = 0.25 integrates p^2 over the run; its
sensitivity to the background and inclusion sound speeds (c0, c1) is what an
inverse-scattering fit of the inclusion needs. Leapfrog FDTD with three rotating
pressure buffers.
"""
import numpy as np
import warp as wp

from _duct import leapfrog_step, mic_energy

NX = 201
DX = 1.0 / (NX - 1)
DT = 0.5 * DX
N_STEPS = 360
MIC = int(0.25 / DX)
PARAMS0 = np.array([1.0, 0.6])  # c0, c1
FD_EPS = 1e-3

_x = np.linspace(0.0, 1.0, NX)
P_INIT = np.exp(-((_x - 0.2) / 0.03) ** 2).astype(np.float32)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    p_prev = wp.array(P_INIT, dtype=float, requires_grad=True)
    p_cur = wp.array(P_INIT, dtype=float, requires_grad=True)
    p_next = wp.zeros(NX, dtype=float, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_STEPS):
            wp.launch(leapfrog_step, dim=NX, inputs=[p_prev, p_cur, prm, DT, DX], outputs=[p_next])
            wp.launch(mic_energy, dim=1, inputs=[p_next, MIC, DT], outputs=[energy])
            p_prev, p_cur, p_next = p_cur, p_next, p_prev  # expect: overwrite
    tape.backward(energy)
    return float(energy.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    E, g = evaluate(PARAMS0)
    print(f"microphone energy {E:.6f}; dE/d(c0, c1) = {g}")
