# correct: the Warp gradient buffer is zeroed in place, so the Parameter's .grad view keeps seeing the fresh gradient every step.
"""Vehicle seat suspension: natural frequency and damping ratio fitted to a step-response
capture, with torch.optim.SGD (momentum) stepping a Parameter whose .grad is a torch view
of the Warp gradient buffer.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

T = np.linspace(0.02, 1.2, 30).astype(np.float32)              # s
TRUE = np.array([1.45, 2.3])                                    # omega_n / 10 rad/s, zeta x 10
PARAMS0 = np.array([1.15, 3.4])
N = T.size


def _step_np(p, t):
    w, z = 10.0 * p[0], 0.1 * p[1]
    wd = w * np.sqrt(1.0 - z * z)
    return 1.0 - np.exp(-z * w * t) * (np.cos(wd * t) + z / np.sqrt(1.0 - z * z) * np.sin(wd * t))


rng = np.random.default_rng(31)
X_MEAS = (_step_np(TRUE, T) + 0.01 * rng.standard_normal(N)).astype(np.float32)
T_W = wp.array(T, dtype=float)
X_W = wp.array(X_MEAS, dtype=float)


@wp.kernel
def step_sse(p: wp.array(dtype=float), t: wp.array(dtype=float), x_meas: wp.array(dtype=float),
             loss: wp.array(dtype=float)):
    i = wp.tid()
    w = 10.0 * p[0]
    z = 0.1 * p[1]
    s = wp.sqrt(1.0 - z * z)
    wd = w * s
    x = 1.0 - wp.exp(-z * w * t[i]) * (wp.cos(wd * t[i]) + z / s * wp.sin(wd * t[i]))
    r = (x - x_meas[i]) * 10.0
    wp.atomic_add(loss, 0, r * r / float(N))


def loss_at(p):
    loss = wp.zeros(1, dtype=float)
    wp.launch(step_sse, dim=N, inputs=[wp.array(np.asarray(p, dtype=np.float32), dtype=float), T_W, X_W],
              outputs=[loss])
    return float(loss.numpy()[0])


def run_fit(n_steps, probe_step=None):
    params = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    params_wp = wp.from_torch(params.detach(), requires_grad=True)     # Warp reads the Parameter's storage
    params.grad = wp.to_torch(params_wp.grad, requires_grad=False)    # torch reads Warp's gradient buffer
    opt = torch.optim.SGD([params], lr=0.01, momentum=0.5)
    probe = None
    for it in range(n_steps):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(step_sse, dim=N, inputs=[params_wp, T_W, X_W], outputs=[loss])
        tape.backward(loss)
        if it == probe_step:
            probe = (params.detach().numpy().astype(np.float64).copy(), params.grad.numpy().astype(np.float64).copy())
        opt.step()
        params_wp.grad.zero_()
        if probe_step is None and it % 10 == 0:
            print(f"iter {it}: loss={loss.numpy()[0]:.4f} f_n={10 * params[0].item() / (2 * np.pi):.3f} Hz zeta={0.1 * params[1].item():.3f}")
    return params.detach().numpy().copy(), probe


def verify():
    _, (p_k, g_k) = run_fit(4, probe_step=3)
    eps = 1e-3
    fd = np.zeros(2)
    for j in range(2):
        e = np.zeros(2)
        e[j] = eps
        fd[j] = (loss_at(p_k + e) - loss_at(p_k - e)) / (2 * eps)
    return g_k, fd


if __name__ == "__main__":
    p, _ = run_fit(60)
    print("fitted:", p, "loss:", loss_at(p))
