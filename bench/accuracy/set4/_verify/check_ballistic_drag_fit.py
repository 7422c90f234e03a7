from _harness import load, fd, report

NAME = "ballistic_drag_fit"
FIX = [(NAME, "            wp.launch(drag_step, dim=3, inputs=[state, drag, DT], outputs=[state])",
        "            nxt = make_state(POS0, VEL0)\n"
        "            wp.launch(drag_step, dim=3, inputs=[state, drag, DT], outputs=[nxt])\n"
        "            state = nxt")]
c0 = 0.3
m = load(NAME)
ad = m.simulate(c0)[1]
ref = fd(lambda c: m.simulate(c[0])[0], [c0])
mf = load(NAME, FIX, "fixed")
fad = mf.simulate(c0)[1]
fref = fd(lambda c: mf.simulate(c[0])[0], [c0])
report(NAME, "overwrite", [ad], ref, [fad], fref)
