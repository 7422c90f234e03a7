"""Sourdough proofing: logistic dough-rise curve (volume gain, rate, time of half rise)
fitted to the height readings of a proofing box camera, by plain gradient descent in Warp.
"""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.init()

T = np.linspace(0.25, 8.0, 24).astype(np.float32)            # h
TRUE = np.array([1.35, 1.1, 1.05])                             # volume gain, rate 1/h, half-rise time / 4 h
PARAMS0 = np.array([1.0, 0.8, 0.8])
LR = 0.02
N = T.size


def _rise_np(p, t):
    return 1.0 + p[0] / (1.0 + np.exp(-p[1] * (t - 4.0 * p[2])))


rng = np.random.default_rng(43)
V_MEAS = (_rise_np(TRUE, T) + 0.01 * rng.standard_normal(N)).astype(np.float32)
T_W = wp.array(T, dtype=float)
V_W = wp.array(V_MEAS, dtype=float)


@wp.kernel
def rise_sse(p: wp.array(dtype=float), t: wp.array(dtype=float), v_meas: wp.array(dtype=float),
             loss: wp.array(dtype=float)):
    i = wp.tid()
    v = 1.0 + p[0] / (1.0 + wp.exp(-p[1] * (t[i] - 4.0 * p[2])))
    r = (v - v_meas[i]) * 5.0
    wp.atomic_add(loss, 0, r * r / float(N))


@wp.kernel
def gd_step(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * g[i]


def loss_at(p):
    loss = wp.zeros(1, dtype=float)
    wp.launch(rise_sse, dim=N, inputs=[wp.array(np.asarray(p, dtype=np.float32), dtype=float), T_W, V_W],
              outputs=[loss])
    return float(loss.numpy()[0])


def run_fit(n_steps, probe_step=None):
    p = wp.array(PARAMS0.astype(np.float32), dtype=float, requires_grad=True)
    probe = None
    for it in range(n_steps):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(rise_sse, dim=N, inputs=[p, T_W, V_W], outputs=[loss])
        tape.backward(loss)  # expect: missing_zero
        if it == probe_step:
            probe = (p.numpy().astype(np.float64).copy(), p.grad.numpy().astype(np.float64).copy())
        wp.launch(gd_step, dim=3, inputs=[p, p.grad, LR])
        if probe_step is None and it % 20 == 0:
            print(f"iter {it}: loss={loss.numpy()[0]:.4f} params={p.numpy()}")
    return p.numpy().copy(), probe


def verify():
    _, (p_k, g_k) = run_fit(4, probe_step=3)
    eps = 1e-3
    fd = np.zeros(3)
    for j in range(3):
        e = np.zeros(3)
        e[j] = eps
        fd[j] = (loss_at(p_k + e) - loss_at(p_k - e)) / (2 * eps)
    return g_k, fd


if __name__ == "__main__":
    p, _ = run_fit(80)
    print("fitted:", p, "loss:", loss_at(p))
