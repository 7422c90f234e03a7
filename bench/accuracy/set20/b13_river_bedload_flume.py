"""Gravel-bed river bedload: a Meyer-Peter & Mueller-type transport law
(coefficient and critical Shields stress) is calibrated against sediment-trap
fluxes from eleven flume runs at different bed shear stresses and grain sizes.
The transport kernel lives in _sediment.py.
"""
import numpy as np
import warp as wp

from _sediment import bedload_rate

wp.config.quiet = True

N_RUN = 11
TAU = np.array([4.1, 5.0, 6.2, 7.5, 8.8, 10.0, 12.5, 6.0, 8.0, 11.0, 14.0])
D50 = np.array([0.004, 0.004, 0.004, 0.004, 0.004, 0.004, 0.004, 0.006, 0.006, 0.006, 0.006])
QS_OBS = np.array([0.35, 0.85, 1.72, 2.9, 4.2, 5.4, 8.4, 0.84, 2.1, 4.6, 7.6])
PARAMS0 = np.array([6.0, 0.045])


@wp.kernel
def trap_loss(qs: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = wp.sqrt(qs[i]) - wp.sqrt(obs[i])
    wp.atomic_add(loss, 0, r * r)


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    qs = wp.zeros(N_RUN, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bedload_rate, dim=N_RUN, inputs=[wp.array(TAU, dtype=float), wp.array(D50, dtype=float), p],
                  outputs=[qs])
        wp.launch(trap_loss, dim=N_RUN, inputs=[qs, wp.array(QS_OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


FD_EPS = np.array([1e-3, 1e-4])

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(20):
        val, g = evaluate(p)
        p -= np.array([1.0, 1e-5]) * g
    print(f"trap misfit {val:.4f}  MPM coefficient {p[0]:.3f}  critical Shields {p[1]:.4f}")
