"""NVT run of a periodic LJ fluid with a Berendsen thermostat: sensitivity of the
final configurational energy to the thermostat's target temperature T0 and coupling
time tau (how much do thermostat settings bias a short equilibration?).
"""
import numpy as np
import warp as wp

from _lj import lj_energy, lj_forces_pbc, min_image

N_SIDE = 3
N = N_SIDE ** 3
BOX = float((N / 0.7) ** (1.0 / 3.0))
RC = 2.5
DT = 0.004
N_STEPS = 30


@wp.kernel
def leapfrog(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
             x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vn = v[i] + dt * f[i]
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def kinetic_temperature(v: wp.array(dtype=wp.vec3), T: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(T, 0, wp.dot(v[i], v[i]) / (3.0 * float(v.shape[0])))


@wp.kernel
def berendsen_rescale(v: wp.array(dtype=wp.vec3), T: wp.array(dtype=float), thermo: wp.array(dtype=float), dt: float,
                      v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    lam = wp.sqrt(1.0 + dt / thermo[1] * (thermo[0] / T[0] - 1.0))
    v_out[i] = lam * v[i]


@wp.kernel
def potential_energy(x: wp.array(dtype=wp.vec3), box: float, rc: float, e: wp.array(dtype=float)):
    i, j = wp.tid()
    if j > i:
        d = min_image(x[i] - x[j], box)
        r2 = wp.dot(d, d)
        if r2 < rc * rc:
            wp.atomic_add(e, 0, lj_energy(r2, 1.0, 1.0) / float(x.shape[0]))


rng = np.random.default_rng(6)
_g = (np.arange(N_SIDE) + 0.5) * BOX / N_SIDE
X0 = np.array(np.meshgrid(_g, _g, _g, indexing="ij")).reshape(3, -1).T
X0 = (X0 + 0.05 * rng.standard_normal(X0.shape)).astype(np.float32)
V0 = (0.8 * rng.standard_normal(X0.shape)).astype(np.float32)
V0 -= V0.mean(axis=0)
PARAMS0 = np.array([1.5, 0.05])  # T0, tau
FD_EPS = [1e-3, 1e-4]


def evaluate(p):
    thermo = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ff = wp.array([1.0, 1.0], dtype=float)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.array(V0, dtype=wp.vec3, requires_grad=True)
    epot = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_STEPS):
            f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            wp.launch(lj_forces_pbc, dim=N, inputs=[x, ff, BOX, RC], outputs=[f])
            x_new, v_new = wp.empty_like(x), wp.empty_like(v)
            wp.launch(leapfrog, dim=N, inputs=[x, v, f, DT], outputs=[x_new, v_new])
            T = wp.zeros(1, dtype=float, requires_grad=True)
            wp.launch(kinetic_temperature, dim=N, inputs=[v_new], outputs=[T])
            v_th = wp.empty_like(v_new)
            wp.launch(berendsen_rescale, dim=N, inputs=[v_new, T, thermo, DT], outputs=[v_th], record_tape=False)  # expect: truncation
            x, v = x_new, v_th
        wp.launch(potential_energy, dim=(N, N), inputs=[x, BOX, RC], outputs=[epot])
    tape.backward(epot)
    return float(epot.numpy()[0]), thermo.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    E, g = evaluate(PARAMS0)
    print(f"U/N after {N_STEPS} NVT steps = {E:.4f}; dU/d(T0, tau) = {g}")
