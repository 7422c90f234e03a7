"""Identify contact stiffness and an anisotropic (normal-axis) factor of a gripper pad from force readings."""
import numpy as np
import warp as wp

NC = 6


@wp.func
def pad_force(pen: wp.vec3, k: wp.float32, normal_scale: wp.float32):
    f = (1000.0 * k) * pen
    f[2] = f[2] * normal_scale  # expect: component_reassign
    return f


@wp.kernel
def force_error(pen: wp.array(dtype=wp.vec3), measured: wp.array(dtype=wp.vec3), params: wp.array(dtype=wp.float32),
                loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    f = pad_force(pen[i], params[0], params[1])
    d = f - measured[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def readings():
    rng = np.random.default_rng(11)
    pen = rng.uniform(-0.02, 0.02, size=(NC, 3)).astype(np.float32)
    pen[:, 2] = np.abs(pen[:, 2]) + 0.01
    meas = pen * 800.0
    meas[:, 2] *= 2.5
    return wp.array(pen, dtype=wp.vec3), wp.array(meas.astype(np.float32), dtype=wp.vec3)


def force_misfit(params, pen, meas):
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(force_error, dim=NC, inputs=[pen, meas, params], outputs=[loss])
    return loss


def identify(iters=50, lr=1e-6):
    pen, meas = readings()
    params = wp.array(np.array([0.5, 1.5], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = force_misfit(params, pen, meas)
        tape.backward(loss)
        g = params.grad.numpy().copy()
        history.append((params.numpy().copy(), g))
        params.assign(params.numpy() - lr * g)
        tape.zero()
    print("k, normal scale", params.numpy())
    return history


if __name__ == "__main__":
    identify()
