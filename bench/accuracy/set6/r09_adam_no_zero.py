"""Fit a 2-D point cloud's affine transform with warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

N = 64


@wp.kernel
def transform_loss(src: wp.array(dtype=wp.vec2), dst: wp.array(dtype=wp.vec2), A: wp.array(dtype=float),
                   b: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    p = src[i]
    r = wp.vec2(A[0] * p[0] + A[1] * p[1] + b[0], A[2] * p[0] + A[3] * p[1] + b[1]) - dst[i]
    wp.atomic_add(loss, 0, wp.dot(r, r) / float(N))


class Fitter:
    def __init__(self, src, dst):
        self.src, self.dst = src, dst
        self.A = wp.array([1.0, 0.0, 0.0, 1.0], dtype=float, requires_grad=True)
        self.b = wp.zeros(2, dtype=float, requires_grad=True)
        self.opt = Adam([self.A, self.b], lr=0.05)

    def iterate(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(transform_loss, dim=N, inputs=[self.src, self.dst, self.A, self.b], outputs=[loss])
        tape.backward(loss)  # expect: missing_zero
        self.opt.step([self.A.grad, self.b.grad])
        return loss.numpy()[0]


def main():
    rng = np.random.default_rng(9)
    src = rng.normal(size=(N, 2)).astype(np.float32)
    A_true = np.array([[1.2, 0.3], [-0.2, 0.9]], dtype=np.float32)
    dst = (src @ A_true.T + np.array([0.5, -0.3], dtype=np.float32)).astype(np.float32)
    fitter = Fitter(wp.array(src, dtype=wp.vec2), wp.array(dst, dtype=wp.vec2))
    for it in range(8):
        print(f"it {it}: loss {fitter.iterate():.5f}")


if __name__ == "__main__":
    main()
