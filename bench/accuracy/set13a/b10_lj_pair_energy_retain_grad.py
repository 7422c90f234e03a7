"""Binding energy of an 8-atom LJ cluster fitted to a target value: gradient of
(E_bind - E_target)^2 with respect to (epsilon, sigma). The per-pair energies keep
their gradient (retain_grad=True) so that the script can show which pairs drive
the fit.
"""
import numpy as np
import warp as wp

from _lj import cube_cluster

E_TARGET = -14.0


@wp.kernel
def pair_energy(x: wp.array(dtype=wp.vec3), pairs: wp.array(dtype=wp.vec2i), ff: wp.array(dtype=float),
                e_pair: wp.array(dtype=float)):
    k = wp.tid()
    p = pairs[k]
    d = x[p[0]] - x[p[1]]
    s2 = ff[1] * ff[1] / wp.dot(d, d)
    s6 = s2 * s2 * s2
    e_pair[k] = 4.0 * ff[0] * (s6 * s6 - s6)


@wp.kernel
def binding_loss(e_pair: wp.array(dtype=float), e_target: float, e_tot: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    # single thread: total energy, then the squared deviation
    e = float(0.0)
    for k in range(e_pair.shape[0]):
        e += e_pair[k]
    e_tot[0] = e
    loss[0] = (e_tot[0] - e_target) * (e_tot[0] - e_target)


class PairModel:
    def __init__(self, x0, ff):
        n = x0.shape[0]
        self.x = wp.array(x0, dtype=wp.vec3)
        self.pairs = wp.array([(i, j) for i in range(n) for j in range(i + 1, n)], dtype=wp.vec2i)
        self.ff = ff
        self.e_pair = wp.zeros(self.pairs.shape[0], dtype=float, requires_grad=True, retain_grad=True)
        self.e_tot = wp.zeros(1, dtype=float, requires_grad=True)

    def pair_energies(self):
        wp.launch(pair_energy, dim=self.pairs.shape[0], inputs=[self.x, self.pairs, self.ff], outputs=[self.e_pair])
        return self.e_pair

    def loss(self):
        out = wp.zeros(1, dtype=float, requires_grad=True)
        self.pair_energies()
        wp.launch(binding_loss, dim=1, inputs=[self.e_pair, E_TARGET], outputs=[self.e_tot, out])
        return out


X0 = cube_cluster(2, 1.1, 0.04, seed=12)
PARAMS0 = np.array([1.0, 1.0])
FD_EPS = [1e-3, 2e-4]


def evaluate(p, show=False):
    ff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    model = PairModel(X0, ff)
    tape = wp.Tape()
    with tape:
        e_log = model.pair_energies()  # expect: retain_grad
        loss = model.loss()
    tape.backward(loss)
    if show:
        k = int(np.argmax(np.abs(model.e_pair.grad.numpy())))
        print(f"E_bind = {model.e_tot.numpy()[0]:.4f}; most influential pair {k}: "
              f"e = {model.e_pair.numpy()[k]:.4f}, dL/de = {model.e_pair.grad.numpy()[k]:.4f}")
    return float(loss.numpy()[0]), ff.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0, show=True)
    print(f"loss {L:.5f}; dL/d(eps, sigma) = {g}")
