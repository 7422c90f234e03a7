"""Nelson-Siegel zero curve fitted to government zero-coupon bond prices.

y(T) = b0 + b1 (1 - e^{-T/tau}) / (T/tau) + b2 [(1 - e^{-T/tau}) / (T/tau) - e^{-T/tau}],
P(T) = exp(-y(T) T). The desk's objective is the mean squared *relative*
pricing error, computed on the host from the Warp prices; the price seed for
the backward pass is passed to tape.backward(grads=...).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

MATURITY = np.array([0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0])
P_MKT = np.exp(-np.array([0.041, 0.0405, 0.039, 0.037, 0.0362, 0.0358, 0.0361, 0.037, 0.0385, 0.0395, 0.0402]) * MATURITY)


@wp.kernel
def ns_price(beta: wp.array(dtype=float), mat: wp.array(dtype=float), price: wp.array(dtype=float)):
    i = wp.tid()
    tau = wp.exp(beta[3])
    x = mat[i] / tau
    load1 = (1.0 - wp.exp(-x)) / x
    load2 = load1 - wp.exp(-x)
    y = 0.01 * (beta[0] + beta[1] * load1 + beta[2] * load2)
    price[i] = wp.exp(-y * mat[i])


def evaluate(p):
    beta = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    mat = wp.array(MATURITY, dtype=float)
    price = wp.zeros(len(MATURITY), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(ns_price, dim=len(MATURITY), inputs=[beta, mat], outputs=[price])
    price_np = price.numpy().astype(np.float64)
    loss = np.mean(((price_np - P_MKT) / P_MKT) ** 2) * 1.0e4  # (relative error in %)^2
    seed = 2.0 * (price_np - P_MKT) / len(P_MKT)  # expect: seeding
    tape.backward(grads={price: wp.array((1.0e4 * seed).astype(np.float32), dtype=float)})
    return loss, beta.grad.numpy().copy()


PARAMS0 = [4.2, -0.3, -1.5, np.log(2.5)]
FD_EPS = 1e-3

if __name__ == "__main__":
    b = np.array(PARAMS0)
    for it in range(300):
        l, g = evaluate(b)
        b -= 0.5 * g / (1.0 + np.linalg.norm(g))
    print(f"relative pricing error^2 {l:.5f}  beta0..2 = {np.round(b[:3], 3)} %  tau = {np.exp(b[3]):.2f} y")
