"""Ball launcher characterisation: muzzle speed and linear drag coefficient fitted to a
high-speed-camera track (wp.vec2 positions), by plain gradient descent on a torch tensor
that the Warp kernel reads through wp.from_torch.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

G = 9.81
THETA = 0.6                                   # launch angle, rad
T = np.linspace(0.05, 1.6, 16).astype(np.float32)
TRUE = np.array([2.8, 1.6])                   # v0 / 10 m/s, drag k * 10 1/s
PARAMS0 = np.array([2.2, 0.8])
LR = 0.004
N = T.size


def _track_np(p, t):
    v0, k = 10.0 * p[0], 0.1 * p[1]
    e = 1.0 - np.exp(-k * t)
    x = v0 * np.cos(THETA) / k * e
    y = (v0 * np.sin(THETA) + G / k) / k * e - G * t / k
    return np.stack([x, y], axis=1)


rng = np.random.default_rng(4)
MEAS = (_track_np(TRUE, T) + 0.02 * rng.standard_normal((N, 2))).astype(np.float32)
T_W = wp.array(T, dtype=float)
MEAS_W = wp.array(MEAS, dtype=wp.vec2)


@wp.kernel
def track_sse(p: wp.array(dtype=float), t: wp.array(dtype=float), meas: wp.array(dtype=wp.vec2),
              loss: wp.array(dtype=float)):
    i = wp.tid()
    v0 = 10.0 * p[0]
    k = 0.1 * p[1]
    e = 1.0 - wp.exp(-k * t[i])
    pos = wp.vec2(v0 * wp.cos(THETA) / k * e, (v0 * wp.sin(THETA) + G / k) / k * e - G * t[i] / k)
    d = pos - meas[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N))


def loss_at(p):
    loss = wp.zeros(1, dtype=float)
    wp.launch(track_sse, dim=N, inputs=[wp.array(np.asarray(p, dtype=np.float32), dtype=float), T_W, MEAS_W],
              outputs=[loss])
    return float(loss.numpy()[0])


def run_fit(n_steps, probe_step=None):
    params = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32), requires_grad=False)
    params_wp = wp.from_torch(params.data, requires_grad=True)   # Warp view of the parameter storage
    probe = None
    for it in range(n_steps):
        params_wp.grad.zero_()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(track_sse, dim=N, inputs=[params_wp, T_W, MEAS_W], outputs=[loss])
        tape.backward(loss)
        g = wp.to_torch(params_wp.grad, requires_grad=False)
        if it == probe_step:
            probe = (params.numpy().astype(np.float64).copy(), g.numpy().astype(np.float64).copy())
        params.data = params.data - LR * g  # expect: torch_interop
        params.data.clamp_(min=0.05)
        if probe_step is None and it % 10 == 0:
            print(f"iter {it}: loss={loss.numpy()[0]:.4f} v0={10 * params[0].item():.2f} m/s k={0.1 * params[1].item():.3f} 1/s")
    return params.numpy().copy(), probe


def verify():
    _, (p_k, g_k) = run_fit(4, probe_step=3)
    eps = 1e-2
    fd = np.zeros(2)
    for j in range(2):
        e = np.zeros(2)
        e[j] = eps
        fd[j] = (loss_at(p_k + e) - loss_at(p_k - e)) / (2 * eps)
    return g_k, fd


if __name__ == "__main__":
    p, _ = run_fit(40)
    print("fitted:", p, "loss:", loss_at(p))
