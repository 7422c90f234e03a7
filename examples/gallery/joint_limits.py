# tapewatch-test: --check-launches
"""Relax a planar arm's joint angles under a smooth joint-limit barrier.

The barrier uses a numerically stable softplus with a hand-written adjoint.
"""
import numpy as np
import warp as wp

JOINTS = 6


@wp.func
def soft_barrier(angle: float, limit: float, sharpness: float):
    z = sharpness * (angle - limit)
    # stable softplus: max(z, 0) + log1p(exp(-|z|))
    return (wp.max(z, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(z)))) / sharpness


@wp.func_grad(soft_barrier)
def adj_soft_barrier(angle: float, limit: float, sharpness: float, adj_ret: float):
    z = sharpness * (angle - limit)
    sig = 1.0 / (1.0 + wp.exp(-z))
    wp.adjoint[angle] = adj_ret * sig  # expect: TW404
    wp.adjoint[limit] -= adj_ret * sig


@wp.kernel
def arm_energy(
    angles: wp.array(dtype=float),
    rest_angles: wp.array(dtype=float),
    limits: wp.array(dtype=float),
    energy: wp.array(dtype=float),
):
    j = wp.tid()
    q = angles[j]
    barrier = soft_barrier(q, limits[j], 8.0)
    dq = q - rest_angles[j]
    wp.atomic_add(energy, 0, barrier + 0.5 * dq * dq + 0.1 * wp.sin(q))


def arm_state():
    rest = np.linspace(0.2, 1.2, JOINTS).astype(np.float32)
    limits = np.full(JOINTS, 0.9, dtype=np.float32)
    return wp.array(rest), wp.array(limits, requires_grad=True)


def evaluate(angles_np):
    rest, limits = arm_state()
    angles = wp.array(angles_np.astype(np.float32), requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(arm_energy, dim=JOINTS, inputs=[angles, rest, limits], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), angles.grad.numpy().copy(), limits.grad.numpy().copy()


if __name__ == "__main__":
    wp.init()
    angles_np = np.linspace(0.0, 1.5, JOINTS)
    for it in range(20):
        e, g, _ = evaluate(angles_np)
        angles_np = angles_np - 0.2 * g
        if it % 5 == 0:
            print(f"iter {it}: energy={e:.5f} |grad|={np.linalg.norm(g):.4f}")
    print("relaxed angles", np.round(angles_np, 4))
