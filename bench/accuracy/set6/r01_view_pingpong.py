"""Reaction-diffusion on a ring, integrated with two frames stored as rows of one 2-D buffer."""
import numpy as np
import warp as wp

N = 32
STEPS = 6
DT = 0.05


@wp.kernel
def react_diffuse(u: wp.array(dtype=float), rate: wp.array(dtype=float), dt: float, u_out: wp.array(dtype=float)):
    i = wp.tid()
    left = u[(i + N - 1) % N]
    right = u[(i + 1) % N]
    lap = left - 2.0 * u[i] + right
    u_out[i] = u[i] + dt * (lap + rate[i] * u[i] * (1.0 - u[i]))


@wp.kernel
def mass_error(u: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - target
    wp.atomic_add(loss, 0, d * d)


def main():
    rate = wp.array(np.linspace(0.5, 2.0, N, dtype=np.float32), requires_grad=True)
    frames = wp.zeros((2, N), dtype=float, requires_grad=True)
    frames.assign(np.stack([0.2 + 0.1 * np.sin(np.linspace(0, 2 * np.pi, N)), np.zeros(N)]).astype(np.float32))
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            src, dst = frames[t % 2], frames[(t + 1) % 2]  # expect: overwrite
            wp.launch(react_diffuse, dim=N, inputs=[src, rate, DT], outputs=[dst])
        wp.launch(mass_error, dim=N, inputs=[frames[STEPS % 2], 0.5], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0])
    print("dloss/drate", rate.grad.numpy()[:6])
    return rate.grad.numpy()


if __name__ == "__main__":
    main()
