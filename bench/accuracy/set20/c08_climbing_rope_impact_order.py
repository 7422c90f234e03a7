# correct: b08 (grad_read): the tape is zeroed only after Adam has consumed the gradient.
"""Dynamic climbing rope: peak impact force of a lead fall,
F = m g + sqrt((m g)^2 + 2 (1 - eta) m g EA f), with fall factor f. The rope's
axial stiffness EA (kN) and the fraction eta of fall energy dissipated by
knot slip and belay device are fitted with Adam to drop-tower impact forces.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

G = 9.81
N_DROP = 10
MASS = np.array([80.0, 80.0, 80.0, 80.0, 55.0, 55.0, 55.0, 100.0, 100.0, 100.0])
FALL_FACTOR = np.array([0.3, 0.7, 1.2, 1.77, 0.5, 1.0, 1.5, 0.4, 0.9, 1.6])
F_OBS_KN = np.array([4.4, 6.2, 7.8, 9.2, 4.3, 5.8, 6.9, 5.6, 7.9, 10.1])
PARAMS0 = np.array([22.0, 0.25])


@wp.kernel
def impact_force(mass: wp.array(dtype=float), ff: wp.array(dtype=float), p: wp.array(dtype=float),
                 force_kn: wp.array(dtype=float)):
    i = wp.tid()
    w = mass[i] * G
    ea = p[0] * 1000.0
    force_kn[i] = (w + wp.sqrt(w * w + 2.0 * (1.0 - p[1]) * w * ea * ff[i])) / 1000.0


@wp.kernel
def drop_loss(force_kn: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = force_kn[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_DROP))


MASS_W = wp.array(MASS, dtype=float)
FF_W = wp.array(FALL_FACTOR, dtype=float)
OBS_W = wp.array(F_OBS_KN, dtype=float)


def forward(p):
    force = wp.zeros(N_DROP, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(impact_force, dim=N_DROP, inputs=[MASS_W, FF_W, p], outputs=[force])
    wp.launch(drop_loss, dim=N_DROP, inputs=[force, OBS_W], outputs=[loss])
    return loss


def fit(n_iter, trace=None):
    p = wp.array(PARAMS0, dtype=float, requires_grad=True)
    opt = Adam([p], lr=0.02)
    for it in range(n_iter):
        tape = wp.Tape()
        with tape:
            loss = forward(p)
        tape.backward(loss)
        if trace is not None:
            trace.append((p.numpy().copy(), p.grad.numpy().copy(), float(loss.numpy()[0])))
        opt.step([p.grad])
        tape.zero()
    return p


def loss_at(p_np):
    return float(forward(wp.array(p_np, dtype=float)).numpy()[0])


def verify():
    trace = []
    fit(5, trace=trace)
    p_last, g_used, _ = trace[-1]
    eps = np.array([1e-2, 1e-3])
    fd = np.array([(loss_at(p_last + eps * e) - loss_at(p_last - eps * e)) / (2.0 * eps[k])
                   for k, e in enumerate(np.eye(2))])
    return g_used, fd


if __name__ == "__main__":
    trace = []
    p = fit(150, trace=trace)
    print(f"impact misfit {trace[-1][2]:.4f} kN^2  EA {p.numpy()[0]:.2f} kN  dissipated {p.numpy()[1]:.3f}")
