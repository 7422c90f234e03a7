from _harness import load, fd, report

NAME = "heater_plate_power"
m = load(NAME)
ad = m.loss_and_grad(0.8)[1]
ref = fd(lambda p: m.loss_and_grad(p[0])[0], [0.8])
report(NAME, "correct", [ad], ref)
