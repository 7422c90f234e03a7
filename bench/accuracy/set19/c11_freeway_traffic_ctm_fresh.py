# correct: look-alike of b11 (cell-transmission time loop on one tape), with each step writing its densities into a fresh array.
"""Greenshields cell-transmission model of a freeway section with loop detectors.

Eight 0.5 km cells are advanced in 10 s steps: the flow leaving cell i is
q = v_f rho (1 - rho / rho_jam) (free-flow upwind scheme), and the densities are
updated by conservation. Free-flow speed and jam density are fitted to the
flows the loop detectors count on every link over two minutes.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CELL = 8
N_STEP = 12
DT_DX = (10.0 / 3600.0) / 0.5  # h / km
Q_IN = 1800.0  # veh/h entering cell 0
RHO0 = np.array([20.0, 25.0, 32.0, 40.0, 45.0, 38.0, 30.0, 24.0])


@wp.kernel
def link_flow(par: wp.array(dtype=float), rho: wp.array(dtype=float), q: wp.array(dtype=float)):
    i = wp.tid()
    r = rho[i]
    q[i + 1] = par[0] * r * (1.0 - r / par[1])


@wp.kernel
def conserve(rho: wp.array(dtype=float), q: wp.array(dtype=float), rho_next: wp.array(dtype=float)):
    i = wp.tid()
    q_up = Q_IN
    if i > 0:
        q_up = q[i]
    rho_next[i] = rho[i] + DT_DX * (q_up - q[i + 1])


@wp.kernel
def detector_loss(q: wp.array(dtype=float), counts: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (q[i + 1] - counts[i]) / 100.0
    wp.atomic_add(loss, 0, d * d)


COUNTS = 1700.0 + 250.0 * np.sin(np.arange(N_STEP * N_CELL).reshape(N_STEP, N_CELL) * 0.7)


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rho = wp.array(RHO0, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for step in range(N_STEP):
            q = wp.zeros(N_CELL + 1, dtype=float, requires_grad=True)
            wp.launch(link_flow, dim=N_CELL, inputs=[par, rho], outputs=[q])
            wp.launch(detector_loss, dim=N_CELL, inputs=[q, wp.array(COUNTS[step], dtype=float)], outputs=[loss])
            rho_next = wp.zeros_like(rho)
            wp.launch(conserve, dim=N_CELL, inputs=[rho, q], outputs=[rho_next])
            rho = rho_next
    tape.backward(loss)
    return float(loss.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [95.0, 160.0]
FD_EPS = 1e-2

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"detector misfit {l:.3f}  d/dv_f {g[0]:.4f}  d/drho_jam {g[1]:.4f}")
