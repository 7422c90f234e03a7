"""A wrong adjoint that only shows away from zero: the program starts at w = 0, where it agrees."""

import warp as wp


@wp.func
def cubic(w: float):
    return w * w * w + w


@wp.func_grad(cubic)
def adj_cubic(w: float, adj_ret: float):
    wp.adjoint[w] += adj_ret * (2.0 * w * w + 1.0)  # wrong: 3 w^2 + 1


@wp.kernel
def model(w: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, cubic(w[i]))


w = wp.zeros(4, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(model, dim=4, inputs=[w], outputs=[loss])
tape.backward(loss)
print("grad", w.grad.numpy())
