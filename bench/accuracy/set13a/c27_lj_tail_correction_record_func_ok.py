# correct: the host-evaluated tail correction enters the tape through Tape.record_func, with the exact derivative d/dsigma = c eps (4 sigma^11 / rc^9 - 6 sigma^5 / rc^3).
"""Energy per particle of a truncated LJ fluid (64 atoms, rho* = 0.8, rc = 2.0 sigma)
with the analytic long-range tail correction
    U_tail/N = (8/3) pi rho eps sigma^3 [ (1/3)(sigma/rc)^9 - (sigma/rc)^3 ],
which is evaluated on the host and attached to the tape with Tape.record_func.
Gradient with respect to (epsilon, sigma) for a fit to a target energy.
"""
import numpy as np
import warp as wp

from _lj import lj_energy, min_image

N_SIDE = 4
N = N_SIDE ** 3
RHO = 0.8
BOX = float((N / RHO) ** (1.0 / 3.0))
RC = 2.0
U_TARGET = -5.2


@wp.kernel
def truncated_energy(x: wp.array(dtype=wp.vec3), ff: wp.array(dtype=float), box: float, rc: float,
                     u: wp.array(dtype=float)):
    i, j = wp.tid()
    if j > i:
        d = min_image(x[i] - x[j], box)
        r2 = wp.dot(d, d)
        if r2 < rc * rc:
            wp.atomic_add(u, 0, lj_energy(r2, ff[0], ff[1]) / float(x.shape[0]))


@wp.kernel
def add_tail_and_loss(u: wp.array(dtype=float), tail: wp.array(dtype=float), target: float,
                      u_tot: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t = u[0] + tail[0]
    u_tot[0] = t
    loss[0] = (t - target) * (t - target)


def tail_energy(eps, sigma):
    sr3 = (sigma / RC) ** 3
    return 8.0 / 3.0 * np.pi * RHO * eps * sigma ** 3 * (sr3 ** 3 / 3.0 - sr3)


def tail_gradient(eps, sigma):
    """d(U_tail/N)/d(eps), d(U_tail/N)/d(sigma)."""
    sr3 = (sigma / RC) ** 3
    c = 8.0 / 3.0 * np.pi * RHO
    d_eps = c * sigma ** 3 * (sr3 ** 3 / 3.0 - sr3)
    # sigma^3 [ sigma^9 / (3 rc^9) - sigma^3 / rc^3 ]  ->  4 sigma^11 / rc^9 - 6 sigma^5 / rc^3
    d_sigma = c * eps * (4.0 * sigma ** 11 / RC ** 9 - 6.0 * sigma ** 5 / RC ** 3)
    return d_eps, d_sigma


rng = np.random.default_rng(61)
_g = (np.arange(N_SIDE) + 0.5) * BOX / N_SIDE
X = np.array(np.meshgrid(_g, _g, _g, indexing="ij")).reshape(3, -1).T
X = (X + 0.1 * rng.standard_normal(X.shape)).astype(np.float32)
PARAMS0 = np.array([1.0, 1.0])
FD_EPS = [1e-3, 2e-4]


def evaluate(p):
    ff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X, dtype=wp.vec3)
    u = wp.zeros(1, dtype=float, requires_grad=True)
    tail = wp.zeros(1, dtype=float, requires_grad=True)
    u_tot = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    def tail_backward():
        eps, sigma = ff.numpy()
        d_eps, d_sigma = tail_gradient(float(eps), float(sigma))
        g = tail.grad.numpy()[0]
        ff.grad.assign(ff.grad.numpy() + np.array([g * d_eps, g * d_sigma], dtype=np.float32))

    tape = wp.Tape()
    with tape:
        wp.launch(truncated_energy, dim=(N, N), inputs=[x, ff, BOX, RC], outputs=[u])
        tail.assign([tail_energy(*[float(v) for v in ff.numpy()])])
        tape.record_func(backward=tail_backward, arrays=[ff, tail])
        wp.launch(add_tail_and_loss, dim=1, inputs=[u, tail, U_TARGET], outputs=[u_tot, loss])
    tape.backward(loss)
    evaluate.u_tot = float(u_tot.numpy()[0])
    return float(loss.numpy()[0]), ff.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"U/N = {evaluate.u_tot:.4f} (tail {tail_energy(*PARAMS0):.4f}); loss {L:.5f}; d/d(eps, sigma) = {g}")
