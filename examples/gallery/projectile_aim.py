"""Aim a batch of projectiles with quadratic drag at a target by gradient descent."""
import numpy as np
import warp as wp

BATCH = 4
STEPS = 12
DT = 0.08


@wp.struct
class Ballistics:
    drag: float
    gravity: wp.vec3
    target: wp.vec3


@wp.kernel
def fly(
    launch_velocity: wp.array(dtype=wp.vec3),
    params: Ballistics,
    landing: wp.array(dtype=wp.vec3),
):
    b = wp.tid()
    p = wp.vec3(0.0, 0.0, 0.0)
    v = launch_velocity[b]
    for _s in range(STEPS):
        speed = wp.length(v)
        v = v + DT * (params.gravity - params.drag * speed * v)
        p = p + DT * v
    landing[b] = p


@wp.kernel
def miss_distance(
    landing: wp.array(dtype=wp.vec3),
    params: Ballistics,
    miss: wp.array(dtype=float),
):
    b = wp.tid()
    d = landing[b] - params.target
    wp.atomic_add(miss, 0, wp.dot(d, d))


def make_params():
    params = Ballistics()
    params.drag = 0.05
    params.gravity = wp.vec3(0.0, -9.8, 0.0)
    params.target = wp.vec3(6.0, 0.5, 0.0)
    return params


def evaluate(launch_velocity, params):
    landing = wp.zeros(BATCH, dtype=wp.vec3, requires_grad=True)
    miss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(fly, dim=BATCH, inputs=[launch_velocity, params], outputs=[landing])
    wp.launch(miss_distance, dim=BATCH, inputs=[landing, params], outputs=[miss])
    return miss


def train(iterations=6, learning_rate=0.01):
    params = make_params()
    init = np.tile(np.array([[4.0, 4.0, 0.0]], dtype=np.float32), (BATCH, 1))
    init[:, 0] += np.arange(BATCH, dtype=np.float32)
    launch_velocity = wp.array(init, dtype=wp.vec3, requires_grad=True)
    history = []
    for it in range(iterations):
        tape = wp.Tape()  # expect: TW202
        with tape:
            miss = evaluate(launch_velocity, params)
        tape.backward(miss)
        grad = launch_velocity.grad.numpy().copy()
        history.append((launch_velocity.numpy().copy(), grad, float(miss.numpy()[0])))
        launch_velocity.assign(launch_velocity.numpy() - learning_rate * grad)
    return history


if __name__ == "__main__":
    wp.init()
    for it, (_, grad, miss) in enumerate(train()):
        print(f"iter {it}: miss={miss:.4f} |grad|={np.linalg.norm(grad):.4f}")
