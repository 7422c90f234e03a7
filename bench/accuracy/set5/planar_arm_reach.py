"""Inverse kinematics for a batch of 3-link planar arms: joint angles that reach target points."""
import numpy as np
import warp as wp

NARM = 2
LINKS = wp.constant(wp.vec3(1.0, 0.8, 0.5))


@wp.func
def link_end(base: wp.vec3, angle: wp.float32, length: wp.float32):
    return base + length * wp.vec3(wp.cos(angle), wp.sin(angle), 0.0)


@wp.func
def forward_kinematics(a0: wp.float32, a1: wp.float32, a2: wp.float32):
    p1 = link_end(wp.vec3(0.0, 0.0, 0.0), a0, LINKS[0])
    p2 = link_end(p1, a0 + a1, LINKS[1])
    return link_end(p2, a0 + a1 + a2, LINKS[2])


@wp.kernel
def fk_kernel(angles: wp.array2d(dtype=wp.float32), tips: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    tips[i] = forward_kinematics(angles[i, 0], angles[i, 1], angles[i, 2])


@wp.kernel
def reach_loss(tips: wp.array(dtype=wp.vec3), targets: wp.array(dtype=wp.vec3), angles: wp.array2d(dtype=wp.float32),
               loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wp.length_sq(tips[i] - targets[i]))
    for j in range(3):
        wp.atomic_add(loss, 0, 0.01 * angles[i, j] * angles[i, j])


TARGETS = np.array([[1.2, 1.1, 0.0], [-0.5, 1.5, 0.0]], dtype=np.float32)


def reach_objective(angles):
    targets = wp.array(TARGETS, dtype=wp.vec3)
    tips = wp.empty_like(targets)  # expect: requires_grad
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(fk_kernel, dim=NARM, inputs=[angles], outputs=[tips])
    wp.launch(reach_loss, dim=NARM, inputs=[tips, targets, angles], outputs=[loss])
    return loss


def solve(iters=100, lr=0.05):
    angles = wp.array(np.array([[0.3, 0.3, 0.3], [1.0, 0.5, -0.2]], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = reach_objective(angles)
        tape.backward(loss)
        g = angles.grad.numpy().copy()
        history.append((angles.numpy().copy(), g))
        angles.assign(angles.numpy() - lr * g)
        tape.zero()
    print("final reach loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    solve()
