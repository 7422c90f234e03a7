"""The Rosenbrock function as a torch.autograd.Function with an explicit adjoint launch (no tape):
wp.from_torch(xy, requires_grad=True) of a leaf wraps xy.grad,
the adjoint launch adds the gradient into it, and the Function returns that same memory, which PyTorch
adds to xy.grad again: the gradient is doubled (a scale Adam hides, plain SGD does not)."""

import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)
pvec2 = wp.types.vector(length=2, dtype=wp.float32)


@wp.kernel
def rosenbrock(xs: wp.array(dtype=pvec2), z: wp.array(dtype=float)):
    i = wp.tid()
    x = xs[i]
    z[i] = (1.0 - x[0]) * (1.0 - x[0]) + 100.0 * (x[1] - x[0] * x[0]) * (x[1] - x[0] * x[0])


class Rosenbrock(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xy, num_points):
        ctx.xy = wp.from_torch(xy, dtype=pvec2, requires_grad=True)  # expect: TW211
        ctx.num_points = num_points
        ctx.z = wp.zeros(num_points, requires_grad=True)
        wp.launch(rosenbrock, dim=num_points, inputs=[ctx.xy], outputs=[ctx.z])
        return wp.to_torch(ctx.z)

    @staticmethod
    def backward(ctx, adj_z):
        ctx.z.grad = wp.from_torch(adj_z.contiguous())
        wp.launch(rosenbrock, dim=ctx.num_points, inputs=[ctx.xy], outputs=[ctx.z],
                  adj_inputs=[ctx.xy.grad], adj_outputs=[ctx.z.grad], adjoint=True)
        return wp.to_torch(ctx.xy.grad), None


xy = torch.tensor([[0.5, 0.3], [-0.2, 0.8], [1.1, 1.0]], requires_grad=True)
opt = torch.optim.SGD([xy], lr=2e-4)
for step in range(3):
    opt.zero_grad()
    z = Rosenbrock.apply(xy, 3)
    z.sum().backward()
    opt.step()
x = xy.detach().numpy()
print("xy", x, "loss", float(np.sum((1 - x[:, 0]) ** 2 + 100 * (x[:, 1] - x[:, 0] ** 2) ** 2)))
