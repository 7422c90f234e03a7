import numpy as np
from _harness import run_check


def consume(m):
    p, g = m.smooth(iters=1)[0]
    return p[1:-1], g[1:-1]


def objective(m, q):
    import warp as wp
    wps = np.array([[0.0, 0.0, 0.0], [1.0, 1.5, 0.2], [2.0, 0.5, 1.0], [3.0, 1.0, 0.0]])
    wps[1:-1] = q
    return m.Planner().cost(wp.array(wps, dtype=wp.vec3d)).numpy()[0]


run_check(__file__, "drone_path_smoothing.py", consume, objective, fix=(", retain_grad=True)", ")"),
          what="path buffer with retain_grad=True is written twice on the tape (preview + cost); its gradient is not consumed by the last writer and both launches' adjoints push it to the waypoints")
