"""A spring-energy layer for PyTorch on a Warp tape, differentiated twice through one retained graph
(what torch.autograd.gradcheck's reentrancy check does): the second backward of the same tape adds to
the gradient the first left, so it returns twice the gradient, and the first result, returned as a
view of Warp's array, doubles with it (NVIDIA/warp#1732)."""

import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)


@wp.kernel
def spring_energy(x: wp.array(dtype=float), k: float, e: wp.array(dtype=float)):
    i = wp.tid()
    e[i] = 0.5 * k * x[i] * x[i] * (1.0 + 0.1 * x[i] * x[i])


class SpringEnergy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.tape = wp.Tape()
        ctx.x = wp.from_torch(x.detach(), requires_grad=True)
        ctx.e = wp.zeros(x.shape[0], dtype=float, requires_grad=True)
        with ctx.tape:
            wp.launch(spring_energy, dim=x.shape[0], inputs=[ctx.x, k], outputs=[ctx.e])
        return wp.to_torch(ctx.e)

    @staticmethod
    def backward(ctx, adj_e):
        ctx.tape.backward(grads={ctx.e: wp.from_torch(adj_e.contiguous())})  # expect: TW202
        return wp.to_torch(ctx.x.grad), None


x = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
e = SpringEnergy.apply(x, 40.0)
seed = torch.ones(3)
(first,) = torch.autograd.grad(e, x, grad_outputs=seed, retain_graph=True)
first_then = first.clone()
(second,) = torch.autograd.grad(e, x, grad_outputs=seed)
print("first", first_then.numpy(), "second", second.numpy(), "first now", first.numpy())
