# correct: the taped mixing iteration runs until the temperature update is below 1e-4 K, so the gradient is that of the converged network.
"""District heating: fit plant supply temperature and pipe heat-loss factor to substation temperatures of a meshed network."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SUB = 10
MIX = 0.88  # share of a substation's inflow that comes from its neighbours (contraction rate)
MAX_ITER = 400
TOL = 1e-4  # kelvin
rng = np.random.default_rng(41)
W = rng.uniform(0.1, 1.0, (N_SUB, N_SUB))
np.fill_diagonal(W, 0.0)
W = (W / W.sum(axis=1, keepdims=True)).astype(np.float32)
PIPE_LEN = rng.uniform(0.5, 3.0, N_SUB).astype(np.float32)


@wp.struct
class Network:
    w: wp.array2d(dtype=float)
    pipe_len: wp.array(dtype=float)


@wp.kernel
def mix_step(net: Network, p: wp.array(dtype=float), t: wp.array(dtype=float), t_new: wp.array(dtype=float)):
    i = wp.tid()
    inflow = float(0.0)
    for j in range(N_SUB):
        inflow += net.w[i, j] * t[j]
    loss_factor = wp.exp(-0.001 * p[1] * net.pipe_len[i])
    t_new[i] = ((1.0 - MIX) * p[0] + MIX * inflow) * loss_factor


@wp.kernel
def temp_err(t: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = t[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_SUB))


def converged(p):
    f = np.exp(-0.001 * p[1] * PIPE_LEN.astype(np.float64))
    a = np.eye(N_SUB) - MIX * f[:, None] * W
    return np.linalg.solve(a, (1.0 - MIX) * p[0] * f)


OBS = converged([95.0, 4.0])


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    net = Network()
    net.w = wp.array(W, dtype=float)
    net.pipe_len = wp.array(PIPE_LEN, dtype=float)
    temps = [wp.full(N_SUB, 60.0, dtype=float, requires_grad=True)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(MAX_ITER):
            temps.append(wp.zeros(N_SUB, dtype=float, requires_grad=True))
            wp.launch(mix_step, dim=N_SUB, inputs=[net, params, temps[k]], outputs=[temps[k + 1]])
            if np.max(np.abs(temps[k + 1].numpy() - temps[k].numpy())) < TOL:
                break
        wp.launch(temp_err, dim=N_SUB, inputs=[temps[-1], wp.array(OBS.astype(np.float32), dtype=float)], outputs=[loss])
    tape.backward(loss)
    t_eq = converged(np.asarray(p, dtype=np.float64))  # report the converged network temperatures
    return float(np.mean((t_eq - OBS) ** 2)), params.grad.numpy().astype(np.float64)


PARAMS0 = [88.0, 6.0]
FD_EPS = 1e-2

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p)
        p -= np.array([0.2, 1e-3]) * g
    print("district heating loss %.4f params %s" % (l, p))
