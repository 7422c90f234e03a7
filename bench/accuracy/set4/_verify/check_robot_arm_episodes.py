import numpy as np
from _harness import load, fd, report

NAME = "robot_arm_episodes"
m = load(NAME)
g0 = np.array([1.0, 1.5])
report(NAME, "correct", m.summed_grad(g0)[1], fd(lambda g: m.summed_grad(g)[0], g0))
