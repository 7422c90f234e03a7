"""Office floor envelope audit: per-zone envelope conductance UA fitted to zone
temperatures logged in a day (hot, high internal gains) and a night (cool, low gains)
operating condition, both evaluated through the Warp zone model of _zone_module.py.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()

from _zone_module import ZoneSim, ZoneTemps  # noqa: E402

N_ZONE = 5
CONFIG = {"h_sys": 1.5, "t_supply": 16.0}
CONDITIONS = [(31.0, np.array([4.0, 5.5, 6.0, 5.0, 3.5], dtype=np.float32)),    # day: T_out, gains kW
              (12.0, np.array([0.8, 1.0, 1.2, 0.9, 0.6], dtype=np.float32))]    # night
TRUE = np.array([3.2, 2.4, 4.1, 2.9, 3.6])                                      # UA in 0.1 kW/K
PARAMS0 = np.full(N_ZONE, 3.0)
rng = np.random.default_rng(13)


def _temp_np(ua, t_out, q):
    u = 0.1 * ua
    return (u * t_out + q + CONFIG["h_sys"] * CONFIG["t_supply"]) / (u + CONFIG["h_sys"])


T_MEAS = [(_temp_np(TRUE, t, q) + 0.03 * rng.standard_normal(N_ZONE)).astype(np.float32) for t, q in CONDITIONS]
SIM = ZoneSim(N_ZONE, CONFIG)


def audit_loss(ua):
    preds = [ZoneTemps.apply(ua, SIM, t_out, q) for t_out, q in CONDITIONS]
    return sum(((pr - torch.from_numpy(tm)) ** 2).sum() for pr, tm in zip(preds, T_MEAS))


def evaluate(p):
    ua = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    loss = audit_loss(ua)
    loss.backward()
    return float(loss.detach()), ua.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    ua = torch.nn.Parameter(torch.tensor(PARAMS0, dtype=torch.float32))
    opt = torch.optim.Adam([ua], lr=0.1)
    for it in range(40):
        opt.zero_grad()
        loss = audit_loss(ua)
        loss.backward()
        opt.step()
        if it % 10 == 0:
            print(f"iter {it}: loss={loss.item():.4f} UA={np.round(ua.detach().numpy(), 2)}")
