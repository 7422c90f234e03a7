import numpy as np
from _harness import load, fd, report

NAME = "particle_mean_height"
m = load(NAME)
a0 = np.linspace(0.3, 1.2, m.N)
p0 = np.concatenate([[4.0], a0])


def ad_of(p):
    _, gs, ga = m.mean_cost_grad(p[0], p[1:])
    return np.concatenate([[gs], ga])


report(NAME, "correct", ad_of(p0), fd(lambda p: m.mean_cost_grad(p[0], p[1:])[0], p0))
