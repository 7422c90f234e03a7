"""Maximum-likelihood estimation of the process and measurement noise
variances of a constant-velocity Kalman filter from 16 simulated tracks
(gradient of the innovation negative log-likelihood)."""
import numpy as np
import warp as wp

from _tracking import Filter, simulate_tracks

wp.config.quiet = True

BATCH = 16
STEPS = 25
PARAMS0 = [0.5, 0.05]   # q (velocity process noise), r (measurement noise)
ZS = simulate_tracks(BATCH, STEPS, q_true=0.2, r_true=0.02)
FILTER = Filter(ZS)


def evaluate(p):
    noise = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        nll = FILTER.nll(noise)
    tape.backward(nll)
    return float(nll.numpy()[0]), noise.grad.numpy().copy()


FD_EPS = [1.0e-3, 1.0e-4]

if __name__ == "__main__":
    logp = np.log(np.array(PARAMS0))
    for it in range(20):
        p = np.exp(logp)
        l, g = evaluate(p)
        logp -= 0.002 * g * p
        if it % 5 == 0:
            print(f"iter {it} nll {l:.3f} q {p[0]:.4f} r {p[1]:.4f}")
