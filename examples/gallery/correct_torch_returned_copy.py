"""Correct: torch_returned_view_zeroed's chimney draft, its backward returning a copy of the gradient
before zeroing the tape (_torch_draft.py, copy=True)."""

import torch
import warp as wp
from _torch_draft import Draft

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)

params = torch.tensor([0.6, 1.1], requires_grad=True)
t_flue = torch.tensor([150.0, 200.0, 250.0, 300.0])
measured = torch.tensor([2.1, 2.9, 3.5, 4.0])
opt = torch.optim.SGD([params], lr=0.01)
for it in range(3):
    opt.zero_grad()
    flow = Draft.apply(params, t_flue, True)
    loss = ((flow - measured) ** 2).mean()
    loss.backward()
    opt.step()
    print(it, loss.item(), params.grad.numpy())
