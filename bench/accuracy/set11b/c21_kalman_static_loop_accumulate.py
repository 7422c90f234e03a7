# correct: the covariance matrix's component P[1, 1] is changed after P was computed by a matrix product, but with +=, which is differentiable, inside a static (unrolled) loop.
"""Noise-variance estimation for a random-walk-velocity Kalman filter by
maximising the innovation likelihood: each thread filters one of 20 tracks
over 12 samples inside one kernel."""
import numpy as np
import warp as wp

wp.config.quiet = True

B = 20
T = 12
DT = 0.2
PARAMS0 = [0.3, 0.1]     # q, r
rng = np.random.default_rng(19)
_vel = rng.normal(0.0, 1.0, B)
_pos = np.zeros(B)
Z = np.zeros((B, T), dtype=np.float32)
for _t in range(T):
    _vel = _vel + rng.normal(0.0, np.sqrt(0.5), B)
    _pos = _pos + DT * _vel
    Z[:, _t] = _pos + rng.normal(0.0, np.sqrt(0.05), B)


@wp.kernel
def filter_track(z: wp.array2d(dtype=float), noise: wp.array(dtype=float), nll: wp.array(dtype=float)):
    b = wp.tid()
    x = wp.vec2(0.0, 0.0)
    P = wp.mat22(1.0, 0.0, 0.0, 1.0)
    F = wp.mat22(1.0, DT, 0.0, 1.0)
    for t in range(T):
        x = F * x
        P = F * P * wp.transpose(F)
        P[1, 1] += noise[0]
        s = P[0, 0] + noise[1]
        innov = z[b, t] - x[0]
        wp.atomic_add(nll, 0, 0.5 * (innov * innov / s + wp.log(s)))
        k = wp.vec2(P[0, 0] / s, P[1, 0] / s)
        x = x + k * innov
        P = (wp.identity(n=2, dtype=float) - wp.outer(k, wp.vec2(1.0, 0.0))) * P


def evaluate(p):
    noise = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    nll = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(filter_track, dim=B, inputs=[wp.array(Z, dtype=float), noise], outputs=[nll])
    tape.backward(nll)
    return float(nll.numpy()[0]), noise.grad.numpy().copy()


FD_EPS = [1.0e-3, 1.0e-4]

if __name__ == "__main__":
    logp = np.log(np.array(PARAMS0))
    for it in range(30):
        p = np.exp(logp)
        l, g = evaluate(p)
        logp -= 0.01 * g * p
        if it % 10 == 0:
            print(f"iter {it} nll {l:.3f} q {p[0]:.4f} r {p[1]:.4f}")
