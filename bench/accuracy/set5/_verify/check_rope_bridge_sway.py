from _harness import run_check


def fix(lines, i):
    line = lines.pop(i)
    j = next(k for k in range(i, len(lines)) if lines[k].lstrip().startswith("for _ in range(steps)"))
    lines.insert(j + 1, "        " + line.lstrip())
    return lines


def consume(m):
    return m.tune(iters=1)[0]


def objective(m, p):
    import warp as wp
    return m.sway(wp.array(p, dtype=wp.vec3d, requires_grad=True)).numpy()[0]


run_check(__file__, "rope_bridge_sway.py", consume, objective, fix=fix,
          what="spring-force accumulator allocated once before the time loop: atomic_add keeps summing forces of all previous steps (fix: allocate it inside the loop)")
