"""Heat-exchanger fouling fitted with torch.optim.Adam on a parameter Warp wraps once: wp.from_torch makes
Warp's gradient array the parameter's .grad, but optimizer.zero_grad() sets .grad to None every step, so
Warp's backward writes into a buffer PyTorch dropped and Adam never moves the parameters."""

import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()  # (wp.from_torch needs Warp's runtime before the first launch)
N = 10
DAYS = wp.array(np.linspace(0.0, 90.0, N, dtype=np.float32))
U_MEAS = wp.array((1.0 / (1.0 / 850.0 + 2.0e-4 * (1.0 - np.exp(-np.linspace(0, 90, N) / 30.0)))).astype(np.float32))


@wp.kernel
def fouling_sse(p: wp.array(dtype=float), days: wp.array(dtype=float), u_meas: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    i = wp.tid()
    rf = p[0] * 1.0e-4 * (1.0 - wp.exp(-days[i] / (10.0 * p[1])))
    u = 1.0 / (1.0 / 850.0 + rf)
    r = (u - u_meas[i]) / 100.0
    wp.atomic_add(loss, 0, r * r)


params = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
params_wp = wp.from_torch(params)  # shares data and .grad with the Parameter
opt = torch.optim.Adam([params], lr=0.05)
for it in range(4):
    opt.zero_grad()  # expect: TW214
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fouling_sse, dim=N, inputs=[params_wp, DAYS, U_MEAS], outputs=[loss])
    tape.backward(loss)
    opt.step()
    print(it, float(loss.numpy()[0]), params.detach().numpy())
