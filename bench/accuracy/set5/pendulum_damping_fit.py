"""Fit per-pendulum damping coefficients to recorded swing angles."""
import numpy as np
import warp as wp

P = 3
T = 40
DT = 0.05


@wp.kernel
def pendulum_step(theta: wp.array2d(dtype=wp.float32), omega: wp.array2d(dtype=wp.float32),
                  damping: wp.array(dtype=wp.float32), t: int, dt: wp.float32):
    p = wp.tid()
    w = omega[p, t] + dt * (-9.81 * wp.sin(theta[p, t]) - damping[p] * omega[p, t])
    omega[p, t + 1] = w
    theta[p, t + 1] = theta[p, t] + dt * w


@wp.kernel
def trajectory_misfit(theta: wp.array2d(dtype=wp.float32), obs: wp.array2d(dtype=wp.float32),
                      loss: wp.array(dtype=wp.float32)):
    p, t = wp.tid()
    r = theta[p, t] - obs[p, t]
    wp.atomic_add(loss, 0, r * r)


def simulate(damping):
    theta = wp.zeros((P, T + 1), dtype=wp.float32, requires_grad=True)
    omega = wp.zeros((P, T + 1), dtype=wp.float32, requires_grad=True)
    theta.numpy()[:, 0] = [0.8, 1.2, 0.5]
    for t in range(T):
        wp.launch(pendulum_step, dim=P, inputs=[theta, omega, damping, t, DT])
    return theta


def observations():
    true = wp.array(np.array([0.3, 0.6, 0.15], dtype=np.float32), dtype=wp.float32)
    return wp.array(simulate(true).numpy(), dtype=wp.float32)


def loss_of(theta, obs):
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(trajectory_misfit, dim=(P, T + 1), inputs=[theta, obs], outputs=[loss])
    return loss


def fit(iters=60, lr=0.01):
    obs = observations()
    damping = wp.array(np.array([0.1, 0.1, 0.1], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            theta = simulate(damping)
            loss = loss_of(theta, obs)
        # center the swing for the live plot
        traj_np = theta.numpy()
        traj_np -= traj_np.mean(axis=1, keepdims=True)  # expect: untaped_write
        tape.backward(loss)
        g = damping.grad.numpy().copy()
        history.append((damping.numpy().copy(), g))
        damping.assign(damping.numpy() - lr * g)
        tape.zero()
        if it % 20 == 0:
            print(f"iter {it} loss {loss.numpy()[0]:.4f} swing range {np.ptp(traj_np):.3f}")
    return history


if __name__ == "__main__":
    fit()
