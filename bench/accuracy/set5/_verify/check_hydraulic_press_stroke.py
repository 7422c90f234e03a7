from _harness import run_check


def consume(m):
    return m.shape(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.tracking_error(wp.array(p, dtype=wp.float64), m.reference()).numpy()[0]


run_check(__file__, "hydraulic_press_stroke.py", consume, objective,
          fix=("@wp.kernel(enable_backward=False)", "@wp.kernel"),
          what="the valve-flow kernel on the differentiated path is compiled with enable_backward=False; the tape skips it (warning only) and the command gets no gradient")
