# correct: the quadrature-weight array on the tape has no requires_grad, but it is constant data computed on the host, not an intermediate of the gradient path.
"""Physics-informed fit of -u'' + u^3 = f on [0, 1] with u(0) = u(1) = 0: the
trial function x (1 - x) (a0 + a1 x + a2 x^2 + a3 x^3) satisfies the walls;
the residual is integrated with Simpson weights."""
import numpy as np
import warp as wp

wp.config.quiet = True

NQ = 41
PARAMS0 = [1.0, 0.0, 0.0, 0.0]


@wp.kernel
def residual(x: wp.array(dtype=float), a: wp.array(dtype=float), r: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i]
    p = a[0] + a[1] * s + a[2] * s * s + a[3] * s * s * s
    dp = a[1] + 2.0 * a[2] * s + 3.0 * a[3] * s * s
    ddp = 2.0 * a[2] + 6.0 * a[3] * s
    b = s * (1.0 - s)
    db = 1.0 - 2.0 * s
    u = b * p
    ddu = -2.0 * p + 2.0 * db * dp + b * ddp
    f = 10.0 * wp.sin(3.0 * s) + 2.0
    r[i] = -ddu + u * u * u - f


@wp.kernel
def weighted_l2(r: wp.array(dtype=float), wq: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wq[i] * r[i] * r[i])


def simpson_weights(n):
    h = 1.0 / (n - 1)
    w = np.ones(n)
    w[1:-1:2] = 4.0
    w[2:-1:2] = 2.0
    return (w * h / 3.0).astype(np.float32)


class PINN:
    def __init__(self):
        self.x = wp.array(np.linspace(0.0, 1.0, NQ).astype(np.float32), dtype=float)
        self.wq = wp.array(simpson_weights(NQ), dtype=float)
        self.r = wp.zeros(NQ, dtype=float, requires_grad=True)

    def loss(self, a):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(residual, dim=NQ, inputs=[self.x, a], outputs=[self.r])
        wp.launch(weighted_l2, dim=NQ, inputs=[self.r, self.wq], outputs=[loss])
        return loss


def evaluate(p):
    net = PINN()
    a = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        loss = net.loss(a)
    tape.backward(loss)
    return float(loss.numpy()[0]), a.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(300):
        l, g = evaluate(p)
        p -= 0.003 * g
        if it % 100 == 0:
            print(f"iter {it} residual energy {l:.4f}")
    print("coefficients", np.round(p, 3))
