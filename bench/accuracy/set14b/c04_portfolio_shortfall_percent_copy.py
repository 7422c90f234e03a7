# correct: the percent-conversion launch after recording writes into its own new array, so the scenario returns the tape read stay untouched.
"""Expected shortfall of a five-asset portfolio over historical scenarios.

The portfolio weights come from a softmax of free logits; the objective is a
smooth (softplus) expected shortfall at level alpha over the scenario P&L,
in basis points above the VaR level. The gradient feeds a rebalancing step.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SCEN = 500
N_ASSET = 5
ALPHA = 0.95
VAR_LEVEL = 0.02
_rng = np.random.default_rng(3)
_cov = np.diag([0.02, 0.015, 0.03, 0.01, 0.025]) ** 1 * 0.02
RETURNS = (_rng.multivariate_normal([0.004, 0.003, 0.006, 0.002, 0.005], _cov, N_SCEN)).astype(np.float32)


@wp.kernel
def softmax_weights(z: wp.array(dtype=float), w: wp.array(dtype=float)):
    k = wp.tid()
    m = float(0.0)
    for j in range(N_ASSET):
        m += wp.exp(z[j])
    w[k] = wp.exp(z[k]) / m


@wp.kernel
def scenario_loss(ret: wp.array2d(dtype=float), w: wp.array(dtype=float), es: wp.array(dtype=float)):
    s = wp.tid()
    pnl = float(0.0)
    for k in range(N_ASSET):
        pnl += w[k] * ret[s, k]
    x = (-pnl - VAR_LEVEL) * 200.0
    tail = (wp.max(x, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(x)))) / 200.0
    wp.atomic_add(es, 0, 1.0e4 * tail / ((1.0 - ALPHA) * float(N_SCEN)))


@wp.kernel
def to_percent(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    s, k = wp.tid()
    dst[s, k] = 100.0 * src[s, k]


REPORT = {}


def evaluate(p):
    z = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ret = wp.array(RETURNS, dtype=float)
    w = wp.zeros(N_ASSET, dtype=float, requires_grad=True)
    es = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(softmax_weights, dim=N_ASSET, inputs=[z], outputs=[w])
        wp.launch(scenario_loss, dim=N_SCEN, inputs=[ret, w], outputs=[es])
    # risk report in percent
    pct = wp.empty_like(ret)
    wp.launch(to_percent, dim=(N_SCEN, N_ASSET), inputs=[ret], outputs=[pct])
    REPORT["worst %"] = pct.numpy().min(axis=0)
    tape.backward(es)
    return float(es.numpy()[0]), z.grad.numpy().copy()


PARAMS0 = np.array([0.3, -0.2, 0.5, 0.1, -0.4])
FD_EPS = 1e-2

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"ES {l:.5f}; d ES / d logits = {g}; report {REPORT}")
    print("rebalanced logits", PARAMS0 - 0.05 * g)
