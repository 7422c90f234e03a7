"""Correct: torch_function_shares_simulator's zones, each call of the Function keeping its own copy of
the simulator (and so its own tape and arrays) in ctx."""

import torch
import warp as wp
from _torch_zone_sim import ZoneSim, ZoneTemps

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)

ua = torch.tensor([30.0, 45.0, 25.0], requires_grad=True)
q_int = torch.tensor([2.0, 3.5, 1.0])
sim = ZoneSim()
day = ZoneTemps.apply(ua, sim, 30.0, q_int, True)
night = ZoneTemps.apply(ua, sim, 5.0, q_int, True)
loss = ((day - 24.0) ** 2).sum() + ((night - 19.0) ** 2).sum()
loss.backward()
print("loss", loss.item(), "d loss / d ua", ua.grad.numpy())
