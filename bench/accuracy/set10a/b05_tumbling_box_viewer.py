"""Find the initial spin of a thrown box (asymmetric inertia, so it tumbles)
that brings two markers on it to target points at the end of the flight.
A viewer frame of the final pose, recentred on the launch point, is
recorded for every evaluation.
"""
import numpy as np
import warp as wp

from _rigid import integrate_bodies, marker_loss

DT = 0.01
STEPS = 40
INERTIA = [1.0, 2.0, 3.0]
LAUNCH_POINT = np.array([0.0, 1.0, 0.0], dtype=np.float32)


def recentre(frame):
    """Express a (n, 7) transform array relative to the launch point, for the viewer."""
    frame[:, 0:3] -= LAUNCH_POINT
    return frame


class Throw:
    def __init__(self):
        self.markers = wp.array([[0.3, 0.0, 0.0], [0.0, 0.0, 0.2]], dtype=wp.vec3)
        self.targets = wp.array([[2.1, 0.4, 0.2], [2.0, 0.3, 0.3]], dtype=wp.vec3)
        self.inertia = wp.array([INERTIA], dtype=wp.vec3)
        self.frames = []

    def loss_and_grad(self, spin):
        X = wp.array([[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]], dtype=wp.transform, requires_grad=True)
        v = wp.array([[5.0, 2.0, 0.0]], dtype=wp.vec3, requires_grad=True)
        w = wp.array([spin], dtype=wp.vec3, requires_grad=True)
        w0 = w
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for _ in range(STEPS):
                X1, v1, w1 = wp.empty_like(X), wp.empty_like(v), wp.empty_like(w)
                wp.launch(integrate_bodies, dim=1, inputs=[X, v, w, self.inertia, wp.vec3(0.0, -9.81, 0.0), DT],
                          outputs=[X1, v1, w1])
                X, v, w = X1, v1, w1
            wp.launch(marker_loss, dim=2, inputs=[X, self.markers, self.targets], outputs=[loss])
        self.frames.append(recentre(X.numpy()))  # expect: untaped_write
        tape.backward(loss)
        return float(loss.numpy()[0]), w0.grad.numpy()[0].copy()


throw = Throw()


def evaluate(p):
    return throw.loss_and_grad(np.asarray(p, dtype=np.float32))


PARAMS0 = np.array([1.0, 4.0, 0.5])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("loss", l, "d loss / d spin", g, "last frame", throw.frames[-1])
