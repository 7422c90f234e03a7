from _harness import run_check


def consume(m):
    return m.optimize(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.image_error(wp.array(p, dtype=wp.vec2d, requires_grad=True), m.target_image()).numpy()[0]


run_check(__file__, "splat_coverage_render.py", consume, objective, fix=("csum / wsum", "csum / wp.max(wsum, 1.0e-12)"),
          what="uncovered pixels have wsum = 0; the where-guarded division still differentiates csum/wsum there (0/0) and returns NaN")
