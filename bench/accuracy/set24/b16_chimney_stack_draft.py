"""Boiler chimney commissioning: discharge coefficient and effective stack height fitted
to flue-gas flow readings at several flue temperatures (natural draft).

The Warp stack model is the autograd op of _draft_op.py; the fit runs torch.optim.Adam.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

from _draft_op import AREA, G, P_ATM, R_AIR, T_AMB, StackFlow  # noqa: E402

T_FLUE = np.linspace(380.0, 560.0, 10).astype(np.float32)     # K
TRUE = np.array([6.6, 2.4])                                     # Cd x 10, height / 10 m
PARAMS0 = np.array([5.0, 3.0])


def _flow_np(p, t):
    rho_out, rho_in = P_ATM / (R_AIR * T_AMB), P_ATM / (R_AIR * t)
    return 0.1 * p[0] * AREA * np.sqrt(2.0 * G * 10.0 * p[1] * (rho_out - rho_in) / rho_in)


rng = np.random.default_rng(37)
FLOW_MEAS = (_flow_np(TRUE, T_FLUE) * (1.0 + 0.01 * rng.standard_normal(T_FLUE.size))).astype(np.float32)


def draft_loss(p_t):
    flow = StackFlow.apply(p_t, torch.from_numpy(T_FLUE))
    return (((flow - torch.from_numpy(FLOW_MEAS)) / 0.1) ** 2).mean()


def evaluate(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = draft_loss(p_t)
    loss.backward()
    return float(loss.detach()), p_t.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p_t = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([p_t], lr=0.05)
    for it in range(50):
        opt.zero_grad()
        loss = draft_loss(p_t)
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: loss={loss.item():.4f} Cd={0.1 * p_t[0].item():.3f} H={10 * p_t[1].item():.1f} m")
