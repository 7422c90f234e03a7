"""Constant-velocity Kalman filter for a batch of 1-D tracks (one launch per
time step; the filter state and covariance are kept per step)."""
import numpy as np
import warp as wp

DT = 0.1


@wp.func
def predict_cov(P: wp.mat22, q: float):
    F = wp.mat22(1.0, DT, 0.0, 1.0)
    P = F * P * wp.transpose(F)
    P[1, 1] = P[1, 1] + q  # expect: component_reassign
    return P


@wp.kernel
def kalman_step(x: wp.array(dtype=wp.vec2), P: wp.array(dtype=wp.mat22), z: wp.array(dtype=float),
                noise: wp.array(dtype=float), x_out: wp.array(dtype=wp.vec2), P_out: wp.array(dtype=wp.mat22),
                nll: wp.array(dtype=float)):
    b = wp.tid()
    xp = wp.vec2(x[b][0] + DT * x[b][1], x[b][1])
    Pp = predict_cov(P[b], noise[0])
    s = Pp[0, 0] + noise[1]
    innov = z[b] - xp[0]
    # Gaussian negative log-likelihood of the innovation
    wp.atomic_add(nll, 0, 0.5 * (innov * innov / s + wp.log(s)))
    k = wp.vec2(Pp[0, 0] / s, Pp[1, 0] / s)
    x_out[b] = xp + k * innov
    KH = wp.mat22(k[0], 0.0, k[1], 0.0)
    P_out[b] = (wp.identity(n=2, dtype=float) - KH) * Pp


def simulate_tracks(batch, steps, q_true, r_true, seed=1):
    rng = np.random.default_rng(seed)
    pos = np.zeros(batch)
    vel = rng.normal(0.0, 1.0, batch)
    zs = []
    for _ in range(steps):
        vel = vel + rng.normal(0.0, np.sqrt(q_true), batch)
        pos = pos + DT * vel
        zs.append((pos + rng.normal(0.0, np.sqrt(r_true), batch)).astype(np.float32))
    return zs


class Filter:
    def __init__(self, zs):
        self.zs = [wp.array(z, dtype=float) for z in zs]
        self.batch = zs[0].shape[0]

    def nll(self, noise):
        rg = noise.requires_grad
        x = wp.zeros(self.batch, dtype=wp.vec2, requires_grad=rg)
        P = wp.array([np.eye(2, dtype=np.float32)] * self.batch, dtype=wp.mat22, requires_grad=rg)
        nll = wp.zeros(1, dtype=float, requires_grad=rg)
        for z in self.zs:
            x2 = wp.zeros_like(x)
            P2 = wp.zeros_like(P)
            wp.launch(kalman_step, dim=self.batch, inputs=[x, P, z, noise], outputs=[x2, P2, nll])
            x, P = x2, P2
        return nll
