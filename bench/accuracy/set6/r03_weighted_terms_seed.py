"""Shape a curve: data term, smoothness term and length regularizer kept as one vector of loss terms."""
import numpy as np
import warp as wp

N = 40
WEIGHTS = np.array([1.0, 0.1, 0.01], dtype=np.float32)


@wp.kernel
def loss_terms(y: wp.array(dtype=float), data: wp.array(dtype=float), terms: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - data[i]
    wp.atomic_add(terms, 0, d * d)
    if i > 0 and i < N - 1:
        c = y[i - 1] - 2.0 * y[i] + y[i + 1]
        wp.atomic_add(terms, 1, c * c)
    if i > 0:
        s = y[i] - y[i - 1]
        wp.atomic_add(terms, 2, wp.sqrt(1.0 + s * s))


def main():
    rng = np.random.default_rng(2)
    xs = np.linspace(0, 1, N)
    data = wp.array((np.sin(3 * xs) + 0.2 * rng.standard_normal(N)).astype(np.float32))
    y = wp.array(np.zeros(N, dtype=np.float32), requires_grad=True)
    seed = wp.ones(3, dtype=float)
    for it in range(5):
        terms = wp.zeros(3, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(loss_terms, dim=N, inputs=[y, data], outputs=[terms])
        tape.backward(grads={terms: seed})  # expect: seeding
        objective = float(WEIGHTS @ terms.numpy())
        print(f"it {it}: objective {objective:.4f} terms {terms.numpy()}")
        y.assign(y.numpy() - 0.05 * y.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
