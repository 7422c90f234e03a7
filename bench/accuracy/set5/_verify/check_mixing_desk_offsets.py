from _harness import run_check


def consume(m):
    return m.learn(iters=2)[1]


def objective(m, p):
    import warp as wp
    raw, ref = m.tracks()
    return m.mix_error(wp.array(p, dtype=wp.float64), raw, ref).numpy()[0]


run_check(__file__, "mixing_desk_offsets.py", consume, objective)
