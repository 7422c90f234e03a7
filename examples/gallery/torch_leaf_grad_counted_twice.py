"""Wall temperatures fitted by torch.optim.SGD through a Warp heat-loss layer (_torch_heat): the layer
wraps the leaf's own .grad, so Warp's backward writes the gradient into it and PyTorch adds the
returned copy on top (NVIDIA/warp#159): every step is twice as long as the loss asks."""

import torch
import warp as wp
from _torch_heat import HeatLoss

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)

target = torch.tensor([120.0, 80.0, 150.0, 60.0])
t_wall = torch.tensor([30.0, 32.0, 35.0, 28.0], requires_grad=True)
opt = torch.optim.SGD([t_wall], lr=1e-3)
for step in range(3):
    opt.zero_grad()
    q = HeatLoss.apply(t_wall, 4.0, 20.0, False)
    loss = ((q - target) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, loss.item())
