"""A Warp kernel inside a torch.autograd.Function, called twice with one grad_outputs tensor (a
Jacobian-vector product taken twice): the tensor is the output's gradient array, and the backward
clears an output's gradient once its adjoint has read it, so the second call gets zeros."""
# tapewatch-test: warp>=1.19  (Warp 1.14 keeps an output's gradient after its adjoint reads it)

import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)


@wp.kernel
def lift(alpha: wp.array(dtype=float), q: float, cl: wp.array(dtype=float)):
    i = wp.tid()
    a = alpha[i]
    cl[i] = q * (6.28 * a - 2.5 * a * a * a)


class Lift:
    """Lift coefficients of a wing's sections, differentiable from PyTorch."""

    class _Fn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, alpha, q):
            ctx.tape = wp.Tape()
            ctx.alpha = wp.from_torch(alpha.detach(), requires_grad=True)
            ctx.cl = wp.zeros(alpha.shape[0], dtype=float, requires_grad=True)
            with ctx.tape:
                wp.launch(lift, dim=alpha.shape[0], inputs=[ctx.alpha, q], outputs=[ctx.cl])
            return wp.to_torch(ctx.cl)

        @staticmethod
        def backward(ctx, adj_cl):
            ctx.cl.grad = wp.from_torch(adj_cl)  # expect: TW210
            ctx.tape.backward()
            return wp.to_torch(ctx.alpha.grad).clone(), None

    def __init__(self, q):
        self.q = q

    def jvp_twice(self, alpha, direction):
        out = []
        for _ in range(2):
            cl = self._Fn.apply(alpha, self.q)
            (g,) = torch.autograd.grad(cl, alpha, grad_outputs=direction)
            out.append(g.numpy())
        return out


alpha = torch.tensor([0.05, 0.1, 0.15, 0.2], requires_grad=True)
direction = torch.tensor([1.0, -1.0, 0.5, 2.0])
print(Lift(0.8).jvp_twice(alpha, direction))
