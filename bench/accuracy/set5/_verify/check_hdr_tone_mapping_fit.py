from _harness import run_check


def consume(m):
    return m.fit(iters=1)[0]


def objective(m, p):
    import warp as wp
    hdr, ref = m.images()
    return m.grading_error(wp.array(p, dtype=wp.float64, requires_grad=True), hdr, ref).numpy()[0]


run_check(__file__, "hdr_tone_mapping_fit.py", consume, objective, fix=("wp.adjoint[x] = ", "wp.adjoint[x] += "),
          what="custom adjoint assigns wp.adjoint[x] instead of accumulating, discarding the linear-toe contribution already accumulated into x's adjoint")
