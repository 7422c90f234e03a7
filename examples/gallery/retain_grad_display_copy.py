"""Bug: the displayed density keeps its gradient (retain_grad), and a copy of the scratch result assigns it a
second time on the tape: the copy's adjoint and the first writer's both receive its gradient (twice the truth)."""
import numpy as np
import warp as wp

CELLS = 48


@wp.kernel
def emit(strength: wp.array(dtype=float), width: float, density: wp.array(dtype=float)):
    c = wp.tid()
    u = float(c) / float(CELLS) - 0.5
    density[c] = strength[0] * wp.exp(-u * u / width) + strength[1] * u * u


@wp.kernel
def match(density: wp.array(dtype=float), ref: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    r = density[c] - ref[c]
    wp.atomic_add(loss, 0, r * r)


def main():
    u = np.arange(CELLS) / CELLS - 0.5
    ref = wp.array((1.3 * np.exp(-u * u / 0.05) + 0.4 * u * u).astype(np.float32))
    strength = wp.array([1.0, 0.2], dtype=float, requires_grad=True)
    display = wp.zeros(CELLS, dtype=float, requires_grad=True, retain_grad=True)  # expect: TW203
    scratch = wp.zeros(CELLS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(emit, dim=CELLS, inputs=[strength, 0.05], outputs=[display])
        wp.launch(emit, dim=CELLS, inputs=[strength, 0.05], outputs=[scratch])
        wp.copy(display, scratch)
        wp.launch(match, dim=CELLS, inputs=[display, ref], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0], "dloss/dstrength", strength.grad.numpy())
    print("display grad norm", np.linalg.norm(display.grad.numpy()))
    return strength.grad.numpy()


if __name__ == "__main__":
    main()
