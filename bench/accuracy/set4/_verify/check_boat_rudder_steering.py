import numpy as np
import warp as wp
from _harness import load, fd, report

NAME = "boat_rudder_steering"
FIX = [(NAME, "        wp.copy(self.states[0], self.states[STEPS])", "        pass")]
r0 = np.linspace(0.5, 0.2, 8)
m = load(NAME)
boat = m.Boat()
goal = wp.vec2d(0.6, 0.3)
ad = m.Boat().plan_grad(r0, goal)[1]
ref = fd(lambda r: m.Boat().plan_grad(r, goal)[0], r0)
mf = load(NAME, FIX, "fixed")
fad = mf.Boat().plan_grad(r0, goal)[1]
report(NAME, "untaped_write", ad, ref, fad, ref)
