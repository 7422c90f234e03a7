# correct: a kernel module is compiled with enable_backward=False, but its kernel only renders frames after backward(), outside any tape.
"""Allen-Cahn phase separation u_t = m (eps^2 u_xx + u - u^3) in 1-D: fit the
interface parameter eps^2 and the mobility m to a final phase profile. The
phase field is rendered to an RGB strip for inspection."""
import numpy as np
import warp as wp

from _phase_render import interface_indicator

wp.config.quiet = True

N = 64
STEPS = 40
DX = 1.0 / N
DT = 2.0e-3
PARAMS0 = [1.5e-3, 0.8]
TRUE_PARAMS = [1.0e-3, 1.0]
FD_EPS = [1.0e-5, 1.0e-3]


@wp.kernel
def ac_step(u: wp.array(dtype=float), prm: wp.array(dtype=float), u_out: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    c = u[i]
    lap = (u[(i + n - 1) % n] - 2.0 * c + u[(i + 1) % n]) / (DX * DX)
    u_out[i] = c + DT * prm[1] * (prm[0] * lap + c - c * c * c)


@wp.kernel
def phase_loss(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


def initial():
    x = (np.arange(N) + 0.5) / N
    return (0.6 * np.sin(2.0 * np.pi * x) + 0.3 * np.sin(6.0 * np.pi * x + 0.4)).astype(np.float32)


def evolve(prm, rg=False):
    u = wp.array(initial(), dtype=float, requires_grad=rg)
    for _ in range(STEPS):
        un = wp.empty_like(u)
        wp.launch(ac_step, dim=N, inputs=[u, prm], outputs=[un])
        u = un
    return u


OBS = evolve(wp.array(TRUE_PARAMS, dtype=float)).numpy().copy()


def evaluate(p, render=False):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u = evolve(prm, rg=True)
        wp.launch(phase_loss, dim=N, inputs=[u, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    img = wp.zeros(N, dtype=wp.vec3)
    wp.launch(interface_indicator, dim=N, inputs=[u, 0.3], outputs=[img])
    if render:
        print("interface pixels:", int((img.numpy()[:, 1] > 0.5).sum()))
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(6):
        l, g = evaluate(p, render=(it == 0))
        print(f"iter {it} loss {l:.5f} eps2 {p[0]:.2e} mobility {p[1]:.3f}")
        p -= np.array([1.0e-7, 1.0e-2]) * g
