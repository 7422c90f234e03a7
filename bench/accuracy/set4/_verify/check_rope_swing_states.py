from _harness import load, fd, report

NAME = "rope_swing_states"
m = load(NAME)
sim = m.RopeSim()
ad = m.loss_and_grad(sim, 30.0)[1]
ref = fd(lambda k: m.loss_and_grad(sim, k[0])[0], [30.0])
report(NAME, "correct", [ad], ref)
