"""Footbridge cable survey: parabolic sag of the main cable under a uniform deck load.

The survey reports one sag index per temperature case (a weighted average of nine
sag readings). The Warp sag kernel is wrapped in a torch.autograd.Function, and the
sensitivity of each index is taken as a vector-Jacobian product with
torch.autograd.grad(grad_outputs=sensor weights).
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

SPAN = 40.0                                   # m
X_SENS = np.linspace(4.0, 36.0, 9)            # sensor stations along the span, m
SENSOR_W = [0.04, 0.08, 0.12, 0.15, 0.22, 0.15, 0.12, 0.08, 0.04]
DT_CASES = [-12.0, 28.0]                      # deck temperature relative to erection, K
TRUE = np.array([2.6, 3.4])                   # deck load kN/m, horizontal tension in 100 kN
PARAMS0 = np.array([2.0, 4.2])
N_SENS = len(X_SENS)
X_W = wp.array(X_SENS, dtype=float)


@wp.kernel
def cable_sag(p: wp.array(dtype=float), x: wp.array(dtype=float), dtemp: float, sag: wp.array(dtype=float)):
    i = wp.tid()
    w = p[0]
    h = 100.0 * p[1] * (1.0 - 0.006 * dtemp)  # thermal elongation relaxes the tension
    sag[i] = w * x[i] * (SPAN - x[i]) / (2.0 * h)


class CableSag(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params, dtemp):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.sag = wp.zeros(N_SENS, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(cable_sag, dim=N_SENS, inputs=[ctx.p, X_W, float(dtemp)], outputs=[ctx.sag])
        return wp.to_torch(ctx.sag, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_sag):
        ctx.sag.grad = wp.from_torch(adj_sag)  # expect: torch_interop
        ctx.tape.backward()
        return wp.to_torch(ctx.p.grad, requires_grad=False).clone(), None


def _index_np(p, dt):
    w, h = p[0], 100.0 * p[1] * (1.0 - 0.006 * dt)
    return float(np.dot(SENSOR_W, w * X_SENS * (SPAN - X_SENS) / (2.0 * h)))


MEASURED = [_index_np(TRUE, dt) for dt in DT_CASES]


def evaluate(p):
    weights = torch.tensor(SENSOR_W, dtype=torch.float32)
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    sags = [CableSag.apply(p_t, dt) for dt in DT_CASES]
    index = torch.stack([torch.dot(weights, s) for s in sags])
    resid = (index - torch.tensor(MEASURED, dtype=torch.float32)).detach()
    grad = torch.zeros(2)
    for s, r in zip(sags, resid):
        (d_index,) = torch.autograd.grad(s, p_t, grad_outputs=weights)
        grad += 2.0 * r * d_index
    return float((resid ** 2).sum()), grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        loss, g = evaluate(p)
        p = p - 0.5 * g / (np.linalg.norm(g) + 1e-9) * min(1.0, loss ** 0.5)
        print(f"iter {it}: loss={loss:.5f} load={p[0]:.3f} kN/m tension={100 * p[1]:.1f} kN")
