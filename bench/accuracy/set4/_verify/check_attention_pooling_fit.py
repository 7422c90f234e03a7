import numpy as np
from _harness import load, fd, report

NAME = "attention_pooling_fit"
# fix: finish the sum in one launch, normalise in a second launch
FIX = [(NAME, "    weight[i] = e / denom[0]  # expect: atomic_replay\n",
        "    weight[i] = e\n\n\n@wp.kernel\ndef normalise(denom: wp.array(dtype=wp.float32), e: wp.array(dtype=wp.float32), weight: wp.array(dtype=wp.float32)):\n"
        "    i = wp.tid()\n    weight[i] = e[i] / denom[0]\n"),
       (NAME, "        wp.launch(attention_weights, dim=N, inputs=[feat, query, denom], outputs=[weight])\n",
        "        expw = wp.zeros(N, dtype=wp.float32, requires_grad=True)\n"
        "        wp.launch(attention_weights, dim=N, inputs=[feat, query, denom], outputs=[expw])\n"
        "        wp.launch(normalise, dim=N, inputs=[denom, expw], outputs=[weight])\n")]
m = load(NAME)
feat = m.features()
q0 = np.array([0.1, 0.1])
ad = m.pool_grad(q0, feat)[1]
ref = fd(lambda q: m.pool_grad(q, feat)[0], q0)
mf = load(NAME, FIX, "fixed")
fad = mf.pool_grad(q0, feat)[1]
fref = fd(lambda q: mf.pool_grad(q, feat)[0], q0)
report(NAME, "atomic_replay", ad, ref, fad, fref, note="forward on CPU sees partial sums (thread order); FD is of the program's own forward")
