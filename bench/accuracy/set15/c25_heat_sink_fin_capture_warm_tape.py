# correct: b25_heat_sink_fin_capture (the capture starts with tape.reset() on a tape that already ran one uncaptured step, so the graph zeroes the registered gradients)
"""Size the eight fins of a plate-fin heat sink: heat removed vs aluminium mass.

Thicker fins conduct better but choke the air channel; the objective is
-(heat removed) + price * mass. Each projected-gradient step (reset the
tape, forward, backward, update) runs once uncaptured, which registers the
gradient arrays on the tape, and is then captured with wp.ScopedCapture and
replayed with wp.capture_launch; the captured tape.reset() zeroes them.
"""
import numpy as np
import warp as wp

from _heatsink import N_FIN, aluminium, fin_balance, projected_step

wp.config.quiet = True

T0 = np.linspace(0.8, 1.6, N_FIN).astype(np.float32)  # mm
MASS_PRICE = 0.02  # W per gram
LR = 0.02


class FinDesigner:
    def __init__(self):
        self.mat = aluminium()
        self.design = wp.array(T0, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()
        self.step_body()
        with wp.ScopedCapture(force_module_load=True) as capture:
            self.step_body()
        self.graph = capture.graph

    def step_body(self):
        self.tape.reset()
        self.loss.zero_()
        with self.tape:
            wp.launch(fin_balance, dim=N_FIN, inputs=[self.design, self.mat, MASS_PRICE], outputs=[self.loss])
        self.tape.backward(self.loss)
        wp.launch(projected_step, dim=N_FIN, inputs=[self.design, self.design.grad, LR])

    def step(self):
        before = self.design.numpy().copy()
        wp.capture_launch(self.graph)
        return before, self.design.grad.numpy().copy(), float(self.loss.numpy()[0])


def objective(designer, t_mm):
    loss = wp.zeros(1, dtype=float)
    wp.launch(fin_balance, dim=N_FIN, inputs=[wp.array(np.asarray(t_mm, dtype=np.float32), dtype=float),
                                              designer.mat, MASS_PRICE], outputs=[loss])
    return float(loss.numpy()[0])


def verify(n_steps=5, eps=1e-3):
    """The gradient the last captured update consumed vs central FD of the objective at that design."""
    fd_designer = FinDesigner()
    for _ in range(n_steps):
        t, g, _ = fd_designer.step()
    fd = []
    for k in range(t.size):
        e = np.zeros(t.size, dtype=np.float64)
        e[k] = eps
        fd.append((objective(fd_designer, t + e) - objective(fd_designer, t - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    d = FinDesigner()
    for it in range(6):
        t, g, loss = d.step()
        print(f"step {it}: objective {loss:.3f} W, fins {np.round(t, 3)} mm")
