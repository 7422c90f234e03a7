# correct: SGD-with-momentum loop, new tape per iteration, gradients cleared with tape.zero() after each update
import numpy as np
import warp as wp

ITERS = 5
LR = 0.05
BETA = 0.8


@wp.kernel
def michaelis_menten(s: wp.array(dtype=float), theta: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    vmax = theta[0]
    km = theta[1]
    v[i] = vmax * s[i] / (km + s[i])


@wp.kernel
def sq_err(v: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = v[i] - obs[i]
    wp.atomic_add(loss, 0, 0.5 * d * d)


@wp.kernel
def momentum_step(p: wp.array(dtype=float), g: wp.array(dtype=float), buf: wp.array(dtype=float), lr: float, beta: float):
    i = wp.tid()
    m = beta * buf[i] + g[i]
    buf[i] = m
    p[i] = p[i] - lr * m


conc = np.array([0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0], dtype=np.float32)
rates = (2.2 * conc / (0.9 + conc)).astype(np.float32)

s = wp.array(conc, dtype=float)
obs = wp.array(rates, dtype=float)
theta = wp.array([1.0, 0.5], dtype=float, requires_grad=True)
velocity = wp.zeros(2, dtype=float)
v = wp.zeros(len(conc), dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

trace = []
for it in range(ITERS):
    loss.zero_()
    tape = wp.Tape()
    with tape:
        wp.launch(michaelis_menten, dim=len(conc), inputs=[s, theta], outputs=[v])
        wp.launch(sq_err, dim=len(conc), inputs=[v, obs], outputs=[loss])
    tape.backward(loss)
    trace.append((theta.numpy().copy(), float(loss.numpy()[0]), theta.grad.numpy().copy()))
    print(f"it {it} loss {trace[-1][1]:.5f} grad {trace[-1][2]}")
    wp.launch(momentum_step, dim=2, inputs=[theta, theta.grad, velocity, LR, BETA])
    tape.zero()
