from _harness import load, fd, report

NAME = "hanging_chain_stiffness"
FIX = [
    (NAME, "for _ in range(2)]\n    vs", "for _ in range(STEPS + 1)]\n    vs"),
    (NAME, "wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(2)]",
     "wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS + 1)]"),
    (NAME, "inputs=[xs[s % 2], vs[s % 2], k, DT], outputs=[xs[(s + 1) % 2], vs[(s + 1) % 2]])",
     "inputs=[xs[s], vs[s], k, DT], outputs=[xs[s + 1], vs[s + 1]])"),
    (NAME, "inputs=[xs[STEPS % 2], target]", "inputs=[xs[STEPS], target]"),
]
k0 = 40.0
m = load(NAME)
ad = m.tip_loss(k0)[1]
ref = fd(lambda k: m.tip_loss(k[0])[0], [k0])
mf = load(NAME, FIX, "fixed")
fad = mf.tip_loss(k0)[1]
fref = fd(lambda k: mf.tip_loss(k[0])[0], [k0])
report(NAME, "overwrite", [ad], ref, [fad], fref)
