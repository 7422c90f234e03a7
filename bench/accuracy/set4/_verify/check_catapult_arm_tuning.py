import numpy as np
import warp as wp
from _harness import load, fd, report

NAME = "catapult_arm_tuning"
FIX = [("_trainer", "        loss.grad.zero_()", "        tape.zero()")]


def obj(m, a):
    arm = wp.array(a, dtype=wp.float64)
    out = wp.zeros(1, dtype=wp.vec2d)
    loss = wp.zeros(1, dtype=wp.float64)
    wp.launch(m.swing, dim=1, inputs=[arm], outputs=[out])
    wp.launch(m.landing, dim=1, inputs=[out, wp.vec2d(-0.8, 1.0)], outputs=[loss])
    return float(loss.numpy()[0])


def run(m):
    a, _, g = m.train(3)[2]
    return g, fd(lambda x: obj(m, x), a)


m = load(NAME)
ad, ref = run(m)
mf = load(NAME, FIX, "fixed")
fad, fref = run(mf)
report(NAME, "missing_zero", ad, ref, fad, fref, note="3rd optimizer iteration")
