# correct: the struct-held weights buffer is created with zeros_like(logits), which inherits requires_grad=True, so the struct path carries gradient
"""Equal-risk-contribution portfolio with softmax-parameterized weights."""
import numpy as np
import warp as wp

NA = wp.constant(4)


@wp.struct
class Portfolio:
    weights: wp.array(dtype=wp.float32)
    cov: wp.array2d(dtype=wp.float32)


@wp.kernel
def softmax_weights(logits: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    s = wp.float32(0.0)
    for j in range(NA):
        s += wp.exp(logits[j])
    out[i] = wp.exp(logits[i]) / s


@wp.kernel
def risk_budget_loss(pf: Portfolio, budget: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    marginal = wp.float32(0.0)
    for j in range(NA):
        marginal += pf.cov[i, j] * pf.weights[j]
    rc = pf.weights[i] * marginal
    d = rc - budget[i]
    wp.atomic_add(loss, 0, 100.0 * d * d)


def covariance():
    a = np.array([[0.2, 0.05, 0.0, 0.01], [0.05, 0.1, 0.02, 0.0], [0.0, 0.02, 0.3, 0.04], [0.01, 0.0, 0.04, 0.15]])
    return wp.array(a.astype(np.float32), dtype=wp.float32)


def make_portfolio(cov, like):
    pf = Portfolio()
    pf.cov = cov
    pf.weights = wp.zeros_like(like)
    return pf


def budget_loss(logits, pf, budget):
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(softmax_weights, dim=NA, inputs=[logits], outputs=[pf.weights])
    wp.launch(risk_budget_loss, dim=NA, inputs=[pf, budget], outputs=[loss])
    return loss


def rebalance(iters=80, lr=0.5):
    budget = wp.array(np.full(NA, 0.03, dtype=np.float32), dtype=wp.float32)
    logits = wp.array(np.array([0.5, 0.0, -0.3, 0.2], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    pf = make_portfolio(covariance(), logits)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = budget_loss(logits, pf, budget)
        tape.backward(loss)
        g = logits.grad.numpy().copy()
        history.append((logits.numpy().copy(), g))
        logits.assign(logits.numpy() - lr * g)
        tape.zero()
    print("weights", pf.weights.numpy(), "loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    rebalance()
