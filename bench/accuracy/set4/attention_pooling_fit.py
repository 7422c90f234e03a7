import numpy as np
import warp as wp

N = 8


@wp.kernel
def attention_weights(feat: wp.array(dtype=wp.vec2), query: wp.array(dtype=wp.vec2), denom: wp.array(dtype=wp.float32), weight: wp.array(dtype=wp.float32)):
    i = wp.tid()
    e = wp.exp(wp.dot(feat[i], query[0]))
    wp.atomic_add(denom, 0, e)
    weight[i] = e / denom[0]  # expect: atomic_replay


@wp.kernel
def pooled_loss(feat: wp.array(dtype=wp.vec2), weight: wp.array(dtype=wp.float32), target: wp.vec2, loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    c = weight[i] * feat[i]
    wp.atomic_add(loss, 0, wp.dot(c, c) - 2.0 * wp.dot(c, target) / wp.float32(N))


def features():
    rng = np.random.default_rng(8)
    return rng.standard_normal((N, 2)).astype(np.float32)


def pool_grad(q_np, feat_np):
    feat = wp.array(feat_np, dtype=wp.vec2)
    query = wp.array([q_np], dtype=wp.vec2, requires_grad=True)
    denom = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    weight = wp.zeros(N, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(attention_weights, dim=N, inputs=[feat, query, denom], outputs=[weight])
        wp.launch(pooled_loss, dim=N, inputs=[feat, weight, wp.vec2(0.5, -0.3)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), query.grad.numpy()[0].copy()


def main():
    feat = features()
    q = np.array([0.1, 0.1], dtype=np.float32)
    for it in range(6):
        l, g = pool_grad(q, feat)
        print(f"iter {it}: query={q} loss={l:.6f} grad={g}")
        q = (q - 0.5 * g).astype(np.float32)


if __name__ == "__main__":
    main()
