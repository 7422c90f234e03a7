"""Office HVAC: static pressures of a ring of VAV zones solved by Jacobi sweeps, warm-started from the converged host solution."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_ZONE = 16
RATE = 0.9
rng = np.random.default_rng(22)
FAN = rng.uniform(0.5, 1.5, N_ZONE).astype(np.float32)
LEAK = rng.uniform(0.0, 1.0, N_ZONE).astype(np.float32)
N_SWEEP = 15  # expect: fixed_point
A = np.zeros((N_ZONE, N_ZONE))
for _i in range(N_ZONE):
    A[_i, (_i - 1) % N_ZONE] = A[_i, (_i + 1) % N_ZONE] = 0.5 * RATE
OBS = np.linalg.solve(np.eye(N_ZONE) - A, 1.2 * FAN - 0.3 * LEAK).astype(np.float32)
PARAMS0 = [1.0, 0.2]  # fan gain (Pa), leakage loss


@wp.kernel
def sweep(p: wp.array(dtype=float), fan: wp.array(dtype=float), leak: wp.array(dtype=float), rate: float,
          x: wp.array(dtype=float), x_new: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    nb = x[(i + n - 1) % n] + x[(i + 1) % n]
    x_new[i] = p[0] * fan[i] - p[1] * leak[i] + 0.5 * rate * nb


@wp.kernel
def misfit(x: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = (x[i] - obs[i]) / 5.0
    wp.atomic_add(loss, 0, e * e)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rhs = p[0] * FAN.astype(np.float64) - p[1] * LEAK
    x_star = np.linalg.solve(np.eye(N_ZONE) - A, rhs)
    xs = [wp.array(x_star.astype(np.float32), dtype=float)]
    fan, leak = wp.array(FAN, dtype=float), wp.array(LEAK, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(N_SWEEP):
            xs.append(wp.zeros(N_ZONE, dtype=float, requires_grad=True))
            wp.launch(sweep, dim=N_ZONE, inputs=[params, fan, leak, RATE, xs[k]], outputs=[xs[k + 1]])
        wp.launch(misfit, dim=N_ZONE, inputs=[xs[-1], wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(10):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("duct pressure loss", loss, "params", p)
