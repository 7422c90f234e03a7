"""A softplus activation for PyTorch whose backward launches the kernel's adjoint itself
(wp.launch(..., adjoint=True), no tape), through a custom adjoint that doubles the derivative."""
# tapewatch-test: --check-launches

import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)


@wp.func
def softplus(x: float):
    return wp.log(1.0 + wp.exp(x))


@wp.func_grad(softplus)
def adj_softplus(x: float, adj_ret: float):
    wp.adjoint[x] += 2.0 * adj_ret / (1.0 + wp.exp(-x))  # expect: TW404


@wp.kernel
def activate(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = softplus(x[i])


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = wp.from_torch(x.detach())
        ctx.y = wp.zeros(x.shape[0], dtype=float)
        wp.launch(activate, dim=x.shape[0], inputs=[ctx.x], outputs=[ctx.y])
        return wp.to_torch(ctx.y)

    @staticmethod
    def backward(ctx, adj_y):
        adj_x = torch.zeros_like(adj_y)
        wp.launch(activate, dim=ctx.x.shape[0], inputs=[ctx.x], outputs=[ctx.y],
                  adj_inputs=[wp.from_torch(adj_x)], adj_outputs=[wp.from_torch(adj_y.contiguous())], adjoint=True)
        return adj_x


x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
(Softplus.apply(x) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("d/dx", x.grad.numpy(), "expected", (torch.sigmoid(x) * torch.tensor([1.0, 2.0, 3.0])).detach().numpy())
