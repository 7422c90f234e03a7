# correct: the tape is seeded with torch's incoming grad_output instead of 1, so the 1/N averaging and prior weighting are honoured.
"""Water main head loss: wall roughness and fitting loss coefficient from a flow test.

Darcy-Weisbach with the Swamee-Jain friction factor. A torch.autograd.Function returns
the Warp-computed sum of squared head-loss errors; the fit objective averages it over the
readings and adds a torch prior on the coefficients.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

D, L, NU, G = 0.15, 120.0, 1.0e-6, 9.81
Q = np.linspace(0.010, 0.045, 12)                  # m^3/s
N_MEAS = Q.size
TRUE = np.array([1.5, 3.2])                        # roughness (0.1 mm), fitting K
PRIOR = torch.tensor([1.0, 2.5])
LAM = 0.02
PARAMS0 = np.array([0.6, 2.0])


def _head_np(p, q):
    v = q / (np.pi * D * D / 4.0)
    re = v * D / NU
    f = 0.25 / np.log10(p[0] * 1e-4 / (3.7 * D) + 5.74 / re ** 0.9) ** 2
    return (f * L / D + p[1]) * v * v / (2.0 * G)


rng = np.random.default_rng(5)
H_MEAS = (_head_np(TRUE, Q) * (1.0 + 0.01 * rng.standard_normal(N_MEAS))).astype(np.float32)
Q_W = wp.array(Q.astype(np.float32), dtype=float)
H_W = wp.array(H_MEAS, dtype=float)


@wp.kernel
def head_loss_sse(p: wp.array(dtype=float), q: wp.array(dtype=float), h_meas: wp.array(dtype=float),
                  sse: wp.array(dtype=float)):
    i = wp.tid()
    v = q[i] / (0.25 * wp.pi * D * D)
    re = v * D / NU
    lg = wp.log(p[0] * 1.0e-4 / (3.7 * D) + 5.74 / wp.pow(re, 0.9)) / wp.log(10.0)
    f = 0.25 / (lg * lg)
    h = (f * L / D + p[1]) * v * v / (2.0 * G)
    r = h - h_meas[i]
    wp.atomic_add(sse, 0, r * r)


class HeadLossSSE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.sse = wp.zeros(1, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(head_loss_sse, dim=N_MEAS, inputs=[ctx.p, Q_W, H_W], outputs=[ctx.sse])
        return wp.to_torch(ctx.sse, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_sse):
        ctx.tape.backward(grads={ctx.sse: wp.from_torch(adj_sse.contiguous())})
        return wp.to_torch(ctx.p.grad, requires_grad=False).clone()


def objective(p_t):
    return HeadLossSSE.apply(p_t).sum() / N_MEAS + LAM * ((p_t - PRIOR) ** 2).sum()


def evaluate(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = objective(p_t)
    loss.backward()
    return float(loss.detach()), p_t.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p_t = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([p_t], lr=0.05)
    for it in range(60):
        opt.zero_grad()
        loss = objective(p_t)
        loss.backward()
        opt.step()
        if it % 15 == 0:
            print(f"iter {it}: objective={loss.item():.5f} roughness={0.1 * p_t[0].item():.3f} mm K={p_t[1].item():.3f}")
