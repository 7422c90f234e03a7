"""Inverse kinematics of a planar snake (hyper-redundant) arm: find joint
angles that put the tip on a target while keeping the body close to a rest
pose. Forward kinematics runs in one kernel thread that walks the chain.
"""
import numpy as np
import warp as wp

NUM_LINKS = 6
LINK = 0.15


@wp.kernel
def snake_fk(theta: wp.array(dtype=float), n_links: int, link: float, joints: wp.array(dtype=wp.vec2)):
    p = wp.vec2(0.0, 0.0)
    angle = float(0.0)
    joints[0] = p
    for k in range(n_links):  # expect: dynamic_loop
        angle = angle + theta[k]
        p = p + link * wp.vec2(wp.cos(angle), wp.sin(angle))
        joints[k + 1] = p


@wp.kernel
def ik_loss(joints: wp.array(dtype=wp.vec2), theta: wp.array(dtype=float), target: wp.vec2, rest: float,
            loss: wp.array(dtype=float)):
    k = wp.tid()
    if k == 0:
        d = joints[joints.shape[0] - 1] - target
        wp.atomic_add(loss, 0, wp.dot(d, d))
    r = theta[k] - rest
    wp.atomic_add(loss, 0, 0.01 * r * r)


TARGET = wp.vec2(0.35, 0.55)


def evaluate(p):
    theta = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    joints = wp.zeros(NUM_LINKS + 1, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(snake_fk, dim=1, inputs=[theta, NUM_LINKS, LINK], outputs=[joints])
        wp.launch(ik_loss, dim=NUM_LINKS, inputs=[joints, theta, TARGET, 0.2], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), theta.grad.numpy().copy()


PARAMS0 = np.array([0.5, 0.3, 0.2, 0.1, 0.3, 0.2])
FD_EPS = 1e-3

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = evaluate(p)
        print(f"iter {it}: loss {l:.5f}")
        p = p - 1.0 * g
