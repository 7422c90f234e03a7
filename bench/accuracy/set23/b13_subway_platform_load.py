"""Metro line: steady platform crowding with passengers transferring between neighbouring stations (@wp.struct line model)."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_STN = 12
N_ITER = 12  # expect: fixed_point
rng = np.random.default_rng(23)
ENTRY = rng.uniform(50.0, 200.0, N_STN).astype(np.float32)
JOBS = rng.uniform(0.0, 1.0, N_STN).astype(np.float32)
TARGET = 900.0


@wp.struct
class Line:
    stay: float
    entry: wp.array(dtype=float)
    jobs: wp.array(dtype=float)


@wp.kernel
def redistribute(line: Line, p: wp.array(dtype=float), load: wp.array(dtype=float), load_new: wp.array(dtype=float)):
    i = wp.tid()
    n = load.shape[0]
    inflow = 0.5 * (load[(i + n - 1) % n] + load[(i + 1) % n])
    load_new[i] = line.entry[i] * (p[0] + p[1] * line.jobs[i]) + line.stay * inflow


def transfer_matrix(stay):
    m = np.zeros((N_STN, N_STN))
    for i in range(N_STN):
        m[i, (i - 1) % N_STN] += 0.5 * stay
        m[i, (i + 1) % N_STN] += 0.5 * stay
    return m


PARAMS0 = [0.6, 0.5]
STAY = 0.88


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    line = Line()
    line.stay = STAY
    line.entry = wp.array(ENTRY, dtype=float)
    line.jobs = wp.array(JOBS, dtype=float)
    loads = [wp.zeros(N_STN, dtype=float, requires_grad=True)]
    tape = wp.Tape()
    with tape:
        for k in range(N_ITER):
            loads.append(wp.zeros(N_STN, dtype=float, requires_grad=True))
            wp.launch(redistribute, dim=N_STN, inputs=[line, params, loads[k]], outputs=[loads[k + 1]])
    rhs = ENTRY.astype(np.float64) * (p[0] + p[1] * JOBS)
    eq = np.linalg.solve(np.eye(N_STN) - transfer_matrix(STAY), rhs)
    loss = float(np.sum((eq - TARGET) ** 2)) / 1e6
    seed = (2.0 * (eq - TARGET) / 1e6).astype(np.float32)
    tape.backward(grads={loads[-1]: wp.array(seed, dtype=float)})
    return loss, params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(10):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("platform load loss", loss, "params", p)
