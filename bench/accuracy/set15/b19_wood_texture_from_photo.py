"""Fit a procedural wood-grain texture (ring frequency, contrast, tilt) to a defocused photo.

The texture is rendered, blurred by the camera's defocus and compared with the
photo. The blur pass is built once as a launch command (record_cmd=True) on
the persistent texture buffers and replayed on every evaluation.
"""
import numpy as np
import warp as wp

from _texture import RES, box_blur, photo, photo_error, wood_grain

wp.config.quiet = True

PARAMS0 = np.array([7.0, 0.28, 0.12])
FD_EPS = np.array([1e-3, 1e-3, 1e-3])


class TextureFit:
    def __init__(self):
        self.tex = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        self.blurred = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        self.photo = wp.array(photo(), dtype=float)
        self.blur_cmd = wp.launch(box_blur, dim=(RES, RES), inputs=[self.tex], outputs=[self.blurred], record_cmd=True)

    def loss_and_grad(self, p):
        prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(wood_grain, dim=(RES, RES), inputs=[prm], outputs=[self.tex])
            self.blur_cmd.launch()  # expect: record_cmd
            wp.launch(photo_error, dim=(RES, RES), inputs=[self.blurred, self.photo], outputs=[loss])
        tape.backward(loss)
        g = prm.grad.numpy().astype(np.float64)
        tape.zero()
        return float(loss.numpy()[0]), g


FIT = TextureFit()


def evaluate(p):
    return FIT.loss_and_grad(p)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"photo error {L:.3f}; d/d(freq, contrast, tilt) = {g}")
