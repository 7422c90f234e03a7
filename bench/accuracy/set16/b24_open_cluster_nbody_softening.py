"""Dynamical mass of a young open cluster: integrate 40 member stars with a
Plummer-softened direct N-body leapfrog over ~1 Myr and fit the total mass
scale GM and the softening length to the astrometric positions at the
second epoch (units: pc, Myr, GM in pc^3 / Myr^2).

The pair kernel runs over all (i, j) including i == j; the self pair
contributes nothing because its unit vector is set to zero.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_STAR = 40
N_STEPS = 10
DT = 0.1  # Myr
_rng = np.random.default_rng(73)
POS0 = (_rng.standard_normal((N_STAR, 3)) * 0.8).astype(np.float32)
VEL0 = (_rng.standard_normal((N_STAR, 3)) * 0.4).astype(np.float32)
MASS_FRAC = (_rng.uniform(0.5, 1.5, N_STAR) / N_STAR).astype(np.float32)


@wp.kernel
def pair_accel(pos: wp.array(dtype=wp.vec3), mfrac: wp.array(dtype=float), prm: wp.array(dtype=float),
               acc: wp.array(dtype=wp.vec3)):
    i, j = wp.tid()
    r = pos[j] - pos[i]
    dist = wp.length(r)
    rhat = wp.where(dist > 0.0, r / dist, wp.vec3(0.0))  # expect: nonfinite
    eps2 = prm[1] * prm[1]
    mag = prm[0] * mfrac[j] * dist / wp.pow(dist * dist + eps2, 1.5)
    wp.atomic_add(acc, i, rhat * mag)


@wp.kernel
def kick_drift(pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3), acc: wp.array(dtype=wp.vec3),
               pos_out: wp.array(dtype=wp.vec3), vel_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = vel[i] + DT * acc[i]
    vel_out[i] = v
    pos_out[i] = pos[i] + DT * v


@wp.kernel
def astrometry_misfit(pos: wp.array(dtype=wp.vec3), obs: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pos[i] - obs[i]
    wp.atomic_add(loss, 0, 100.0 * wp.dot(d, d) / float(N_STAR))


MFRAC_W = wp.array(MASS_FRAC, dtype=float)


def integrate(prm):
    rg = prm.requires_grad
    pos = wp.array(POS0, dtype=wp.vec3, requires_grad=rg)
    vel = wp.array(VEL0, dtype=wp.vec3, requires_grad=rg)
    for _ in range(N_STEPS):
        acc = wp.zeros(N_STAR, dtype=wp.vec3, requires_grad=rg)
        wp.launch(pair_accel, dim=(N_STAR, N_STAR), inputs=[pos, MFRAC_W, prm], outputs=[acc])
        pos_n = wp.zeros_like(pos)
        vel_n = wp.zeros_like(vel)
        wp.launch(kick_drift, dim=N_STAR, inputs=[pos, vel, acc], outputs=[pos_n, vel_n])
        pos, vel = pos_n, vel_n
    return pos


OBS = wp.array(integrate(wp.array([1.8, 0.25], dtype=float)).numpy()
               + 0.005 * _rng.standard_normal((N_STAR, 3)).astype(np.float32), dtype=wp.vec3)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        pos = integrate(prm)
        wp.launch(astrometry_misfit, dim=N_STAR, inputs=[pos, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([1.5, 0.3])  # GM (pc^3/Myr^2), softening (pc)
FD_EPS = 1e-3

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"astrometric misfit {f:.4f}; d/d(GM, eps) = {g}")
