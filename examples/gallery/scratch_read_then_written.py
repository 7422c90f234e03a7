"""A @wp.func that reads a scratch value and then overwrites it with its own result (a running product kept
in place): the kernel's backward replays the read against the overwritten value.  Keep the result in a
second array."""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.func
def scale_in_place(acc: wp.array(dtype=wp.float32), x: wp.float32, tid: int):
    old = acc[tid]
    acc[tid] = old * x  # expect: TW104
    return old * x


@wp.kernel
def running(x: wp.array(dtype=wp.float32), acc: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    loss[tid] = scale_in_place(acc, x[tid], tid)  # expect: TW104


x = wp.array([3.0, -1.5], dtype=wp.float32, requires_grad=True)
acc = wp.array(np.array([2.0, 0.5], dtype=np.float32), requires_grad=True)
loss = wp.zeros(2, dtype=wp.float32, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(running, dim=2, inputs=[x, acc], outputs=[loss])
tape.backward(grads={loss: wp.ones(2, dtype=wp.float32)})
print("d loss / d acc", acc.grad.numpy())
