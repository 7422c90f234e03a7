# correct: rod log-diffusivity descent that zeroes the gradients of both the parameters m and the mapped diffusivity every iteration
"""Log-diffusivity of a heated rod from thermocouple readings (1-D conduction).

The rod has six zones with unknown log-diffusivity m; a kernel maps m to the
cell diffusivity D = exp(m) held in a @wp.struct together with the heater
profile. Host gradient descent, a new tape per iteration.
"""
import numpy as np
import warp as wp

N = 60
NSTEPS = 150
DT = 0.1
ZONES = 6
PROBES = np.array([8, 20, 30, 41, 52], dtype=np.int32)


@wp.struct
class Rod:
    D: wp.array(dtype=float)
    heater: wp.array(dtype=float)


@wp.kernel
def map_diffusivity(m: wp.array(dtype=float), rod: Rod):
    i = wp.tid()
    rod.D[i] = wp.exp(m[i * ZONES // N])


@wp.kernel
def conduct(T: wp.array(dtype=float), rod: Rod, dt: float, T_out: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0 or i == N - 1:
        T_out[i] = 0.0
        return
    dw = 0.5 * (rod.D[i - 1] + rod.D[i])
    de = 0.5 * (rod.D[i] + rod.D[i + 1])
    T_out[i] = T[i] + dt * (de * (T[i + 1] - T[i]) - dw * (T[i] - T[i - 1]) + rod.heater[i])


@wp.kernel
def probe_misfit(T: wp.array(dtype=float), probes: wp.array(dtype=wp.int32), obs: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    k = wp.tid()
    d = T[probes[k]] - obs[k]
    wp.atomic_add(loss, 0, d * d)


heater_np = np.zeros(N, dtype=np.float32)
heater_np[14:18] = 1.0
heater_np[38:42] = 0.6
PROBE_IDX = wp.array(PROBES, dtype=wp.int32)


def make_rod():
    rod = Rod()
    rod.D = wp.zeros(N, dtype=float, requires_grad=True)
    rod.heater = wp.array(heater_np, dtype=float)
    return rod


def final_temperature(m, rod):
    wp.launch(map_diffusivity, dim=N, inputs=[m, rod])
    T = wp.zeros(N, dtype=float, requires_grad=True)
    for _ in range(NSTEPS):
        T_new = wp.zeros(N, dtype=float, requires_grad=True)
        wp.launch(conduct, dim=N, inputs=[T, rod, DT], outputs=[T_new])
        T = T_new
    return T


TRUE_M = np.log(np.array([0.8, 1.2, 0.5, 0.9, 1.5, 0.7], dtype=np.float32))
OBS = wp.array(final_temperature(wp.array(TRUE_M, dtype=float), make_rod()).numpy()[PROBES], dtype=float)


def objective(m, rod):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    T = final_temperature(m, rod)
    wp.launch(probe_misfit, dim=len(PROBES), inputs=[T, PROBE_IDX, OBS], outputs=[loss])
    return loss


def invert(iters=4, lr=0.05, log=False):
    m = wp.zeros(ZONES, dtype=float, requires_grad=True)
    rod = make_rod()
    used = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = objective(m, rod)
        tape.backward(loss)
        g = m.grad.numpy().astype(np.float64).copy()
        used.append((m.numpy().astype(np.float64).copy(), g))
        if log:
            print(f"iter {it}: misfit {loss.numpy()[0]:.4e}  D {np.round(np.exp(m.numpy()), 3)}")
        m.assign(m.numpy() - lr * g.astype(np.float32))
        for arr in (m, rod.D):
            arr.grad.zero_()
    return used


def verify():
    used = invert()
    p, g = used[-1]
    eps = 1e-2
    fd = np.zeros_like(p)
    for k in range(p.size):
        vals = []
        for s in (1.0, -1.0):
            q = p.copy(); q[k] += s * eps
            vals.append(float(objective(wp.array(q.astype(np.float32), dtype=float), make_rod()).numpy()[0]))
        fd[k] = (vals[0] - vals[1]) / (2.0 * eps)
    return g, fd


if __name__ == "__main__":
    invert(log=True)
