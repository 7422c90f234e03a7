"""Fit a launch angle-like parameter; a validation rollout reuses the state buffers before backward()."""
import numpy as np
import warp as wp

N = 16
STEPS = 6
DT = 0.1


@wp.kernel
def step(x: wp.array(dtype=float), drag: wp.array(dtype=float), dt: float, x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] - dt * drag[i] * x[i] * wp.abs(x[i])


@wp.kernel
def sq_error(x: wp.array(dtype=float), goal: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - goal
    wp.atomic_add(loss, 0, d * d)


def rollout(states, drag, loss, goal):
    for t in range(STEPS):
        wp.launch(step, dim=N, inputs=[states[t], drag, DT], outputs=[states[t + 1]])
    wp.launch(sq_error, dim=N, inputs=[states[-1], goal], outputs=[loss])


def main():
    drag = wp.array(np.full(N, 0.4, dtype=np.float32), requires_grad=True)
    states = [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS + 1)]
    train_x0 = np.linspace(1.0, 3.0, N).astype(np.float32)
    val_x0 = np.linspace(-2.0, 2.0, N).astype(np.float32)
    states[0].assign(train_x0)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        rollout(states, drag, loss, 0.5)
    # quick validation number, reusing the same buffers
    val_loss = wp.zeros(1, dtype=float)
    states[0].assign(val_x0)  # expect: untaped_write
    rollout(states, drag, val_loss, 0.5)
    tape.backward(loss)
    print("train", loss.numpy()[0], "val", val_loss.numpy()[0])
    print("dloss/ddrag", drag.grad.numpy()[:6])
    return drag.grad.numpy()


if __name__ == "__main__":
    main()
