"""Identify a temperature-dependent conductivity k(T) = k0 (1 + alpha T) of a
metal plate from thermocouple readings taken after a hot spot diffuses.

Explicit finite-volume diffusion on a 2-D grid, fixed-temperature border.
The plate object keeps the whole temperature history so that each
evaluation can be inspected afterwards.
"""
import numpy as np
import warp as wp

N = 14
STEPS = 25
DT_H2 = 0.08
AMBIENT = 0.2


@wp.func
def conductivity(T: float, k0: float, alpha: float):
    return k0 * (1.0 + alpha * T * T)


@wp.kernel
def diffuse(T: wp.array2d(dtype=float), params: wp.array(dtype=float), dt_h2: float,
            T_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    n = T.shape[0]
    tc = T[i, j]
    if i == 0 or j == 0 or i == n - 1 or j == n - 1:
        T_out[i, j] = tc
        return
    k0 = params[0]
    alpha = params[1]
    kc = conductivity(tc, k0, alpha)
    flux = float(0.0)
    tn = T[i - 1, j]
    flux += 0.5 * (kc + conductivity(tn, k0, alpha)) * (tn - tc)
    tn = T[i + 1, j]
    flux += 0.5 * (kc + conductivity(tn, k0, alpha)) * (tn - tc)
    tn = T[i, j - 1]
    flux += 0.5 * (kc + conductivity(tn, k0, alpha)) * (tn - tc)
    tn = T[i, j + 1]
    flux += 0.5 * (kc + conductivity(tn, k0, alpha)) * (tn - tc)
    T_out[i, j] = tc + dt_h2 * flux


@wp.kernel
def sensor_misfit(T: wp.array2d(dtype=float), rows: wp.array(dtype=wp.int32), cols: wp.array(dtype=wp.int32),
                  readings: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    d = T[rows[k], cols[k]] - readings[k]
    wp.atomic_add(loss, 0, d * d)


class HeatPlate:
    def __init__(self):
        yy, xx = np.mgrid[0:N, 0:N]
        hot = np.exp(-((xx - 5.0) ** 2 + (yy - 6.0) ** 2) / 6.0)
        self.T_init = (AMBIENT + 2.0 * hot).astype(np.float32)
        self.T_init[0, :] = self.T_init[-1, :] = self.T_init[:, 0] = self.T_init[:, -1] = AMBIENT
        self.history = [wp.zeros((N, N), dtype=float, requires_grad=True) for _ in range(STEPS + 1)]

    def reset(self):
        """Back to the initial condition, history cleared to ambient."""
        for T in self.history:
            T.fill_(AMBIENT)
        self.history[0].assign(self.T_init)

    def run(self, params):
        for s in range(STEPS):
            wp.launch(diffuse, dim=(N, N), inputs=[self.history[s], params, DT_H2], outputs=[self.history[s + 1]])
        return self.history[-1]


plate = HeatPlate()
rows = wp.array([4, 6, 7, 9, 6], dtype=wp.int32)
cols = wp.array([5, 3, 8, 6, 6], dtype=wp.int32)
readings = wp.array([0.9, 0.7, 0.6, 0.5, 1.1], dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    plate.reset()
    tape = wp.Tape()
    with tape:
        T_final = plate.run(params)
        wp.launch(sensor_misfit, dim=5, inputs=[T_final, rows, cols, readings], outputs=[loss])
    value = float(loss.numpy()[0])
    plate.reset()  # expect: untaped_write
    tape.backward(loss)
    g = params.grad.numpy().copy()
    tape.zero()
    return value, g


PARAMS0 = np.array([0.9, 0.3])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("misfit", l, "d/d(k0, alpha)", g)
