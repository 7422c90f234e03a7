"""Pneumatic soft caudal fin in a water tank: identify the bending stiffness,
the quadratic hydrodynamic drag and the actuation gain from tip displacement
tracks filmed at several drive frequencies.

Each fin is a damped oscillator (unit modal mass)
    x'' = A sin(2 pi f t) - k x - c_lin x' - c_d x'|x'|
integrated with semi-implicit Euler; the trajectory is stored row by row.
The drag law x'|x'| has a kink at rest, so it is a @wp.func with a
hand-written adjoint.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

FREQS = np.array([0.6, 0.9, 1.2, 1.5, 1.9, 2.4], dtype=np.float32)
N_FIN = FREQS.size
DT = 0.01
N_STEPS = 150
C_LIN = 0.4
TWO_PI = 6.283185307


@wp.func
def signed_square(v: float):
    return v * wp.abs(v)


@wp.func_grad(signed_square)
def adj_signed_square(v: float, adj_ret: float):
    wp.adjoint[v] += adj_ret * 2.0 * v  # expect: custom_adjoint


@wp.kernel
def fin_step(x: wp.array2d(dtype=float), v: wp.array2d(dtype=float), prm: wp.array(dtype=float),
             freq: wp.array(dtype=float), n: int):
    i = wp.tid()
    t = float(n) * DT
    acc = prm[2] * wp.sin(TWO_PI * freq[i] * t) - prm[0] * x[n, i] - C_LIN * v[n, i] - prm[1] * signed_square(v[n, i])
    v_new = v[n, i] + DT * acc
    v[n + 1, i] = v_new
    x[n + 1, i] = x[n, i] + DT * v_new


@wp.kernel
def track_misfit(x: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, i = wp.tid()
    d = x[n + 1, i] - obs[n, i]
    wp.atomic_add(loss, 0, d * d / float(N_STEPS * N_FIN))


def simulate(p, requires_grad=False):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=requires_grad)
    x = wp.zeros((N_STEPS + 1, N_FIN), dtype=float, requires_grad=requires_grad)
    v = wp.zeros((N_STEPS + 1, N_FIN), dtype=float, requires_grad=requires_grad)
    for n in range(N_STEPS):
        wp.launch(fin_step, dim=N_FIN, inputs=[x, v, prm, FREQ_W, n])
    return prm, x


FREQ_W = wp.array(FREQS, dtype=float)
_rng = np.random.default_rng(21)
OBS = wp.array(simulate([9.0, 1.6, 4.0])[1].numpy()[1:] + 0.003 * _rng.standard_normal((N_STEPS, N_FIN)),
               dtype=float)


def evaluate(p):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        prm, x = simulate(p, requires_grad=True)
        wp.launch(track_misfit, dim=(N_STEPS, N_FIN), inputs=[x, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([7.5, 1.0, 3.4])
FD_EPS = 1e-3

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"tip misfit {f:.3e}; d/d(k, c_d, A) = {g}")
