"""Identify tangential contact stiffness from sliding-block measurements with a smoothed friction law."""
import numpy as np
import warp as wp

NB = 5


@wp.func
def smooth_abs(x: wp.float32, eps: wp.float32):
    return wp.sqrt(x * x + eps)


@wp.func_grad(smooth_abs)
def adj_smooth_abs(x: wp.float32, eps: wp.float32, adj_ret: wp.float32):
    wp.adjoint[x] += adj_ret * x / (x * x + eps)  # expect: custom_adjoint


@wp.kernel
def friction_force(slip: wp.array(dtype=wp.float32), params: wp.array(dtype=wp.float32), normal: wp.array(dtype=wp.float32),
                   force: wp.array(dtype=wp.float32)):
    i = wp.tid()
    ft = params[0] * slip[i]
    limit = params[1] * normal[i]
    mag = smooth_abs(ft, 0.01)
    force[i] = ft * limit / (limit + mag)


@wp.kernel
def force_misfit(force: wp.array(dtype=wp.float32), measured: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = force[i] - measured[i]
    wp.atomic_add(loss, 0, d * d)


SLIP = np.array([-0.9, -0.3, 0.15, 0.6, 1.2], dtype=np.float32)
NORMAL = np.array([1.0, 1.5, 2.0, 1.2, 0.8], dtype=np.float32)
MEASURED = np.array([-0.55, -0.4, 0.3, 0.6, 0.5], dtype=np.float32)


def misfit(params):
    force = wp.zeros(NB, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(friction_force, dim=NB, inputs=[wp.array(SLIP, dtype=wp.float32), params, wp.array(NORMAL, dtype=wp.float32)],
              outputs=[force])
    wp.launch(force_misfit, dim=NB, inputs=[force, wp.array(MEASURED, dtype=wp.float32)], outputs=[loss])
    return loss


def identify(iters=60, lr=0.2):
    params = wp.array(np.array([1.0, 0.5], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = misfit(params)
        tape.backward(loss)
        g = params.grad.numpy().copy()
        history.append((params.numpy().copy(), g))
        params.assign(params.numpy() - lr * g)
        tape.zero()
    print("stiffness, mu:", params.numpy(), "loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    identify()
