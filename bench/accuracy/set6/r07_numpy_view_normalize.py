"""Learn mixture weights for a blend of basis signals; weights are printed normalized."""
import numpy as np
import warp as wp

K = 4
T = 64


@wp.kernel
def blend(w: wp.array(dtype=float), basis: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    t = wp.tid()
    s = float(0.0)
    for k in range(K):
        s += w[k] * w[k] * basis[k, t]
    out[t] = s


@wp.kernel
def l2(a: wp.array(dtype=float), b: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t = wp.tid()
    d = a[t] - b[t]
    wp.atomic_add(loss, 0, d * d)


def main():
    ts = np.linspace(0, 1, T)
    basis_np = np.stack([np.sin((k + 1) * np.pi * ts) for k in range(K)]).astype(np.float32)
    target = wp.array((0.7 * basis_np[0] + 0.2 * basis_np[2]).astype(np.float32))
    basis = wp.array(basis_np)
    w = wp.array([0.6, 0.5, 0.4, 0.3], dtype=float, requires_grad=True)
    out = wp.zeros(T, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(blend, dim=T, inputs=[w, basis], outputs=[out])
        wp.launch(l2, dim=T, inputs=[out, target], outputs=[loss])
        shares = w.numpy()
        shares /= shares.sum()  # expect: untaped_write
        print("weight shares", shares)
    tape.backward(loss)
    print("loss", loss.numpy()[0], "dloss/dw", w.grad.numpy())
    return w.grad.numpy()


if __name__ == "__main__":
    main()
