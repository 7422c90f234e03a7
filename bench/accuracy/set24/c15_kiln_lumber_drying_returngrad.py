# correct: the Function returns the Warp gradient to torch, so it flows back through exp() to the log-parameters.
"""Lumber kiln schedule: drying rate constant and equilibrium moisture content fitted to
moisture-meter readings of boards of several thicknesses (boards x readings, 2-D arrays).

Both constants must stay positive, so the fit works on their logarithms and passes
exp(log_params) to the Warp model through a torch.autograd.Function.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

THICK = np.array([0.8, 1.0, 1.3, 1.6], dtype=np.float32)          # inch
HOURS = np.linspace(6.0, 96.0, 10).astype(np.float32)
M0 = 32.0                                                          # green moisture content, %
N_B, N_T = THICK.size, HOURS.size
TRUE = np.log(np.array([0.45, 8.5]))                               # rate (x0.1 1/h per inch^2), EMC (%)
PARAMS0 = np.log(np.array([0.30, 11.0]))
rng = np.random.default_rng(41)
K_T, EMC_T = np.exp(TRUE)
M_MEAS = (EMC_T + (M0 - EMC_T) * np.exp(-0.1 * K_T * HOURS[None, :] / THICK[:, None] ** 2)
          + 0.2 * rng.standard_normal((N_B, N_T))).astype(np.float32)
THICK_W = wp.array(THICK, dtype=float)
HOURS_W = wp.array(HOURS, dtype=float)


@wp.kernel
def board_moisture(p: wp.array(dtype=float), thick: wp.array(dtype=float), hours: wp.array(dtype=float),
                   moist: wp.array2d(dtype=float)):
    b, j = wp.tid()
    k = 0.1 * p[0] / (thick[b] * thick[b])
    moist[b, j] = p[1] + (M0 - p[1]) * wp.exp(-k * hours[j])


class BoardMoisture(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params):
        ctx.p = wp.from_torch(params)
        ctx.moist = wp.zeros((N_B, N_T), dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(board_moisture, dim=(N_B, N_T), inputs=[ctx.p, THICK_W, HOURS_W], outputs=[ctx.moist])
        return wp.to_torch(ctx.moist, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_moist):
        ctx.moist.grad.assign(wp.from_torch(adj_moist.contiguous()))
        ctx.tape.backward()
        return wp.to_torch(ctx.p.grad, requires_grad=False).clone()


def drying_loss(log_p):
    moist = BoardMoisture.apply(torch.exp(log_p))
    return ((moist - torch.from_numpy(M_MEAS)) ** 2).mean()


def evaluate(p):
    log_p = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = drying_loss(log_p)
    loss.backward()
    grad = log_p.grad if log_p.grad is not None else torch.zeros_like(log_p)
    return float(loss.detach()), grad.numpy().astype(np.float64)


if __name__ == "__main__":
    log_p = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([log_p], lr=0.05)
    for it in range(40):
        opt.zero_grad()
        loss = drying_loss(log_p)
        loss.backward()
        opt.step()
        if it % 10 == 0:
            k, emc = torch.exp(log_p).tolist()
            print(f"iter {it}: loss={loss.item():.3f} rate={k:.3f} EMC={emc:.2f}%")
