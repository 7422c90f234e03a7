# correct: tape.zero() after each step also clears the reused per-slab error buffer's gradient, not only the mix parameters' gradient.
"""Mass-concrete pour monitoring: heat-of-hydration parameters (ultimate adiabatic rise,
time constant) of two mixes, as wp.vec2 entries, fitted to embedded thermocouple records
(slabs x readings, 2-D arrays). The objective is the mean over slabs of each slab's RMS
error, accumulated in a reused per-slab buffer.
"""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.init()

N_SLAB, N_T = 4, 12
HOURS = np.linspace(6.0, 168.0, N_T).astype(np.float32)
MIX = np.array([0, 0, 1, 1], dtype=np.int32)
CEMENT = np.array([0.9, 1.1, 1.0, 1.2], dtype=np.float32)        # relative cement content
T0 = np.array([18.0, 20.0, 19.0, 21.0], dtype=np.float32)         # placing temperature, C
TRUE = np.array([[3.6, 2.4], [4.2, 3.1]])                          # rise / 10 C, tau / 10 h
PARAMS0 = np.array([[3.0, 3.0], [3.5, 2.5]])
LR = 0.05
rng = np.random.default_rng(59)
T_MEAS = (T0[:, None] + 10.0 * TRUE[MIX, 0][:, None] * CEMENT[:, None]
          * (1.0 - np.exp(-HOURS[None, :] / (10.0 * TRUE[MIX, 1][:, None])))
          + 0.3 * rng.standard_normal((N_SLAB, N_T))).astype(np.float32)
HOURS_W = wp.array(HOURS, dtype=float)
MIX_W = wp.array(MIX, dtype=int)
CEMENT_W = wp.array(CEMENT, dtype=float)
T0_W = wp.array(T0, dtype=float)
TMEAS_W = wp.array(T_MEAS, dtype=float)


@wp.kernel
def slab_sq_err(mix_p: wp.array(dtype=wp.vec2), mix: wp.array(dtype=int), cement: wp.array(dtype=float),
                t0: wp.array(dtype=float), hours: wp.array(dtype=float), t_meas: wp.array2d(dtype=float),
                slab_err: wp.array(dtype=float)):
    s, j = wp.tid()
    q = mix_p[mix[s]]
    temp = t0[s] + 10.0 * q[0] * cement[s] * (1.0 - wp.exp(-hours[j] / (10.0 * q[1])))
    r = temp - t_meas[s, j]
    wp.atomic_add(slab_err, s, r * r / float(N_T))


@wp.kernel
def mean_rms(slab_err: wp.array(dtype=float), loss: wp.array(dtype=float)):
    s = wp.tid()
    wp.atomic_add(loss, 0, wp.sqrt(slab_err[s]) / float(N_SLAB))


@wp.kernel
def gd_step(p: wp.array(dtype=wp.vec2), g: wp.array(dtype=wp.vec2), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * g[i]


def loss_at(p):
    err = wp.zeros(N_SLAB, dtype=float)
    loss = wp.zeros(1, dtype=float)
    mp = wp.array(np.asarray(p, dtype=np.float32).reshape(2, 2), dtype=wp.vec2)
    wp.launch(slab_sq_err, dim=(N_SLAB, N_T), inputs=[mp, MIX_W, CEMENT_W, T0_W, HOURS_W, TMEAS_W], outputs=[err])
    wp.launch(mean_rms, dim=N_SLAB, inputs=[err], outputs=[loss])
    return float(loss.numpy()[0])


def run_fit(n_steps, probe_step=None):
    mix_p = wp.array(PARAMS0.astype(np.float32), dtype=wp.vec2, requires_grad=True)
    slab_err = wp.zeros(N_SLAB, dtype=float, requires_grad=True)
    probe = None
    for it in range(n_steps):
        slab_err.zero_()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(slab_sq_err, dim=(N_SLAB, N_T), inputs=[mix_p, MIX_W, CEMENT_W, T0_W, HOURS_W, TMEAS_W],
                      outputs=[slab_err])
            wp.launch(mean_rms, dim=N_SLAB, inputs=[slab_err], outputs=[loss])
        tape.backward(loss)
        if it == probe_step:
            probe = (mix_p.numpy().astype(np.float64).ravel(), mix_p.grad.numpy().astype(np.float64).ravel())
        wp.launch(gd_step, dim=2, inputs=[mix_p, mix_p.grad, LR])
        tape.zero()
        if probe_step is None and it % 20 == 0:
            print(f"iter {it}: mean RMS={loss.numpy()[0]:.3f} C mixes={mix_p.numpy().ravel()}")
    return mix_p.numpy().ravel(), probe


def verify():
    _, (p_k, g_k) = run_fit(4, probe_step=3)
    eps = 1e-3
    fd = np.zeros(4)
    for j in range(4):
        e = np.zeros(4)
        e[j] = eps
        fd[j] = (loss_at(p_k + e) - loss_at(p_k - e)) / (2 * eps)
    return g_k, fd


if __name__ == "__main__":
    p, _ = run_fit(80)
    print("fitted:", p, "mean RMS:", loss_at(p))
