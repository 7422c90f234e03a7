"""Scratch-buffer management for the Fourier-feature field in b06."""
import warp as wp


class FieldBuffers:
    """Per-batch work arrays, reallocated only when the batch size changes."""

    def __init__(self, n_feat):
        self.n_feat = n_feat
        self.batch = 0
        self.features = None
        self.pred = None
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def ensure(self, batch):
        if batch != self.batch:
            self.batch = batch
            self.features = wp.zeros((batch, 2 * self.n_feat), dtype=float)  # expect: requires_grad
            self.pred = wp.zeros(batch, dtype=float, requires_grad=True)
        self.loss.zero_()
        return self
