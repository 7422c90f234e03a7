import numpy as np
import warp as wp

from _mlp import HIDDEN, IN_DIM, decode, encode, init_weights

B, D, H = 4, IN_DIM, HIDDEN


def make_data():
    rng = np.random.default_rng(1)
    x = rng.uniform(-1.0, 1.0, size=(B, D)).astype(np.float32)
    y = (np.sin(x.sum(axis=1, keepdims=True))).astype(np.float32)
    return x, y


def encoder_grad(w_np, v_np, x_np, y_np):
    """Backprop through the decoder first, then feed dL/dh into the encoder tape."""
    w = wp.array(w_np, dtype=wp.float32, requires_grad=True)
    v = wp.array(v_np, dtype=wp.float32, requires_grad=True)
    x = wp.array(x_np, dtype=wp.float32)
    y = wp.array(y_np, dtype=wp.float32)
    h = wp.zeros((B, H), dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    enc_tape = wp.Tape()
    with enc_tape:
        wp.launch(encode, dim=(B, H), inputs=[w, x], outputs=[h])
    dec_tape = wp.Tape()
    with dec_tape:
        wp.launch(decode, dim=B, inputs=[h, v, y], outputs=[loss])

    dec_tape.backward(loss)
    dv = v.grad.numpy().copy()
    dec_tape.zero()
    dh = wp.clone(h.grad)  # expect: grad_read
    enc_tape.backward(grads={h: dh})
    return float(loss.numpy()[0]), w.grad.numpy().copy(), dv


def main():
    x, y = make_data()
    w = init_weights(H, D)
    v = np.full(H, 0.3, dtype=np.float32)
    for it in range(5):
        l, dw, dv = encoder_grad(w, v, x, y)
        print(f"iter {it}: loss={l:.5f} |dw|={np.abs(dw).sum():.5f} |dv|={np.abs(dv).sum():.5f}")
        w = (w - 0.1 * dw).astype(np.float32)
        v = (v - 0.1 * dv).astype(np.float32)


if __name__ == "__main__":
    main()
