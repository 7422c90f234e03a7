# correct: urea-kinetics fit that keeps the pre-session level in a local variable and stores the cleared level once.
"""Single-pool urea kinetics across a haemodialysis session for eight patients.

Interdialytic urea generation raises the pre-dialysis level, then the
session clears it as exp(-K t / V). The dialyser clearance K (L/h) and the
generation rate G (mmol/h, divided by V) are fitted to post-dialysis urea.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

C_PRE = np.array([24.0, 19.5, 28.1, 22.4, 30.2, 17.8, 26.5, 21.0], dtype=np.float32)  # mmol/L
V_L = np.array([38.0, 32.0, 44.0, 36.0, 47.0, 30.0, 41.0, 35.0], dtype=np.float32)  # L
T_SESS = np.array([4.0, 3.5, 4.5, 4.0, 5.0, 3.5, 4.0, 4.0], dtype=np.float32)  # h
C_POST_OBS = np.array([7.6, 6.0, 9.3, 7.0, 9.5, 5.5, 8.4, 6.6], dtype=np.float32)


@wp.kernel
def session_clearance(c_pre: wp.array(dtype=float), v: wp.array(dtype=float), t_sess: wp.array(dtype=float),
                      p: wp.array(dtype=float), c_post: wp.array(dtype=float)):
    i = wp.tid()
    k = p[0]
    gen = p[1] * t_sess[i] / v[i]
    c_start = c_pre[i] + gen
    c_end = c_start * wp.exp(-k * t_sess[i] / v[i])
    c_post[i] = c_end


@wp.kernel
def urea_misfit(c_post: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = c_post[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / 8.0)


cpre_d, v_d, t_d, obs_d = (wp.array(a, dtype=float) for a in (C_PRE, V_L, T_SESS, C_POST_OBS))
PARAMS0 = [11.0, 6.0]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    c_post = wp.zeros(len(C_PRE), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(session_clearance, dim=len(C_PRE), inputs=[cpre_d, v_d, t_d, params], outputs=[c_post])
        wp.launch(urea_misfit, dim=len(C_PRE), inputs=[c_post, obs_d], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"urea misfit {l:.4f}  dL/dK={g[0]:.4f}  dL/dG={g[1]:.4f}")
