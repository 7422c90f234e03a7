"""Fit a heat source: the plotted copy of the final field is rescaled row by row, in place.

The rows are normalised through the field's NumPy view for a preview after the
tape recorded the loss and before backward(): on the CPU that view is the
array's memory, so the loss kernel's adjoint replays with the rescaled rows.
"""

import numpy as np
import warp as wp

ROWS, COLS = 8, 16


@wp.kernel
def heat(source: wp.array(dtype=float), field: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = float(j) - source[0]
    field[i, j] = wp.exp(-0.1 * d * d) * float(i + 1)


@wp.kernel
def mismatch(field: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = field[i, j] - target[i, j]
    wp.atomic_add(loss, 0, r * r * field[i, j])


def preview_rows(field):
    rows = field.numpy()
    for r in range(ROWS):
        peak = rows[r].max()
        if peak > 0.0:
            rows[r] /= peak  # expect@cpu: TW106 (a CPU array's .numpy() is a view; on a GPU a copy the write never reaches)
    return rows


def main():
    source = wp.array([5.0], dtype=float, requires_grad=True)
    field = wp.zeros((ROWS, COLS), dtype=float, requires_grad=True)
    target = wp.array(np.full((ROWS, COLS), 0.5, dtype=np.float32))
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(heat, dim=(ROWS, COLS), inputs=[source], outputs=[field])
        wp.launch(mismatch, dim=(ROWS, COLS), inputs=[field, target], outputs=[loss])
    shown = preview_rows(field)
    tape.backward(loss)
    print("loss", loss.numpy()[0], "d loss / d source", source.grad.numpy()[0], "preview max", shown.max())


if __name__ == "__main__":
    main()
