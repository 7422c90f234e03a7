"""Honey-bee colony dynamics over a spring season: logistic brood-driven
growth with forager losses driven by logged foraging-day weather. The intrinsic
growth rate and the forager mortality are fitted to weekly hive-weight-derived
colony sizes by plain gradient descent.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_HIVE = 5
N_WEEK = 12
K_CAP = 60.0
N0 = np.array([8.0, 10.0, 7.5, 9.0, 11.0])
FORAGE = np.clip(np.sin(np.linspace(0.2, 2.6, N_WEEK)), 0.1, None)
rng = np.random.default_rng(7)
_t = np.arange(1, N_WEEK + 1)[:, None]
OBS = (N0[None, :] * np.exp(0.22 * _t) / (1.0 + N0[None, :] * (np.exp(0.22 * _t) - 1.0) / 50.0)) * (1.0 + 0.03 * rng.normal(size=(N_WEEK, N_HIVE)))
PARAMS0 = np.array([0.3, 0.05])


@wp.kernel
def week_step(n: wp.array(dtype=float), forage: float, p: wp.array(dtype=float), n_next: wp.array(dtype=float)):
    i = wp.tid()
    x = n[i]
    n_next[i] = x + p[0] * x * (1.0 - x / K_CAP) - p[1] * forage * x


@wp.kernel
def census_loss(n: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (n[i] - obs[i]) / 10.0
    wp.atomic_add(loss, 0, r * r)


@wp.kernel
def sgd_update(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * g[i]


OBS_W = [wp.array(OBS[t], dtype=float) for t in range(N_WEEK)]


def simulate(p):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    n = wp.array(N0, dtype=float, requires_grad=True)
    for t in range(N_WEEK):
        n_next = wp.zeros(N_HIVE, dtype=float, requires_grad=True)
        wp.launch(week_step, dim=N_HIVE, inputs=[n, float(FORAGE[t]), p], outputs=[n_next])
        wp.launch(census_loss, dim=N_HIVE, inputs=[n_next, OBS_W[t]], outputs=[loss])
        n = n_next
    return loss


def fit(n_iter, lr=2.0e-4, trace=None):
    p = wp.array(PARAMS0, dtype=float, requires_grad=True)
    for it in range(n_iter):
        tape = wp.Tape()
        with tape:
            loss = simulate(p)
        g = wp.clone(p.grad)  # expect: grad_read
        tape.backward(loss)
        if trace is not None:
            trace.append((p.numpy().copy(), g.numpy().copy(), float(loss.numpy()[0])))
        wp.launch(sgd_update, dim=2, inputs=[p, g, lr])
        tape.zero()
    return p


def loss_at(p_np):
    return float(simulate(wp.array(p_np, dtype=float)).numpy()[0])


def verify():
    trace = []
    fit(4, trace=trace)
    p_last, g_used, _ = trace[-1]
    fd = np.zeros(2)
    for k in range(2):
        e = np.zeros(2)
        e[k] = 1e-3
        fd[k] = (loss_at(p_last + e) - loss_at(p_last - e)) / 2e-3
    return g_used, fd


if __name__ == "__main__":
    trace = []
    p = fit(40, trace=trace)
    print(f"census misfit {trace[-1][2]:.4f}  growth {p.numpy()[0]:.3f}/wk  forager mortality {p.numpy()[1]:.3f}/wk")
