"""1-D rod with temperature-dependent conductivity k(T) = k0 (1 + k1 T), explicit steps."""
import numpy as np
import warp as wp

NX = 32
DT = 0.2


@wp.kernel
def rod_step(T: wp.array(dtype=float), kappa: wp.array(dtype=float), T_out: wp.array(dtype=float)):
    i = wp.tid()
    if i == 0 or i == NX - 1:
        T_out[i] = T[i]
        return
    kl = kappa[0] * (1.0 + kappa[1] * 0.5 * (T[i] + T[i - 1]))
    kr = kappa[0] * (1.0 + kappa[1] * 0.5 * (T[i] + T[i + 1]))
    T_out[i] = T[i] + DT * (kr * (T[i + 1] - T[i]) - kl * (T[i] - T[i - 1]))


@wp.kernel
def thermocouple_loss(T: wp.array(dtype=float), idx: wp.array(dtype=int), meas: wp.array(dtype=float),
                      loss: wp.array(dtype=float)):
    k = wp.tid()
    d = T[idx[k]] - meas[k]
    wp.atomic_add(loss, 0, d * d)


def initial_profile():
    x = np.linspace(0.0, 1.0, NX)
    T = 0.2 + 0.8 * np.exp(-((x - 0.4) ** 2) / 0.01)
    T[0], T[-1] = 1.0, 0.0
    return T.astype(np.float32)


idx = wp.array(np.array([5, 10, 14, 19, 25], dtype=np.int32), dtype=int)
meas = wp.array(np.array([0.7, 0.5, 0.6, 0.35, 0.2], dtype=np.float32), dtype=float)


def rod_loss(kappa, steps=30):
    T = wp.array(initial_profile(), dtype=float, requires_grad=True)
    for _ in range(steps):
        T_new = wp.empty_like(T)
        wp.launch(rod_step, dim=NX, inputs=[T, kappa], outputs=[T_new])
        T = T_new
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(thermocouple_loss, dim=idx.shape[0], inputs=[T, idx, meas], outputs=[loss])
    return loss


def objective(p):
    return float(rod_loss(wp.array(np.asarray(p, dtype=np.float32), dtype=float)).numpy()[0])


def central_fd(p, eps=1e-3):
    p = np.asarray(p, dtype=np.float64)
    return np.array([(objective(p + eps * e) - objective(p - eps * e)) / (2 * eps) for e in np.eye(len(p))])
