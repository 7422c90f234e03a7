# tapewatch-test: warp>=1.19
# tapewatch-test: --check-launches
"""Huber regression trained with a captured forward-and-backward graph and a captured update graph (zeroing
the gradient after the step): the hand-written adjoint's outer branch forgets the output's adjoint
(``adj_ret``), so the gradient is wrong wherever the residual is large.  Inside the capture nothing can
be measured; the check runs on the graph's first replay and names the branch."""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 200
DELTA = 1.0


@wp.func
def huber(r: float, delta: float):
    a = wp.abs(r)
    if a <= delta:
        return 0.5 * r * r
    return delta * (a - 0.5 * delta)


@wp.func_grad(huber)
def adj_huber(r: float, delta: float, adj_ret: float):
    if wp.abs(r) <= delta:
        wp.adjoint[r] += adj_ret * r
    else:
        wp.adjoint[r] += delta * wp.sign(r)  # expect: TW404


@wp.kernel
def fit_loss(x: wp.array(dtype=float), y: wp.array(dtype=float), coef: wp.array(dtype=float),
             loss: wp.array(dtype=float)):
    i = wp.tid()
    pred = coef[0] + coef[1] * x[i] + coef[2] * x[i] * x[i]
    wp.atomic_add(loss, 0, huber(pred - y[i], DELTA) / float(N))


@wp.kernel
def descend(coef: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    coef[i] = coef[i] - lr * grad[i]


rng = np.random.default_rng(11)
x = np.linspace(-1.0, 1.0, N).astype(np.float32)
y = (0.5 - 1.0 * x + 2.0 * x * x + 0.1 * rng.standard_normal(N)).astype(np.float32)
y[rng.choice(N, 6, replace=False)] += 8.0  # a few gross outliers
coef = wp.array([0.4, -0.8, 1.8], dtype=float, requires_grad=True)
xs, ys = wp.array(x), wp.array(y)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
wp.load_module()
with wp.ScopedCapture() as capture:
    loss.zero_()
    with tape:
        wp.launch(fit_loss, dim=N, inputs=[xs, ys, coef], outputs=[loss])
    tape.backward(loss)
train = capture.graph
with wp.ScopedCapture() as capture:
    wp.launch(descend, dim=3, inputs=[coef, coef.grad, 0.5])
    tape.zero()
update = capture.graph
for it in range(3):
    wp.capture_launch(train)
    print("loss", loss.numpy()[0], "coef", coef.numpy())
    wp.capture_launch(update)
