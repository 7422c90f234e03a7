"""Preview helpers: turn simulation fields into something a colormap can show."""

import numpy as np
import warp as wp


@wp.kernel
def rescale_field(field: wp.array2d(dtype=float), lo: float, hi: float):
    i, j = wp.tid()
    field[i, j] = (field[i, j] - lo) / (hi - lo)


def to_unit_range(field: wp.array):
    host = field.numpy()
    lo, hi = float(host.min()), float(host.max())
    wp.launch(rescale_field, dim=field.shape, inputs=[field, lo, hi])
    return field


def ascii_preview(field: wp.array, rows=6, cols=24):
    ramp = " .:-=+*#%@"
    f = field.numpy()
    si = max(1, f.shape[0] // rows)
    sj = max(1, f.shape[1] // cols)
    for r in range(0, f.shape[0], si):
        line = "".join(ramp[min(int(f[r, c] * (len(ramp) - 1)), len(ramp) - 1)] for c in range(0, f.shape[1], sj))
        print("   |" + line + "|")
