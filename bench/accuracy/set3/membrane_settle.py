"""Fit the tension of a pre-stressed membrane: let it settle under load, then match a measured deflection."""
import numpy as np
import warp as wp

N = 12
SETTLE_STEPS = 15
MEASURE_STEPS = 10
DT = 0.1


@wp.kernel
def relax(
    h: wp.array2d(dtype=float),
    tension: wp.array(dtype=float),
    load: float,
    h_out: wp.array2d(dtype=float),
):
    i, j = wp.tid()
    n = h.shape[0]
    if i == 0 or j == 0 or i == n - 1 or j == n - 1:
        h_out[i, j] = 0.0
        return
    c = h[i, j]
    lap = h[i - 1, j] + h[i + 1, j] + h[i, j - 1] + h[i, j + 1] - 4.0 * c
    # tension stiffens with slope (geometric nonlinearity)
    gx = 0.5 * (h[i + 1, j] - h[i - 1, j])
    gy = 0.5 * (h[i, j + 1] - h[i, j - 1])
    t_eff = tension[0] * (1.0 + 2.0 * (gx * gx + gy * gy))
    h_out[i, j] = c + DT * (t_eff * lap - load)


@wp.kernel
def deflection_misfit(h: wp.array2d(dtype=float), meas: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = h[i, j] - meas[i, j]
    wp.atomic_add(loss, 0, d * d)


xx = np.linspace(0.0, 1.0, N)
meas_np = (-0.25 * np.outer(np.sin(np.pi * xx), np.sin(np.pi * xx))).astype(np.float32)
meas = wp.array(meas_np, dtype=float)
tension = wp.array([1.2], dtype=float, requires_grad=True)
LOAD = 0.5

fields = [wp.zeros((N, N), dtype=float, requires_grad=True) for _ in range(SETTLE_STEPS + MEASURE_STEPS + 1)]
loss = wp.zeros(1, dtype=float, requires_grad=True)

# settle under load first
for t in range(SETTLE_STEPS):
    wp.launch(relax, dim=(N, N), inputs=[fields[t], tension, LOAD], outputs=[fields[t + 1]])  # expect: truncation

tape = wp.Tape()
with tape:
    for t in range(SETTLE_STEPS, SETTLE_STEPS + MEASURE_STEPS):
        wp.launch(relax, dim=(N, N), inputs=[fields[t], tension, LOAD], outputs=[fields[t + 1]])
    wp.launch(deflection_misfit, dim=(N, N), inputs=[fields[-1], meas], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
tension_grad = float(tension.grad.numpy()[0])
print(f"misfit {loss_value:.6f}  d/dtension {tension_grad:.6f}")
