# correct: batch of pendulum episodes; the start states are re-drawn with .assign, but only after backward and the optimizer step
import numpy as np
import warp as wp
from warp.optim import SGD

HORIZON = 20
DT = 0.05
ITERS = 3


@wp.kernel
def pend_step(
    th: wp.array(dtype=float),
    om: wp.array(dtype=float),
    th_start: wp.array(dtype=float),
    k: wp.array(dtype=float),
    dt: float,
    th_out: wp.array(dtype=float),
    om_out: wp.array(dtype=float),
):
    i = wp.tid()
    torque = -k[0] * wp.sin(th[i]) - k[1] * om[i] + 0.1 * wp.sin(th_start[i])
    w = om[i] + dt * (-9.81 * wp.sin(th[i]) + torque)
    om_out[i] = w
    th_out[i] = th[i] + dt * w


@wp.kernel
def upright_cost(th: wp.array(dtype=float), om: wp.array(dtype=float), cost: wp.array(dtype=float)):
    i = wp.tid()
    c = 1.0 - wp.cos(th[i]) + 0.05 * om[i] * om[i]
    wp.atomic_add(cost, 0, c / float(th.shape[0]))


n = 6
rng = np.random.default_rng(21)
k = wp.array([2.0, 0.5], dtype=float, requires_grad=True)
opt = SGD([k], lr=0.1)

th0 = wp.array(rng.uniform(-0.8, 0.8, n).astype(np.float32), dtype=float, requires_grad=True)
ths = [th0] + [wp.zeros(n, dtype=float, requires_grad=True) for _ in range(HORIZON)]
oms = [wp.zeros(n, dtype=float, requires_grad=True) for _ in range(HORIZON + 1)]
cost = wp.zeros(1, dtype=float, requires_grad=True)

history = []
for it in range(ITERS):
    record = {"th0": th0.numpy().copy(), "k": k.numpy().copy()}
    cost.zero_()
    tape = wp.Tape()
    with tape:
        for t in range(HORIZON):
            wp.launch(pend_step, dim=n, inputs=[ths[t], oms[t], th0, k, DT], outputs=[ths[t + 1], oms[t + 1]])
        wp.launch(upright_cost, dim=n, inputs=[ths[HORIZON], oms[HORIZON]], outputs=[cost])
    tape.backward(cost)
    record["cost"] = float(cost.numpy()[0])
    record["grad"] = k.grad.numpy().copy()
    history.append(record)
    print(f"iter {it}: cost={record['cost']:.5f} grad={record['grad']}")
    opt.step([k.grad])
    tape.zero()
    # next batch of start angles
    th0.assign(rng.uniform(-0.8, 0.8, n).astype(np.float32))
