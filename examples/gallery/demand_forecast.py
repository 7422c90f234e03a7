"""A tiny two-layer forecaster trained with plain gradient descent on Warp."""
import numpy as np
import warp as wp

HIDDEN = 8
SAMPLES = 64


@wp.kernel
def hidden_layer(
    inputs: wp.array(dtype=float),
    w1: wp.array(dtype=float),
    b1: wp.array(dtype=float),
    hidden: wp.array2d(dtype=float),
):
    s, h = wp.tid()
    hidden[s, h] = wp.tanh(w1[h] * inputs[s] + b1[h])


@wp.kernel
def output_layer(
    hidden: wp.array2d(dtype=float),
    w2: wp.array(dtype=float),
    predictions: wp.array(dtype=float),
):
    s, h = wp.tid()
    wp.atomic_add(predictions, s, w2[h] * hidden[s, h])


@wp.kernel
def squared_error(
    predictions: wp.array(dtype=float),
    observations: wp.array(dtype=float),
    sse: wp.array(dtype=float),
):
    s = wp.tid()
    r = predictions[s] - observations[s]
    wp.atomic_add(sse, 0, r * r / float(SAMPLES))


class Forecaster:
    def __init__(self, rng):
        self.w1 = wp.array(rng.normal(size=HIDDEN).astype(np.float32), requires_grad=True)
        self.b1 = wp.array(rng.normal(size=HIDDEN).astype(np.float32) * 0.1, requires_grad=True)
        self.w2 = wp.array(rng.normal(size=HIDDEN).astype(np.float32) * 0.5, requires_grad=True)

    def parameters(self):
        return [self.w1, self.b1, self.w2]

    def forward(self, inputs, observations):
        hidden = wp.zeros((inputs.shape[0], HIDDEN), dtype=float, requires_grad=True)
        wp.launch(hidden_layer, dim=hidden.shape, inputs=[inputs, self.w1, self.b1], outputs=[hidden])
        predictions = wp.zeros_like(observations)  # expect: TW201
        wp.launch(output_layer, dim=hidden.shape, inputs=[hidden, self.w2], outputs=[predictions])
        return predictions


def main():
    wp.init()
    rng = np.random.default_rng(7)
    t = np.linspace(-2.0, 2.0, SAMPLES).astype(np.float32)
    inputs = wp.array(t)
    observations = wp.array(np.sin(1.3 * t) + 0.05 * rng.normal(size=SAMPLES).astype(np.float32))
    model = Forecaster(rng)

    for epoch in range(4):
        sse = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            predictions = model.forward(inputs, observations)
            wp.launch(squared_error, dim=SAMPLES, inputs=[predictions, observations], outputs=[sse])
        tape.backward(sse)
        grad_norm = sum(float(np.linalg.norm(p.grad.numpy())) for p in model.parameters())
        print(f"epoch {epoch}: mse={sse.numpy()[0]:.4f} grad norm={grad_norm:.4e}")
        for p in model.parameters():
            p.assign(p.numpy() - 0.1 * p.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
