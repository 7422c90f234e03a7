from _harness import load, fd, report

NAME = "swarm_spread_control"
m = load(NAME)
s = m.Swarm()
s.step(0.5)
c, _, ad = s.step(0.5)


def obj(q):
    s2 = m.Swarm()
    s2.cohesion.assign([q[0]])
    s2.forward()
    return float(s2.loss.numpy()[0])


report(NAME, "correct", [ad], fd(obj, [c]), note="2nd optimizer iteration")
