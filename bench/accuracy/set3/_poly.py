import warp as wp


@wp.func
def horner(c: wp.array(dtype=float), x: float):
    # c holds coefficients from the highest degree down to the constant term
    acc = float(0.0)
    for k in range(c.shape[0]):
        acc = acc * x + c[k]  # expect: dynamic_loop
    return acc
