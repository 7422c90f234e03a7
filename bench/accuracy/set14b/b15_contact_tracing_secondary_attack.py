"""Household contact tracing: secondary attack model fitted to test outcomes.

Each contact has an exposure-hours score; contacts above the tracing
threshold are listed and tested. The infection probability of a traced
contact is 1 - exp(-beta * h * s_age); (beta, s_child) are fitted by the
Bernoulli likelihood of the test results.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 300
THRESH = 2.0
_rng = np.random.default_rng(21)
HOURS = _rng.gamma(2.0, 2.0, N).astype(np.float32)
CHILD = (_rng.random(N) < 0.35).astype(np.int32)
_p = 1.0 - np.exp(-0.05 * HOURS * np.where(CHILD == 1, 0.6, 1.0))
POSITIVE = (_rng.random(N) < _p).astype(np.float32)


@wp.kernel
def trace_contacts(hours: wp.array(dtype=float), child: wp.array(dtype=int), prm: wp.array(dtype=float),
                   count: wp.array(dtype=int), who: wp.array(dtype=int), p_inf: wp.array(dtype=float)):
    i = wp.tid()
    if hours[i] > THRESH:
        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
        sus = wp.where(child[i] == 1, prm[1], 1.0)
        who[slot] = i
        p_inf[slot] = 1.0 - wp.exp(-prm[0] * hours[i] * sus)


@wp.kernel
def bernoulli_nll(p_inf: wp.array(dtype=float), who: wp.array(dtype=int), pos: wp.array(dtype=float),
                  nll: wp.array(dtype=float)):
    k = wp.tid()
    if who[k] >= 0:
        p = p_inf[k]
        y = pos[who[k]]
        wp.atomic_add(nll, 0, -(y * wp.log(p) + (1.0 - y) * wp.log(1.0 - p)))


STATS = {}


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    count = wp.zeros(1, dtype=int)
    who = wp.full(N, -1, dtype=int)
    p_inf = wp.zeros(N, dtype=float, requires_grad=True)
    nll = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(trace_contacts, dim=N, inputs=[wp.array(HOURS, dtype=float), wp.array(CHILD, dtype=int), prm],
                  outputs=[count, who, p_inf])
        wp.launch(bernoulli_nll, dim=N, inputs=[p_inf, who, wp.array(POSITIVE, dtype=float)], outputs=[nll])
    tape.backward(nll)
    STATS["traced"] = int(count.numpy()[0])
    return float(nll.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([0.04, 0.8])
FD_EPS = np.array([1e-4, 1e-3])

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"{STATS['traced']} traced, NLL {l:.3f}; d/d(beta, s_child) = {g}")
