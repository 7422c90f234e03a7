from _harness import load, fd, report

NAME = "tethered_probes"
m = load(NAME)
report(NAME, "correct", [m.spring_grad(2.0)[1]], fd(lambda k: m.spring_grad(k[0])[0], [2.0]))
