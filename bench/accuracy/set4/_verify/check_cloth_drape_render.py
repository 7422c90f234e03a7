import warp as wp
from _harness import load, fd, report

NAME = "cloth_drape_render"
m = load(NAME)
buf = wp.zeros((m.G, m.G), dtype=wp.vec3d)
ad = m.step_grad(50.0, buf)[1]
report(NAME, "correct", [ad], fd(lambda k: m.step_grad(k[0], buf)[0], [50.0]))
