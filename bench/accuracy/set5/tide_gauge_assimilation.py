"""Assimilate streaming tide-gauge readings into a damped harmonic tide model (one gradient step per frame)."""
import numpy as np
import warp as wp

NT = 48


@wp.kernel
def tide_model(t: wp.array(dtype=wp.float32), params: wp.array(dtype=wp.float32), level: wp.array(dtype=wp.float32)):
    i = wp.tid()
    amp = params[0]
    phase = params[1]
    decay = params[2]
    level[i] = amp * wp.exp(-decay * t[i]) * wp.cos(1.3 * t[i] + phase)


@wp.kernel
def huber_misfit(level: wp.array(dtype=wp.float32), obs: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    r = level[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / (1.0 + 0.1 * r * r))


def model_loss(params, t, obs):
    level = wp.zeros(NT, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(tide_model, dim=NT, inputs=[t, params], outputs=[level])
    wp.launch(huber_misfit, dim=NT, inputs=[level, obs], outputs=[loss])
    return loss


def first_frame():
    t_np = np.linspace(0.0, 6.0, NT).astype(np.float32)
    obs_np = (1.1 * np.exp(-0.15 * t_np) * np.cos(1.3 * t_np + 0.4)).astype(np.float32)
    return t_np, obs_np


def assimilate(frames=20, lr=0.05):
    t_np, obs_np = first_frame()
    t = wp.array(t_np, dtype=wp.float32)
    drift = (0.05 * np.sin(0.7 * t_np)).astype(np.float32)
    params = wp.array(np.array([0.8, 0.0, 0.1], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for frame in range(frames):
        obs = wp.array(obs_np, dtype=wp.float32, copy=False)
        tape = wp.Tape()
        with tape:
            loss = model_loss(params, t, obs)
        # prepare the next frame's readings while this one is differentiated
        obs_np += drift  # expect: untaped_write
        tape.backward(loss)
        g = params.grad.numpy().copy()
        history.append((params.numpy().copy(), g))
        params.assign(params.numpy() - lr * g)
        tape.zero()
    print("params", params.numpy())
    return history


if __name__ == "__main__":
    assimilate()
