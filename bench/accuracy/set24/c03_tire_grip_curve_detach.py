# correct: the coefficient tensor is wrapped detached with a fresh Warp gradient, so the gradient returned to torch is not also written into the leaf's own .grad.
"""Tyre lateral force: Pacejka magic formula (B, C, D packed in one vec3) fitted to a
slip-angle sweep from a flat-track rig.

The Warp kernel reads the coefficients as a wp.vec3 array built from a torch tensor;
a torch.autograd.Function bridges it, and torch.optim.SGD runs the fit.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

SLIP = np.linspace(-0.20, 0.20, 17).astype(np.float32)          # slip angle, rad
TRUE = np.array([9.5, 1.45, 4.2])                                 # stiffness B, shape C, peak D (kN)
rng = np.random.default_rng(3)
F_MEAS = (TRUE[2] * np.sin(TRUE[1] * np.arctan(TRUE[0] * SLIP)) + 0.02 * rng.standard_normal(SLIP.size)).astype(np.float32)
PARAMS0 = np.array([7.0, 1.30, 3.6])
N = SLIP.size
SLIP_W = wp.array(SLIP, dtype=float)
FMEAS_W = wp.array(F_MEAS, dtype=float)


@wp.kernel
def magic_formula_sse(coef: wp.array(dtype=wp.vec3), slip: wp.array(dtype=float), f_meas: wp.array(dtype=float),
                      sse: wp.array(dtype=float)):
    i = wp.tid()
    c = coef[0]
    f = c[2] * wp.sin(c[1] * wp.atan(c[0] * slip[i]))
    r = f - f_meas[i]
    wp.atomic_add(sse, 0, r * r / float(N))


class GripLoss(torch.autograd.Function):
    @staticmethod
    def forward(ctx, coef):
        ctx.coef = wp.from_torch(coef.detach(), dtype=wp.vec3, requires_grad=True)
        ctx.sse = wp.zeros(1, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(magic_formula_sse, dim=N, inputs=[ctx.coef, SLIP_W, FMEAS_W], outputs=[ctx.sse])
        return wp.to_torch(ctx.sse, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_sse):
        ctx.sse.grad.assign(wp.from_torch(adj_sse.contiguous()))
        ctx.tape.backward()
        return wp.to_torch(ctx.coef.grad, requires_grad=False).reshape(1, 3)


def evaluate(p):
    coef = torch.tensor(np.asarray(p, dtype=np.float32).reshape(1, 3), requires_grad=True)
    loss = GripLoss.apply(coef).sum()
    loss.backward()
    return float(loss.detach()), coef.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    coef = torch.nn.Parameter(torch.tensor(PARAMS0.reshape(1, 3), dtype=torch.float32))
    opt = torch.optim.SGD([coef], lr=0.02)
    for it in range(40):
        opt.zero_grad()
        loss = GripLoss.apply(coef).sum()
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: sse={loss.item():.4f} B,C,D={coef.detach().numpy().ravel()}")
