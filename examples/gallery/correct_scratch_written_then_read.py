"""A @wp.func that stores its input in a scratch array and then reads it back (``scratch[tid] = x``, then
``scratch[tid] * scratch[tid]``), as Warp's deterministic-backward tests do: the write comes before the
read in every thread, which Warp's adjoint replays correctly (d/dx of x^2 at 3 is 6)."""

import warp as wp

wp.config.quiet = True


@wp.func
def square_via_scratch(scratch: wp.array(dtype=wp.float32), x: wp.float32, tid: int):
    scratch[tid] = x
    return scratch[tid] * scratch[tid]


@wp.kernel
def squares(x: wp.array(dtype=wp.float32), scratch: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    tid = wp.tid()
    loss[tid] = square_via_scratch(scratch, x[tid], tid)


x = wp.array([3.0, -1.5], dtype=wp.float32, requires_grad=True)
scratch = wp.zeros_like(x)
loss = wp.zeros(2, dtype=wp.float32, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(squares, dim=2, inputs=[x, scratch], outputs=[loss])
tape.backward(grads={loss: wp.ones(2, dtype=wp.float32)})
print("d loss / d x", x.grad.numpy())
