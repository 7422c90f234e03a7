# correct: Jacobi sweeps ping-pong between two preallocated buffers on one tape, but the sweep is linear in u with constant weights, so its adjoint never reads the overwritten values.
"""Recover the amplitudes of three Gaussian sources of a 1-D Poisson problem
-u'' = f (Dirichlet walls) from seven sensors, with a fixed number of Jacobi
sweeps as the solver."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 32
SWEEPS = 80
H = 1.0 / (N + 1)
CENTRES = [0.25, 0.5, 0.8]
SENSORS = np.array([3, 8, 12, 16, 20, 25, 29], dtype=np.int32)
PARAMS0 = [1.0, 1.0, 1.0]
TRUE_PARAMS = [3.0, -1.0, 2.0]


@wp.kernel
def assemble_source(q: wp.array(dtype=float), centres: wp.array(dtype=float), h: float, f: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i + 1) * h
    s = float(0.0)
    for k in range(3):
        d = (x - centres[k]) / 0.08
        s += q[k] * wp.exp(-d * d)
    f[i] = s


@wp.kernel
def jacobi(u: wp.array(dtype=float), f: wp.array(dtype=float), h: float, u_new: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    ul = float(0.0)
    ur = float(0.0)
    if i > 0:
        ul = u[i - 1]
    if i < n - 1:
        ur = u[i + 1]
    u_new[i] = 0.5 * (ul + ur + h * h * f[i])


@wp.kernel
def sensor_loss(u: wp.array(dtype=float), idx: wp.array(dtype=wp.int32), obs: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    s = wp.tid()
    d = u[idx[s]] - obs[s]
    wp.atomic_add(loss, 0, 1.0e4 * d * d)


def solve(q, requires_grad=False):
    f = wp.zeros(N, dtype=float, requires_grad=requires_grad)
    wp.launch(assemble_source, dim=N, inputs=[q, wp.array(CENTRES, dtype=float), H], outputs=[f])
    a = wp.zeros(N, dtype=float, requires_grad=requires_grad)
    b = wp.zeros(N, dtype=float, requires_grad=requires_grad)
    for _ in range(SWEEPS):
        wp.launch(jacobi, dim=N, inputs=[a, f, H], outputs=[b])
        a, b = b, a
    return a


OBS = solve(wp.array(TRUE_PARAMS, dtype=float)).numpy()[SENSORS].copy()


def evaluate(p):
    q = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    idx = wp.array(SENSORS, dtype=wp.int32)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u = solve(q, requires_grad=True)
        wp.launch(sensor_loss, dim=len(SENSORS), inputs=[u, idx, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), q.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.5 * g / max(1.0, np.linalg.norm(g))
        print(f"iter {it} misfit {l:.4e} q {np.round(p, 3)}")
