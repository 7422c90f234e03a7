# correct: the path-like spanwise lift buffer has retain_grad=True for an overlay plot, but it is written exactly once on the tape, so retaining its gradient double-counts nothing
"""Optimize spanwise twist of a glider wing; the lift-distribution gradient is kept for a sensitivity plot."""
import numpy as np
import warp as wp

NSPAN = 8


@wp.kernel
def lift_distribution(twist: wp.array(dtype=wp.float32), alpha: wp.float32, lift: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y = (wp.float32(i) + 0.5) / wp.float32(NSPAN)
    chord = wp.sqrt(1.0 - y * y)
    lift[i] = chord * wp.sin(alpha + twist[i])


@wp.kernel
def elliptic_target(lift: wp.array(dtype=wp.float32), total: wp.float32, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    y = (wp.float32(i) + 0.5) / wp.float32(NSPAN)
    ideal = total * wp.sqrt(1.0 - y * y)
    d = lift[i] - ideal
    wp.atomic_add(loss, 0, d * d + 0.1 * lift[i] * lift[i] * lift[i] * lift[i])


def wing_loss(twist, lift):
    wp.launch(lift_distribution, dim=NSPAN, inputs=[twist, 0.1], outputs=[lift])
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(elliptic_target, dim=NSPAN, inputs=[lift, 0.3], outputs=[loss])
    return loss


def optimize(iters=40, lr=0.2):
    lift = wp.zeros(NSPAN, dtype=wp.float32, requires_grad=True, retain_grad=True)
    twist = wp.array(np.linspace(0.1, -0.05, NSPAN).astype(np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = wing_loss(twist, lift)
        tape.backward(loss)
        sensitivity = lift.grad.numpy().copy()
        g = twist.grad.numpy().copy()
        history.append((twist.numpy().copy(), g))
        twist.assign(twist.numpy() - lr * g)
        tape.zero()
    print("twist", twist.numpy(), "lift sensitivity", sensitivity)
    return history


if __name__ == "__main__":
    optimize()
