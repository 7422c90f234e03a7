"""Fit the growth rate of a 1D Fisher-KPP invasion front to an observed profile."""
import numpy as np
import warp as wp

N = 48
STEPS = 24
DT = 0.1
DIFF = 1.5


@wp.kernel
def fisher_step(
    u: wp.array(dtype=float),
    rate: wp.array(dtype=float),
    dt: float,
    diff: float,
    u_next: wp.array(dtype=float),
):
    i = wp.tid()
    n = u.shape[0]
    left = u[wp.max(i - 1, 0)]
    right = u[wp.min(i + 1, n - 1)]
    c = u[i]
    lap = left - 2.0 * c + right
    u_next[i] = c + dt * (diff * lap + rate[0] * c * (1.0 - c))


@wp.kernel
def profile_loss(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = u[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / float(u.shape[0]))


def initial_profile():
    x = np.linspace(0.0, 1.0, N)
    return (1.0 / (1.0 + np.exp((x - 0.2) / 0.05))).astype(np.float32)


obs = wp.array(np.clip(initial_profile() + 0.35 * np.exp(-((np.linspace(0, 1, N) - 0.35) / 0.1) ** 2), 0.0, 1.0), dtype=float)
rate = wp.array([0.8], dtype=float, requires_grad=True)

# two buffers are enough for an explicit scheme
front = [
    wp.array(initial_profile(), dtype=float, requires_grad=True),
    wp.zeros(N, dtype=float, requires_grad=True),
]
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    for t in range(STEPS):
        wp.launch(fisher_step, dim=N, inputs=[front[t % 2], rate, DT, DIFF], outputs=[front[(t + 1) % 2]])  # expect: overwrite
    final = front[STEPS % 2]
    wp.launch(profile_loss, dim=N, inputs=[final, obs], outputs=[loss])

tape.backward(loss)

loss_value = float(loss.numpy()[0])
rate_grad = float(rate.grad.numpy()[0])
print(f"loss={loss_value:.6f}  d loss / d rate={rate_grad:.6f}")
