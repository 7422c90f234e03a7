# correct: runtime-length loop over harmonics that only accumulates with +=, result stored linearly and squared in a separate kernel
import numpy as np
import warp as wp


@wp.kernel
def tide_model(
    t: wp.array(dtype=float),
    amp: wp.array(dtype=float),
    phase: wp.array(dtype=float),
    omega: wp.array(dtype=float),
    mean_level: float,
    h: wp.array(dtype=float),
):
    i = wp.tid()
    level = mean_level
    for k in range(amp.shape[0]):
        arg = omega[k] * t[i] + phase[k]
        level += amp[k] * wp.cos(arg)
    h[i] = level


@wp.kernel
def misfit(h: wp.array(dtype=float), gauge: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = h[i] - gauge[i]
    wp.atomic_add(loss, 0, r * r / float(h.shape[0]))


om = np.array([1.405, 1.454, 0.729], dtype=np.float32)  # M2, S2, K1-ish (rad/h)
t_np = np.linspace(0.0, 48.0, 60).astype(np.float32)
gauge_np = (2.0 + 1.1 * np.cos(om[0] * t_np + 0.4) + 0.4 * np.cos(om[1] * t_np - 1.0) + 0.2 * np.cos(om[2] * t_np + 2.0)).astype(np.float32)

t = wp.array(t_np, dtype=float)
gauge = wp.array(gauge_np, dtype=float)
omega = wp.array(om, dtype=float)
amp = wp.array([1.0, 0.5, 0.1], dtype=float, requires_grad=True)
phase = wp.array([0.0, 0.0, 0.0], dtype=float, requires_grad=True)
h = wp.zeros(len(t_np), dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(tide_model, dim=len(t_np), inputs=[t, amp, phase, omega, 2.0], outputs=[h])
    wp.launch(misfit, dim=len(t_np), inputs=[h, gauge], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
amp_grad = amp.grad.numpy().copy()
phase_grad = phase.grad.numpy().copy()
print("loss", loss_value, "d amp", amp_grad, "d phase", phase_grad)
