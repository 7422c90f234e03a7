"""Online identification of pendulum parameters from a stream of sampled states.

Every sample, the model predicts the next state from the current one; the prediction error drives a
gradient step on (gravity/length, damping).
"""

import numpy as np
import warp as wp

NUM_PENDULUMS = 16
SUBSTEPS = 10
SAMPLE_DT = 0.25


@wp.kernel
def predict(
    state: wp.array(dtype=wp.vec2),
    params: wp.array(dtype=float),
    dt: float,
    prediction: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    theta = state[i][0]
    omega = state[i][1]
    h = dt / float(SUBSTEPS)
    for _s in range(SUBSTEPS):
        omega = omega + h * (-params[0] * wp.sin(theta) - params[1] * omega)
        theta = theta + h * omega
    prediction[i] = wp.vec2(theta, omega)


@wp.kernel
def prediction_error(prediction: wp.array(dtype=wp.vec2), observed: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = prediction[i] - observed[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def record_stream(num_samples, true_params=(9.81, 0.3), seed=0):
    rng = np.random.default_rng(seed)
    x = np.stack([rng.uniform(-2.0, 2.0, NUM_PENDULUMS), rng.uniform(-1.0, 1.0, NUM_PENDULUMS)], axis=1)
    h = SAMPLE_DT / 200
    frames = [x.copy()]
    for _ in range(num_samples):
        for _s in range(200):
            x[:, 1] += h * (-true_params[0] * np.sin(x[:, 0]) - true_params[1] * x[:, 1])
            x[:, 0] += h * x[:, 1]
        frames.append(x.copy())
    return [wp.array(f.astype(np.float32), dtype=wp.vec2) for f in frames]


def main():
    stream = record_stream(40)
    params = wp.array([6.0, 0.1], dtype=float, requires_grad=True)
    state = wp.clone(stream[0], requires_grad=True)
    prediction = wp.zeros(NUM_PENDULUMS, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 0.05
    tape = wp.Tape()
    for t in range(len(stream) - 1):
        loss.zero_()
        with tape:
            wp.launch(predict, dim=NUM_PENDULUMS, inputs=[state, params, SAMPLE_DT], outputs=[prediction])
            wp.launch(prediction_error, dim=NUM_PENDULUMS, inputs=[prediction, stream[t + 1]], outputs=[loss])
            wp.copy(state, stream[t + 1])  # expect: TW102
        tape.backward(loss)
        g = params.grad.numpy()
        params.assign(params.numpy() - lr * g)
        if t % 8 == 0:
            print(f"sample {t:2d} loss {loss.numpy()[0]:.5f} params {np.round(params.numpy(), 4)} grad {np.round(g, 4)}")
        tape.zero()
        tape.reset()

    print("identified g/L, damping:", params.numpy(), "(true 9.81, 0.3)")


if __name__ == "__main__":
    main()
