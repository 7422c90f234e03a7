# correct: the helper returns a clone of its reused parameter-gradient buffer, so torch's accumulated .grad does not alias memory the next micro-batch zeroes.
"""Battery pack thermal calibration: cell internal resistance and thermal resistance to
the cold plate, from steady cell temperatures of three modules at different load currents.

The gradient is accumulated over the modules one micro-batch at a time (one backward per
module), through the Warp model in _pack_sim_clone.py.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

from _pack_sim_clone import ModuleLoss, PackThermal  # noqa: E402

N_CELLS = 8
POS = np.linspace(0.0, 1.0, N_CELLS).astype(np.float32)
T_COOL = [24.0, 26.0, 25.0]
CURRENTS = [np.full(N_CELLS, 40.0, dtype=np.float32), np.full(N_CELLS, 65.0, dtype=np.float32),
            np.linspace(30.0, 90.0, N_CELLS).astype(np.float32)]
TRUE = np.array([1.8, 2.6])                  # R_int (mOhm), R_th (K/W)
PARAMS0 = np.array([1.5, 2.2])
rng = np.random.default_rng(21)
T_MEAS = [(tc + i * i * TRUE[0] * 1e-3 * TRUE[1] * (1.0 + 0.35 * POS ** 2) + 0.05 * rng.standard_normal(N_CELLS)).astype(np.float32)
          for tc, i in zip(T_COOL, CURRENTS)]
SIM = PackThermal(N_CELLS, POS)


def accumulate_gradient(p_t):
    total = 0.0
    for m in range(len(CURRENTS)):
        loss_m = ModuleLoss.apply(p_t, SIM, CURRENTS[m], T_MEAS[m], T_COOL[m]).sum()
        loss_m.backward()
        total += float(loss_m.detach())
    return total


def evaluate(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = accumulate_gradient(p_t)
    return loss, p_t.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p_t = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([p_t], lr=0.03)
    for it in range(30):
        opt.zero_grad()
        loss = accumulate_gradient(p_t)
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: loss={loss:.4f} R_int={p_t[0].item():.3f} mOhm R_th={p_t[1].item():.3f} K/W")
