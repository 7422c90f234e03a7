# correct: params.grad is zeroed at the top of every optimisation step before the new tape is recorded.
"""Hot-air balloon: fit envelope heat loss and vertical drag to climb rates at several burner settings, using warp.optim.SGD."""
import numpy as np
import warp as wp
from warp.optim import SGD

wp.config.quiet = True

N_FLIGHT = 24
rng = np.random.default_rng(131)
BURNER = rng.uniform(0.3, 1.0, N_FLIGHT).astype(np.float32)  # fraction of full burner power
T_AMB = rng.uniform(275.0, 300.0, N_FLIGHT).astype(np.float32)


@wp.func
def envelope_temp(burner: float, t_amb: float, k_loss: float):
    return t_amb + 120.0 * burner / k_loss


@wp.kernel
def climb_rate(p: wp.array(dtype=float), burner: wp.array(dtype=float), t_amb: wp.array(dtype=float),
               rate: wp.array(dtype=float)):
    i = wp.tid()
    t_env = envelope_temp(burner[i], t_amb[i], p[0])
    lift = 2800.0 * (1.0 - t_amb[i] / t_env) * 9.81 - 4500.0  # net upward force, N
    rate[i] = wp.sign(lift) * wp.sqrt(wp.abs(lift) / (p[1] * 10.0))


@wp.kernel
def vario_err(rate: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = rate[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_FLIGHT))


def _obs(k=1.1, c=4.0):
    te = T_AMB + 120 * BURNER / k
    lift = 2800 * (1 - T_AMB / te) * 9.81 - 4500
    return (np.sign(lift) * np.sqrt(np.abs(lift) / (c * 10))).astype(np.float32)


OBS = wp.array(_obs(), dtype=float)
PARAMS0 = [1.3, 3.0]


def forward(params):
    rate = wp.zeros(N_FLIGHT, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(climb_rate, dim=N_FLIGHT, inputs=[params, wp.array(BURNER, dtype=float), wp.array(T_AMB, dtype=float)],
              outputs=[rate])
    wp.launch(vario_err, dim=N_FLIGHT, inputs=[rate, OBS], outputs=[loss])
    return loss


def fit(n_iter, trace=None):
    params = wp.array(np.array(PARAMS0, np.float32), dtype=float, requires_grad=True)
    opt = SGD([params], lr=0.01)
    for it in range(n_iter):
        params.grad.zero_()  # each step starts from a clean gradient
        tape = wp.Tape()
        with tape:
            loss = forward(params)
        tape.backward(loss)
        if trace is not None:
            trace.append((params.numpy().astype(np.float64), params.grad.numpy().astype(np.float64)))
        opt.step([params.grad])
    return params, float(loss.numpy()[0])


def loss_at(p):
    return float(forward(wp.array(np.asarray(p, np.float32), dtype=float)).numpy()[0])


def verify():
    trace = []
    fit(3, trace)
    p, g = trace[-1]
    eps = 1e-3
    fd = [(loss_at(p + eps * e) - loss_at(p - eps * e)) / (2 * eps) for e in np.eye(2)]
    return g, np.array(fd)


if __name__ == "__main__":
    params, l = fit(30)
    print("balloon climb-rate loss %.5f params %s" % (l, params.numpy()))
