"""Tune the initial push of a rope-bridge so its midpoint sways to a target after a short time."""
import numpy as np
import warp as wp

NN = 6
SPRINGS = np.array([[i, i + 1] for i in range(NN - 1)], dtype=np.int32)


@wp.kernel
def spring_forces(x: wp.array(dtype=wp.vec3), springs: wp.array2d(dtype=wp.int32), k: wp.float32, rest: wp.float32,
                  f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    a = springs[s, 0]
    b = springs[s, 1]
    d = x[b] - x[a]
    l = wp.length(d)
    fs = k * (l - rest) * d / l
    wp.atomic_add(f, a, fs)
    wp.atomic_sub(f, b, fs)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: wp.float32,
              x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    if i == 0 or i == x.shape[0] - 1:
        x_out[i] = x[i]
        v_out[i] = v[i]
    else:
        vn = v[i] + dt * (f[i] + wp.vec3(0.0, -1.0, 0.0))
        v_out[i] = vn
        x_out[i] = x[i] + dt * vn


@wp.kernel
def midpoint_cost(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=wp.float32)):
    loss[0] = wp.length_sq(x[x.shape[0] // 2] - target)


def sway(push, steps=15, dt=0.03):
    springs = wp.array(SPRINGS, dtype=wp.int32)
    x = wp.array(np.array([[i * 0.5, 0.0, 0.0] for i in range(NN)], dtype=np.float32), dtype=wp.vec3, requires_grad=True)
    v = push
    f = wp.zeros(NN, dtype=wp.vec3, requires_grad=True)  # expect: atomic_replay
    for _ in range(steps):
        wp.launch(spring_forces, dim=NN - 1, inputs=[x, springs, 30.0, 0.45], outputs=[f])
        x_new = wp.zeros_like(x)
        v_new = wp.zeros_like(x)
        wp.launch(integrate, dim=NN, inputs=[x, v, f, dt], outputs=[x_new, v_new])
        x, v = x_new, v_new
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(midpoint_cost, dim=1, inputs=[x, wp.vec3(1.25, -0.3, 0.2)], outputs=[loss])
    return loss


def tune(iters=30, lr=0.1):
    push = wp.array(np.zeros((NN, 3), dtype=np.float32), dtype=wp.vec3, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = sway(push)
        tape.backward(loss)
        g = push.grad.numpy().copy()
        history.append((push.numpy().copy(), g))
        push.assign(push.numpy() - lr * g)
        tape.zero()
    print("cost", loss.numpy()[0])
    return history


if __name__ == "__main__":
    tune()
