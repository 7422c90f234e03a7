"""Multi-echo spin-echo MRI T2 mapping of a cartilage ROI: the mono-exponential
signal S0 exp(-TE / T2) is computed on the device; the host adds the Rician
noise floor (magnitude images) and the least-squares loss, and seeds the
tape with the derivative of that host loss.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_VOX = 6
TE_MS = np.array([10.0, 30.0, 50.0, 70.0, 90.0, 110.0, 130.0, 150.0])
N_ECHO = len(TE_MS)
NOISE = 45.0
rng = np.random.default_rng(5)
S0_VOX = np.array([1.0, 0.95, 1.05, 0.9, 1.1, 1.0])
_true = 900.0 * S0_VOX[:, None] * np.exp(-TE_MS[None, :] / 38.0)
OBS = np.sqrt(_true ** 2 + NOISE ** 2) + rng.normal(0, 4.0, _true.shape)
PARAMS0 = np.array([850.0, 33.0])


@wp.kernel
def echo_signal(te: wp.array(dtype=float), pd: wp.array(dtype=float), p: wp.array(dtype=float),
                sig: wp.array2d(dtype=float)):
    v, e = wp.tid()
    sig[v, e] = p[0] * pd[v] * wp.exp(-te[e] / p[1])


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    sig = wp.zeros((N_VOX, N_ECHO), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(echo_signal, dim=(N_VOX, N_ECHO), inputs=[wp.array(TE_MS, dtype=float), wp.array(S0_VOX, dtype=float), p],
                  outputs=[sig])
    s = sig.numpy().astype(np.float64)
    mag = np.sqrt(s * s + NOISE * NOISE)
    r = mag - OBS
    loss = np.mean(r * r)
    seed = 2.0 * r / r.size
    tape.backward(grads={sig: wp.array(seed.astype(np.float32), dtype=float)})  # expect: seeding
    return loss, p.grad.numpy().copy()


FD_EPS = np.array([1e-1, 1e-3])

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(60):
        val, g = evaluate(p)
        p -= np.array([5.0, 0.004]) * g
    print(f"echo misfit {val:.2f}  S0 {p[0]:.1f}  T2 {p[1]:.2f} ms")
