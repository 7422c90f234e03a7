# correct: the taped screening kernel calls wp.atomic_add only to count liquid stocks and ignores its return value; weights are stored at the stock's own index.
"""Inverse-volatility portfolio over the liquid part of a 60-stock universe.

Raw weight of a liquid stock: vol^-eta (1 + lam * momentum); the weights are
normalised and the portfolio variance under a one-factor model is the risk
objective whose sensitivity to (eta, lam) is reported.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 60
MIN_ADV = 5.0e6
_rng = np.random.default_rng(8)
VOL = _rng.uniform(0.15, 0.55, N).astype(np.float32)
BETA = _rng.uniform(0.6, 1.5, N).astype(np.float32)
MOM = _rng.normal(0.0, 0.2, N).astype(np.float32)
ADV = np.exp(_rng.normal(15.5, 1.0, N)).astype(np.float32)
MKT_VOL = 0.18


@wp.kernel
def screen_and_weight(vol: wp.array(dtype=float), mom: wp.array(dtype=float), adv: wp.array(dtype=float),
                      prm: wp.array(dtype=float), count: wp.array(dtype=int), member: wp.array(dtype=int),
                      raw: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    if adv[i] > MIN_ADV:
        wp.atomic_add(count, 0, 1)
        member[i] = i
        w = wp.exp(-prm[0] * wp.log(vol[i])) * (1.0 + prm[1] * mom[i])
        raw[i] = w
        wp.atomic_add(total, 0, w)


@wp.kernel
def factor_risk(raw: wp.array(dtype=float), total: wp.array(dtype=float), member: wp.array(dtype=int),
                vol: wp.array(dtype=float), beta: wp.array(dtype=float),
                expo: wp.array(dtype=float), idio: wp.array(dtype=float)):
    k = wp.tid()
    if member[k] >= 0:
        i = member[k]
        w = raw[k] / total[0]
        s2 = vol[i] * vol[i] - beta[i] * beta[i] * MKT_VOL * MKT_VOL
        wp.atomic_add(expo, 0, w * beta[i])
        wp.atomic_add(idio, 0, w * w * wp.max(s2, 0.01))


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    vol, beta = wp.array(VOL, dtype=float), wp.array(BETA, dtype=float)
    count = wp.zeros(1, dtype=int)
    member = wp.full(N, -1, dtype=int)
    raw = wp.zeros(N, dtype=float, requires_grad=True)
    total = wp.zeros(1, dtype=float, requires_grad=True)
    expo = wp.zeros(1, dtype=float, requires_grad=True)
    idio = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(screen_and_weight, dim=N, inputs=[vol, wp.array(MOM, dtype=float), wp.array(ADV, dtype=float), prm],
                  outputs=[count, member, raw, total])
        wp.launch(factor_risk, dim=N, inputs=[raw, total, member, vol, beta], outputs=[expo, idio])
    e, d = float(expo.numpy()[0]), float(idio.numpy()[0])
    variance = e * e * MKT_VOL**2 + d
    tape.backward(grads={expo: wp.array([2.0 * e * MKT_VOL**2], dtype=float), idio: wp.ones(1, dtype=float)})
    return 1.0e4 * variance, 1.0e4 * prm.grad.numpy()


PARAMS0 = np.array([1.0, 0.5])

if __name__ == "__main__":
    v, g = evaluate(PARAMS0)
    print(f"portfolio variance {v:.3f} (bp^2 units); d/d(eta, lam) = {g}")
