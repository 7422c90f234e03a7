"""Compost heap: fit microbial heat yield and the oxygen half-saturation of a windrow to core temperatures, using warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

N_PILE = 28
rng = np.random.default_rng(101)
OXYGEN = rng.uniform(2.0, 18.0, N_PILE).astype(np.float32)  # % O2 in pore air
MOIST = rng.uniform(0.4, 0.7, N_PILE).astype(np.float32)
AMBIENT = rng.uniform(0.0, 20.0, N_PILE).astype(np.float32)


@wp.kernel
def core_temp(p: wp.array(dtype=float), o2: wp.array(dtype=float), moist: wp.array(dtype=float),
              amb: wp.array(dtype=float), temp: wp.array(dtype=float)):
    i = wp.tid()
    monod = o2[i] / (p[1] + o2[i])
    water = 4.0 * moist[i] * (1.0 - moist[i])
    temp[i] = amb[i] + p[0] * monod * water


@wp.kernel
def temp_err(temp: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (temp[i] - obs[i]) / 10.0
    wp.atomic_add(loss, 0, r * r / float(N_PILE))


def _obs(y=55.0, ks=4.0):
    return (AMBIENT + y * OXYGEN / (ks + OXYGEN) * 4 * MOIST * (1 - MOIST)).astype(np.float32)


OBS = wp.array(_obs(), dtype=float)
PARAMS0 = [40.0, 2.0]


def forward(params):
    temp = wp.zeros(N_PILE, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(core_temp, dim=N_PILE, inputs=[params, wp.array(OXYGEN, dtype=float), wp.array(MOIST, dtype=float),
                                             wp.array(AMBIENT, dtype=float)], outputs=[temp])
    wp.launch(temp_err, dim=N_PILE, inputs=[temp, OBS], outputs=[loss])
    return loss


def fit(n_iter, trace=None):
    params = wp.array(np.array(PARAMS0, np.float32), dtype=float, requires_grad=True)
    opt = Adam([params], lr=0.5)
    for it in range(n_iter):
        params.grad.zero_()
        tape = wp.Tape()
        with tape:
            loss = forward(params)
        tape.backward(loss)
        tape.zero()  # expect: grad_read
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
    eps = 1e-2
    fd = [(loss_at(p + eps * e) - loss_at(p - eps * e)) / (2 * eps) for e in np.eye(2)]
    return g, np.array(fd)


if __name__ == "__main__":
    params, l = fit(40)
    print("compost temperature loss %.5f params %s" % (l, params.numpy()))
