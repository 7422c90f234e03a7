from _harness import run_check


def consume(m):
    return m.plan(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.mission_cost(wp.array(p, dtype=wp.vec3d, requires_grad=True)).numpy()[0]


run_check(__file__, "rocket_landing_windows.py", consume, objective,
          fix=("pos = wp.array(pos_end.numpy(), dtype=wp.vec3, requires_grad=True)", "pos = pos_end"),
          what="window state carried through a numpy round trip: the new position array is a leaf, so earlier windows' thrust gets no gradient through position")
