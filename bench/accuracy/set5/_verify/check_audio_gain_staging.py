from _harness import run_check


def consume(m):
    return m.learn(iters=1)[0]


def objective(m, p):
    import warp as wp
    raw, ref = m.tracks()
    return m.mix_error(wp.array(p, dtype=wp.float64), raw, ref).numpy()[0]


run_check(__file__, "audio_gain_staging.py", consume, objective, fix=("signal[i] *= gain[c]", "signal[i] = raw[i] * gain[c]"),
          what="in-kernel signal[i] *= gain[c]: the adjoint for gain reads the already-scaled signal, so d/dgain is off by a factor gain")
