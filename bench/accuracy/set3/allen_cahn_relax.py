# correct: explicit Allen-Cahn time stepping where each step writes a fresh array appended to a state list
import numpy as np
import warp as wp

N = 40
STEPS = 30
DT = 0.05


@wp.kernel
def ac_step(
    phi: wp.array(dtype=float),
    width: wp.array(dtype=float),
    dt: float,
    phi_out: wp.array(dtype=float),
):
    i = wp.tid()
    n = phi.shape[0]
    a = phi[wp.max(i - 1, 0)]
    b = phi[wp.min(i + 1, n - 1)]
    p = phi[i]
    w = width[0]
    phi_out[i] = p + dt * (w * w * (a - 2.0 * p + b) + p - p * p * p)


@wp.kernel
def interface_energy(phi: wp.array(dtype=float), target: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    d = phi[i] - target[i]
    wp.atomic_add(out, 0, 0.5 * d * d)


x = np.linspace(-1.0, 1.0, N)
phi0 = (0.6 * np.sin(3.0 * x) + 0.1 * x).astype(np.float32)
target = wp.array(np.tanh(4.0 * x).astype(np.float32), dtype=float)
width = wp.array([1.2], dtype=float, requires_grad=True)

states = [wp.array(phi0, dtype=float, requires_grad=True)]
energy = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    for t in range(STEPS):
        nxt = wp.empty_like(states[-1])
        wp.launch(ac_step, dim=N, inputs=[states[-1], width, DT], outputs=[nxt])
        states.append(nxt)
    wp.launch(interface_energy, dim=N, inputs=[states[-1], target], outputs=[energy])

tape.backward(energy)

energy_value = float(energy.numpy()[0])
width_grad = float(width.grad.numpy()[0])
print(f"energy={energy_value:.6f} grad(width)={width_grad:.6f}")
