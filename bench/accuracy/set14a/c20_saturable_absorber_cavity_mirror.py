# correct: the saturable transmission is applied in the assigning expression; the only in-place update is *= of the fixed mirror reflectivity (a compile-time constant, not a parameter).
"""Passive Q-switch build-up in a laser cavity with a saturable absorber.

The transverse intensity profile (32 radial bins) makes 40 round trips; each trip
applies the small-signal gain G and an absorber and an output mirror; the absorber transmission saturates as
1 / (1 + I / I_sat). The output pulse energy is matched to a target, and the
gradient is taken with respect to (G, I_sat).
"""
import numpy as np
import warp as wp

N_R = 32
N_TRIPS = 40
R = np.linspace(0.0, 1.5, N_R).astype(np.float32)
I_INIT = (1e-3 * np.exp(-2.0 * R ** 2)).astype(np.float32)
E_TARGET = 0.8
PARAMS0 = np.array([1.48, 0.05])  # G, I_sat
FD_EPS = [1e-4, 1e-5]


R_MIRROR = wp.constant(0.98)


@wp.kernel
def round_trip(I: wp.array(dtype=float), prm: wp.array(dtype=float), I_out: wp.array(dtype=float)):
    i = wp.tid()
    g = I[i] * prm[0]
    I_out[i] = g / (1.0 + g / prm[1])
    I_out[i] *= R_MIRROR


@wp.kernel
def pulse_energy(I: wp.array(dtype=float), r: wp.array(dtype=float), dr: float, e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 2.0 * wp.pi * r[i] * I[i] * dr)


@wp.kernel
def energy_misfit(e: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    loss[0] = (e[0] - target) * (e[0] - target)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    r = wp.array(R, dtype=float)
    I = wp.array(I_INIT, dtype=float, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_TRIPS):
            I_next = wp.empty_like(I)
            wp.launch(round_trip, dim=N_R, inputs=[I, prm], outputs=[I_next])
            I = I_next
        wp.launch(pulse_energy, dim=N_R, inputs=[I, r, float(R[1] - R[0])], outputs=[e])
        wp.launch(energy_misfit, dim=1, inputs=[e, E_TARGET], outputs=[loss])
    tape.backward(loss)
    evaluate.energy = float(e.numpy()[0])
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"pulse energy {evaluate.energy:.4f}; misfit {L:.4f}; d/d(G, I_sat) = {g}")
