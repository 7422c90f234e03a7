"""Gradient truncation with one tape reused for every window (reset in between).

A rollout of a damped chain is differentiated window by window to bound
memory: the same tape records a window, backward() runs, the tape is reset,
and the next window starts from the last state. Each window's gradient stops
where its state came in; their sum is the gradient of another objective.
"""

import numpy as np
import warp as wp

N = 8
WINDOWS = 3
STEPS = 4


@wp.kernel
def relax_chain(x: wp.array(dtype=float), stiffness: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] - 0.1 * stiffness[0] * wp.sin(x[i])


@wp.kernel
def window_cost(x: wp.array(dtype=float), cost: wp.array(dtype=float)):
    wp.atomic_add(cost, 0, x[wp.tid()] * x[wp.tid()])


stiffness = wp.array([1.5], dtype=float, requires_grad=True)
start = wp.array(np.linspace(0.3, 1.2, N, dtype=np.float32), requires_grad=True)
recorder = wp.Tape()
summed = np.zeros(1)
for w in range(WINDOWS):
    chain = [start] + [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    with recorder:
        for s in range(STEPS):
            wp.launch(relax_chain, dim=N, inputs=[chain[s], stiffness], outputs=[chain[s + 1]])
        wp.launch(window_cost, dim=N, inputs=[chain[-1]], outputs=[cost])
    recorder.backward(cost)  # expect: TW207
    summed = summed + stiffness.grad.numpy()  # reset() zeroes the gradients
    recorder.reset()
    start = chain[-1]  # the next window starts from this one's end, outside any tape
print("summed gradient", summed)
