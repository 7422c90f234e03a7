"""Write ../MANIFEST.md from results.json (produced by run_all.py)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
res = json.load(open(os.path.join(HERE, "results.json")))


def few(v, n=3):
    return "[" + ", ".join("nan" if x != x else f"{x:.4g}" for x in v[:n]) + (", …]" if len(v) > n else "]")


def fmt(x):
    return "nan" if x != x else f"{x:.2e}"


rows = []
for e in sorted(res, key=lambda e: (e.get("kind") != "bug", e.get("class", ""), e["file"])):
    if "error" in e:
        rows.append(f"| {e['file']} | ERROR | | | | | | |")
        continue
    if e["kind"] == "bug":
        b, f = e["bug"], e["fixed"]
        fixed = f"yes (rel_err {fmt(f['rel_err'])})" if f["rel_err"] < 1e-4 else f"NO ({fmt(f['rel_err'])})"
        rows.append(f"| {e['file']} | {e['class']} | {e['marker']} | {e['what']} | {few(b['ad'])} | {few(b['fd'])} | "
                    f"{fmt(b['rel_err'])} | {fixed} |")
    else:
        c = e["correct"]
        rows.append(f"| {e['file']} | correct | - | {e['what']} | {few(c['ad'])} | {few(c['fd'])} | {fmt(c['rel_err'])} | n/a |")

nb = sum(e.get("kind") == "bug" for e in res)
nc = sum(e.get("kind") == "correct" for e in res)
counts = {}
for e in res:
    if e.get("kind") == "bug":
        counts[e["class"]] = counts.get(e["class"], 0) + 1
hdr = f"""# Gradient-bug evaluation set 5

{nb} bug programs and {nc} correct look-alikes (Warp 1.19, CPU). Bug programs carry exactly one
`# expect: <class>` marker at the end of the line to change; correct programs start with `# correct: ...`.

Ground truth (`_verify/run_all.py`, then `_verify/make_manifest.py`): each program is rewritten to float64
(`_verify/_harness.py`: float32 types and float literals inside kernels/funcs become float64), its own driver is run
to the point where it consumes a gradient, and that gradient (AD) is compared with a central finite difference (FD) of the
intended objective at the same parameters. For bug programs the FD reference is always computed with the FIXED
program (marked line changed as given in `_verify/check_<name>.py`), and the fixed program's own consumed gradient is
checked against FD too. rel_err = max|AD-FD| / max|FD|. Bug: rel_err > 0.05 or non-finite; correct/fixed: rel_err < 1e-4.

Bug counts per class: {", ".join(f"{k} {v}" for k, v in sorted(counts.items()))}.

| file | class | marker (file:line) | what | AD (first few) | FD | rel_err | fixed-variant matches FD |
|---|---|---|---|---|---|---|---|
"""
open(os.path.join(os.path.dirname(HERE), "MANIFEST.md"), "w").write(hdr + "\n".join(rows) + "\n")
print("wrote MANIFEST.md", nb, nc)
