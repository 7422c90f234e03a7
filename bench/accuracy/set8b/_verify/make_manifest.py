"""Build MANIFEST.md from results.json (verify.py --json) and fix_results.json (check_fixes.py)."""
import glob
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

DESC = {
    "b01": "3rd hidden layer writes ping-pong buffer h_a that layer 2 read (tanh adjoint of layer 2 replays on layer-3 output)",
    "b02": "tmp.zero_() inside the tape after tone_curve read tmp; second blur re-accumulates into it",
    "b03": "wp.copy(d_prev, d) inside the tape after prox_term read d_prev: proximal term's adjoint sees e = 0",
    "b04": "next minibatch assigned into xb/yb after recording, before backward(): adjoints use the next batch",
    "b05": "coverage layers allocated without requires_grad: disc centre/radius gradients are zero",
    "b06": "loss.grad.zero_() where tape.zero() was meant: amp.grad (and pred.grad) accumulate over steps",
    "b07": "density grid allocated once and never cleared: each splat adds to the previous iteration's density",
    "b08": "attention scores (retain_grad=True) recomputed on the tape before the reader: both writers get dL/dscores (x2)",
    "b09": "per-pixel error seeded with ones while the program minimises/report the mean: gradient x N (256)",
    "b10": "encoder tape seeded only with mu's adjoint; logvar adjoint dropped: W_lv gradient zero",
    "b11": "SGD update launched before tape.backward(): it reads zeros (tape.zero() each iter) so theta never moves",
    "b12": "g = shape.grad.numpy() is a CPU view; tape.zero() clears it before the host update uses it",
    "b13": "atomic_add return value used as compaction slot; backward pass does not replay it (adjoints land on slot 0)",
    "b14": "tau = exp(log_tau) launched with record_tape=False inside the tape: log_tau gets no gradient",
    "b15": "h[n, j] *= gain[j] in place: gain's adjoint reads the already-scaled h (in _heads.py)",
    "b16": "rad[i, j] /= white[0] in place: white's adjoint reads the normalised radiance",
    "b17": "pc.z = wp.max(pc.z, near) reassigns a @wp.func parameter's component: clamped points leak d/dz (in _camera.py)",
    "b18": "A[0, 1] = A[0, 1] + shear after the mat22 constructor filled A[0, 1]: theta gets an extra term",
    "b19": "transmittance T = T*(1-alpha) in a dynamic loop (n_steps runtime int): adjoint replays with final T",
    "b20": "Horner recurrence acc = acc*t + c[k] in a dynamic loop: d/d(exposure) uses wrong acc (coeff grads are right)",
    "b21": "wp.where(v > 20, v, log(1+exp(v))) with v ~ 115: rejected branch overflows, 0*inf = NaN gradient",
    "b22": "wp.where(i != j, exp(-sqrt(d2)/h), 0) with self-pairs d2 = 0: sqrt adjoint at 0 gives NaN",
    "b23": "custom adjoint assigns wp.adjoint[r] = ... dropping the quadratic term's contribution (in _robust.py)",
    "b24": "custom adjoint of log-sum-exp smooth union gives b the weight wa instead of 1 - wa (in _sdf_ops.py)",
    "b25": "normalise_rows compiled with enable_backward=False but launched on the tape: bandwidth gradient zero",
    "b26": "one tape per window, state carried by wp.copy outside the tapes: gradient ignores lr's effect on earlier windows",
}


NOTES = """## Notes

* Ground truth forms. Most programs define `PARAMS0` + `evaluate(p)`. Programs whose bug only shows inside
  the training loop define `verify()` instead: b06, b07, b11, b12 (and their twins c06, c07, c11) return the
  gradient the optimiser actually consumed at step k (b11/b12 recover it as (p_before - p_after)/lr, so the
  instrumentation never reads `.grad` itself) and central differences of a fresh evaluation of the objective at
  that iterate.
* Fixes are in `_verify/fixes.py` (+ `fixes_auto.json`); the first replacement of every fix rewrites the marked
  line. Some fixes need companion edits (a new buffer for b01/b15/b16, the slot pass for b13, a constant trip count
  declared for b19/b20, the single-tape horizon for b26). The marker is on the line the catalogue says the finding
  sits on (e.g. the recurrence update for dynamic loops, the `tape = wp.Tape()` per window for b26, the launch
  with `record_tape=False` for b14, the helper call for b04, the `.numpy()` view for b12).
* Markers in helper modules: `_heads.py` (b15), `_camera.py` (b17), `_robust.py` (b23), `_sdf_ops.py` (b24).
  Each of these helpers is imported only by its bug program; the correct twins use `_penalties.py` or inline code.
* Secondary things a tool may legitimately report: b02's second scatter refills the zeroed buffer by accumulation
  (TW101's "reused buffer refilled by accumulation" case) on top of the marked `zero_()`; b06/b09 diverge when run
  standalone (that is the bug's symptom); c19 keeps an `enable_backward=False` kernel in a file that also
  differentiates (the catalogue lists this as a known TW305 false positive, it is launched only off the tape).
* Look-alike traps in the correct set: c01 reuses buffers across epochs on one tape with `tape.reset()`; c02
  calls `zero_()` inside the tape before anything read the buffer; c14 updates an array in place with `-=` and a
  local with `*=`; c15 assigns vector components once each; c16 has a `T = T * (1 - alpha)` recurrence in a
  loop with a module-constant trip count (unrolled); c17 has a `wp.where` whose operand contains `wp.exp`
  (guarded); c20 enters one tape once per window; c21 reads `.grad` between two tapes' backward passes; c22
  seeds `grads={}` with non-unit weights.

## Warp behaviour observed while building the set (Warp 1.19, CPU)

* A dense layer written the obvious way, `z = b[j]; for k in range(x.shape[1]): z += W[j,k]*x[n,k]; y = tanh(z)`,
  gives wrong weight gradients: the bound is dynamic, and the accumulator used after the loop is the pre-loop value
  in the backward pass. With a compile-time bound (module constant or a closure int from a kernel factory) it is right.
  Every kernel in this set uses constant bounds except the two planted dynamic-loop bugs.
* A Horner recurrence in a dynamic loop gives *correct* gradients for the coefficients and wrong ones only for the
  evaluation point (its adjoint is the only one that needs the carried value): the first version of b20 matched FD
  and had to be given a learned exposure to expose the bug.
* retain_grad double counting needs both writers to run before the reader: a recompute placed after the reading
  launch receives a zero adjoint (backward reaches it first) and the gradient stays right (first version of b08).
* Reusing an intermediate buffer across fresh tapes without `tape.zero()` also corrupts gradients: its `.grad`
  keeps the previous backward's adjoint and the new backward adds to it (seen while writing c07; fixed there with
  `tape.zero()`).
* wp.copy inside a tape is differentiated (its adjoint adds dest.grad into src.grad), but the reader of the
  overwritten destination replays on the copied values; in b03 that zeroes the proximal term's contribution.
* atomic_add's returned slot is not replayed in the adjoint: in b13 all gathered adjoints land on one slot, giving
  a constant 0.015 (the spring term only) for the points whose weight went elsewhere.
* `0 * inf` in a rejected `wp.where` operand and `sqrt'(0)` both give NaN gradients while the forward value is exact.
"""


def markers():
    out = {}
    for f in sorted(glob.glob(os.path.join(ROOT, "*.py"))):
        for i, line in enumerate(open(f), 1):
            m = re.search(r"# expect: (\w+)", line)
            if m:
                out[os.path.basename(f)] = (m.group(1), i)
    return out


def imports(prog):
    s = open(os.path.join(ROOT, prog)).read()
    return [m + ".py" for m in re.findall(r"^from (_\w+) import", s, re.M)]


def fmt(v, n=3):
    return "[" + ", ".join(f"{x:.4g}" for x in v[:n]) + "]"


def main():
    res = {os.path.basename(r["path"]): r for r in json.load(open(os.path.join(HERE, "results.json")))}
    fixes = json.load(open(os.path.join(HERE, "fix_results.json")))
    mk = markers()
    lines = ["# set8b: Warp gradient-bug evaluation set (ML, optimisation, graphics)", "",
             "Warp 1.19, CPU. Ground truth: `_verify/verify.py` (central finite differences, step 1e-3 * max(1,|p|),",
             "rel_err = |AD - FD| / |FD| over the differenced components, MATCH if < 2e-2 and finite).",
             "`_verify/check_fixes.py` applies each bug's fix (`_verify/fixes.py`, `fixes_auto.json`) in a scratch copy",
             "and re-runs the check. `_verify/run_all.sh` reruns everything. Helper modules: `_*.py`.", "",
             "## Bug programs", "",
             "| program | class | marked line | bug | AD (first comps) | FD (first comps) | largest diff comp: AD vs FD | rel_err | fixed variant |",
             "|---|---|---|---|---|---|---|---|---|"]
    for prog in sorted(p for p in res if p.startswith("b")):
        r = res[prog]
        cls, where = None, None
        for f in [prog] + imports(prog):
            if f in mk:
                cls, where = mk[f][0], f"{f}:{mk[f][1]}"
        ad, fd = r["ad"], r["fd"]
        diffs = [abs(a - b) if a == a else float("inf") for a, b in zip(ad, fd)]
        k = max(range(len(diffs)), key=lambda i: diffs[i])
        comp = f"p[{r['components'][k]}]: {ad[k]:.4g} vs {fd[k]:.4g}"
        fx = fixes.get(prog, {})
        fxs = f"{fx.get('verdict', '?')} (rel_err {fx.get('rel_err', float('nan')):.1e})"
        lines.append(f"| {prog} | {cls} | {where} | {DESC[prog[:3]]} | {fmt(ad)} | {fmt(fd)} | {comp} | "
                     f"{r['rel_err']:.3g} {r['verdict']} | {fxs} |")
    lines += ["", "## Correct look-alikes", "", "| program | what it looks like / why it is correct | rel_err | verdict |",
              "|---|---|---|---|"]
    for prog in sorted(p for p in res if p.startswith("c")):
        r = res[prog]
        first = open(os.path.join(ROOT, prog)).readline().strip().replace("# correct: ", "")
        lines.append(f"| {prog} | {first} | {r['rel_err']:.2e} | {r['verdict']} |")
    lines += ["", "## Twins", "",
              "b01-c01, b02-c02, b03-c03, b04-c04, b05-c05, b06-c06 (minibatch accumulation look-alike), b07-c07, b08-c08,",
              "b09-c09, b10-c10, b12-c11, b13-c12, b14-c13, b15-c14, b17-c15, b19-c16, b21-c17, b23-c18, b25-c19, b26-c20;",
              "c21 (two objectives on two tapes: grad_read look-alike) and c22 (weighted grads={} seed: seeding look-alike)",
              "stand alone. b11, b16, b18, b20, b22, b24 have no separate twin; their fixed variants are in `_scratch/fix/`.", ""]
    lines += NOTES.splitlines()
    open(os.path.join(ROOT, "MANIFEST.md"), "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
