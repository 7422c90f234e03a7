# correct: the per-thread integration loop looks like a dynamic loop but its bound is a module-level constant (unrolled), and the runtime-bounded loop over observations only accumulates with += into a value that is stored linearly
"""Fit logistic growth curves (rate r, capacity K per culture) to optical
density readings.  Each thread integrates one culture with RK2 over a fixed
number of substeps between readings; a second kernel sums the squared
misfits over a variable number of readings per culture.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

CULTURES = 5
READINGS = 6
SUBSTEPS = 8
DT = 0.1


@wp.func
def growth(x: float, r: float, K: float):
    return r * x * (1.0 - x / K)


@wp.kernel
def integrate(x0: wp.array(dtype=float), r: wp.array(dtype=float), K: wp.array(dtype=float), traj: wp.array2d(dtype=float)):
    c, k = wp.tid()
    # reading k is taken at t = (k+1) * SUBSTEPS * DT: SUBSTEPS RK2 steps of size (k+1) * DT, one thread per reading
    x = x0[c]
    for s in range(SUBSTEPS):
        h = DT * float(k + 1)
        mid = x + 0.5 * h * growth(x, r[c], K[c])
        x = x + h * growth(mid, r[c], K[c])
    traj[c, k] = x


@wp.kernel
def misfit(traj: wp.array2d(dtype=float), od: wp.array2d(dtype=float), n_read: wp.array(dtype=int), loss: wp.array(dtype=float)):
    c = wp.tid()
    acc = float(0.0)
    for k in range(n_read[c]):
        d = traj[c, k] - od[c, k]
        acc += d * d
    wp.atomic_add(loss, 0, acc)


X0 = wp.array(np.linspace(0.05, 0.2, CULTURES).astype(np.float32), dtype=float)
N_READ = wp.array(np.array([6, 5, 6, 4, 6], np.int32), dtype=int)
TRUE = np.concatenate([np.linspace(0.8, 1.6, CULTURES), np.linspace(1.0, 2.0, CULTURES)])


def simulate(r, K):
    traj = wp.zeros((CULTURES, READINGS), dtype=float, requires_grad=True)
    wp.launch(integrate, dim=(CULTURES, READINGS), inputs=[X0, r, K], outputs=[traj])
    return traj


OD = simulate(wp.array(TRUE[:CULTURES].astype(np.float32), dtype=float), wp.array(TRUE[CULTURES:].astype(np.float32), dtype=float))
PARAMS0 = TRUE * np.random.default_rng(3).uniform(0.8, 1.2, TRUE.size)


def evaluate(p):
    p = np.asarray(p, np.float32)
    r = wp.array(p[:CULTURES], dtype=float, requires_grad=True)
    K = wp.array(p[CULTURES:], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        traj = simulate(r, K)
        wp.launch(misfit, dim=CULTURES, inputs=[traj, OD, N_READ], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([r.grad.numpy(), K.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        loss, g = evaluate(p)
        p -= 0.05 * g
        if it % 50 == 0:
            print(f"iter {it:3d} misfit {loss:.3e}")
