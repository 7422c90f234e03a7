# correct: the number of taped Jacobi sweeps is derived from the contraction rate (log tol / log rate), so the gradient is that of the converged voltages.
"""Rural microgrid: fit PV injection and load sensitivities of bus voltages, with the ring feeder solved by Jacobi sweeps."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_BUS = 24
RATE = 0.9  # coupling of each bus to its two neighbours (contraction rate of the sweep)
TOL = 1e-6
N_SWEEP = int(np.ceil(np.log(TOL) / np.log(RATE)))  # sweeps until the Jacobi error shrinks below TOL
rng = np.random.default_rng(31)
PV = rng.uniform(0.0, 1.0, N_BUS).astype(np.float32)
LOAD = rng.uniform(0.2, 1.0, N_BUS).astype(np.float32)


@wp.kernel
def jacobi_sweep(p: wp.array(dtype=float), pv: wp.array(dtype=float), load: wp.array(dtype=float),
                 v: wp.array(dtype=float), v_new: wp.array(dtype=float)):
    i = wp.tid()
    left = v[(i + N_BUS - 1) % N_BUS]
    right = v[(i + 1) % N_BUS]
    inj = 1.0 + p[0] * pv[i] - p[1] * load[i] * load[i]
    v_new[i] = (1.0 - RATE) * inj + RATE * 0.5 * (left + right)


@wp.kernel
def voltage_err(v: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (v[i] - obs[i]) * 100.0
    wp.atomic_add(loss, 0, r * r / float(N_BUS))


def equilibrium(p):
    """Converged bus voltages: solve (I - RATE * A) v = (1 - RATE) * inj directly."""
    a = np.zeros((N_BUS, N_BUS))
    for i in range(N_BUS):
        a[i, (i - 1) % N_BUS] = a[i, (i + 1) % N_BUS] = 0.5
    inj = 1.0 + p[0] * PV - p[1] * LOAD.astype(np.float64) ** 2
    return np.linalg.solve(np.eye(N_BUS) - RATE * a, (1.0 - RATE) * inj)


OBS = wp.array(equilibrium([0.06, 0.08]).astype(np.float32), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pv, load = wp.array(PV, dtype=float), wp.array(LOAD, dtype=float)
    # warm start from the converged solution; the sweeps on the tape only provide the gradient
    v = [wp.array(equilibrium(p).astype(np.float32), dtype=float, requires_grad=True)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(N_SWEEP):
            v.append(wp.zeros(N_BUS, dtype=float, requires_grad=True))
            wp.launch(jacobi_sweep, dim=N_BUS, inputs=[params, pv, load, v[k]], outputs=[v[k + 1]])
        wp.launch(voltage_err, dim=N_BUS, inputs=[v[-1], OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.03, 0.12]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p)
        p -= 2e-4 * g
    print("bus voltage loss %.5f params %s" % (l, p))
