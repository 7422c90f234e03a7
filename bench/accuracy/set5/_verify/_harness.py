"""Verification harness: float64 rewrite of a program (+ its _helpers), optional fix of the
marked line, evaluation in a subprocess, comparison of the consumed AD gradient with central FD."""
import json, os, re, subprocess, sys, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.dirname(HERE)
MARK = re.compile(r"#\s*expect:\s*([a-z_]+)")

TYPE_RULES = [
    (r"\bwp\.float32\b", "wp.float64"),
    (r"\bnp\.float32\b", "np.float64"),
    (r"\bwp\.vec([234])\b", r"wp.vec\1d"),
    (r"\bwp\.mat(22|33|44)\b", r"wp.mat\1d"),
    (r"\bwp\.quat\b", "wp.quatd"),
    (r"\bwp\.transform\b", "wp.transformd"),
]
LIT = re.compile(r"(?<![\w.])((?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w])")
DECO = re.compile(r"^\s*@wp\.(kernel|func|func_grad|func_replay)\b")


def to_f64(src):
    out, pending, body_indent = [], False, None
    for line in src.splitlines(keepends=True):
        stripped = line.lstrip()
        ind = len(line) - len(stripped)
        if body_indent is not None and stripped.strip() and ind <= body_indent:
            body_indent = None
        if DECO.match(line):
            pending = True
        elif pending and stripped.startswith("def "):
            pending, body_indent = False, ind
        elif body_indent is not None and stripped.strip():
            code, sep, comment = line.partition("#")
            line = LIT.sub(r"wp.float64(\1)", code) + sep + comment
        out.append(line)
    s = "".join(out)
    for a, b in TYPE_RULES:
        s = re.sub(a, b, s)
    return s


def program_files(prog):
    """program file + helper modules (_*.py in the set folder) it imports (transitively)."""
    files, todo = [], [prog]
    while todo:
        f = todo.pop()
        if f in files:
            continue
        files.append(f)
        src = open(os.path.join(SET, f)).read()
        for mod in re.findall(r"^\s*(?:from|import)\s+(_\w+)", src, re.M):
            if os.path.exists(os.path.join(SET, mod + ".py")):
                todo.append(mod + ".py")
    return files


def find_marker(prog):
    hits = []
    for f in program_files(prog):
        for i, line in enumerate(open(os.path.join(SET, f)).read().splitlines(), 1):
            m = MARK.search(line)
            if m:
                hits.append((f, i, m.group(1)))
    return hits


def build(prog, variant, fix):
    d = os.path.join(HERE, "_build", prog[:-3], variant)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for f in program_files(prog):
        lines = open(os.path.join(SET, f)).read().splitlines(keepends=True)
        if variant == "fixed":
            for i, line in enumerate(lines):
                if MARK.search(line):
                    if callable(fix):
                        lines = fix(lines, i)
                    else:
                        old, new = fix
                        assert old in line, f"fix text {old!r} not on marked line {f}:{i+1}"
                        lines[i] = line.replace(old, new)
                    break
        open(os.path.join(d, f), "w").write(to_f64("".join(lines)))
    return d


def move_line(offset):
    """fix: move the marked line `offset` lines (down if >0) keeping the target's indentation."""
    def f(lines, i):
        line = lines.pop(i)
        j = i + offset if offset < 0 else i + offset - 1
        ref = lines[j] if offset < 0 else lines[j]
        ind = ref[: len(ref) - len(ref.lstrip())]
        lines.insert(j + (0 if offset < 0 else 1), ind + line.lstrip())
        return lines
    return f


def rel_err(ad, fd):
    import numpy as np
    ad, fd = np.asarray(ad, float).ravel(), np.asarray(fd, float).ravel()
    if not np.all(np.isfinite(ad)):
        return float("nan")
    return float(np.max(np.abs(ad - fd)) / max(np.max(np.abs(fd)), 1e-300))


def central_fd(f, x, eps=1e-6):
    import numpy as np
    x = np.array(x, dtype=np.float64)
    g = np.zeros_like(x)
    flat = x.reshape(-1)
    gf = g.reshape(-1)
    for i in range(flat.size):
        h = eps * max(1.0, abs(flat[i]))
        xp = flat.copy(); xp[i] += h
        xm = flat.copy(); xm[i] -= h
        gf[i] = (f(xp.reshape(x.shape)) - f(xm.reshape(x.shape))) / (2 * h)
    return g


def _sub(check_file, d, mode, point=None):
    env = dict(os.environ)
    if point is not None:
        env["CHECK_POINT"] = json.dumps(point)
    p = subprocess.run([sys.executable, os.path.abspath(check_file), "--variant-dir", d, "--mode", mode],
                       capture_output=True, text=True, timeout=600, env=env)
    lines = [l for l in p.stdout.splitlines() if l.startswith("RESULT:")]
    if not lines:
        return {"error": (p.stdout + p.stderr)[-3000:]}
    return json.loads(lines[-1][7:])


def run_check(check_file, prog, consume, objective, fix=None, what="", eps=1e-6):
    """consume(m) -> (point, ad): run the program's driver, return the parameters at which it consumed
    a gradient and that gradient. objective(m, point) -> float: the intended objective at point.
    For bug programs the FD reference is always computed with the FIXED program's objective."""
    if "--variant-dir" in sys.argv:
        d = sys.argv[sys.argv.index("--variant-dir") + 1]
        mode = sys.argv[sys.argv.index("--mode") + 1]
        sys.path.insert(0, d)
        os.chdir(d)
        import importlib, numpy as np, warp as wp
        wp.config.quiet = True
        m = importlib.import_module(prog[:-3])
        if mode == "consume":
            p, ad = consume(m)
            p = np.asarray(p, float)
            print("RESULT:" + json.dumps({"point": p.tolist(), "ad": np.asarray(ad, float).ravel().tolist()}))
        else:
            p = np.asarray(json.loads(os.environ["CHECK_POINT"]), float)
            fd = central_fd(lambda q: float(objective(m, q)), p, eps)
            print("RESULT:" + json.dumps({"fd": fd.ravel().tolist()}))
        return
    markers = find_marker(prog)
    first = open(os.path.join(SET, prog)).readline()
    if markers:
        assert len(markers) == 1, markers
        f, ln, cls = markers[0]
        kind, marker = "bug", f"{f}:{ln}"
        assert fix is not None
        dirs = {"bug": build(prog, "bug", fix), "fixed": build(prog, "fixed", fix)}
        ref = dirs["fixed"]
    else:
        assert first.startswith("# correct:"), prog
        kind, cls, marker = "correct", "-", "-"
        what = what or first[len("# correct:"):].strip()
        dirs = {"correct": build(prog, "correct", None)}
        ref = dirs["correct"]
    res = {"file": prog, "kind": kind, "class": cls, "marker": marker, "what": what}
    for v, d in dirs.items():
        r = _sub(check_file, d, "consume")
        if "error" not in r:
            r2 = _sub(check_file, ref, "fd", r["point"])
            if "error" in r2:
                r = r2
            else:
                r["fd"] = r2["fd"]
                r["rel_err"] = rel_err(r["ad"], r["fd"])
                del r["point"]
        res[v] = r
    print("CHECK:" + json.dumps(res))
    for v in dirs:
        if "error" in res[v]:
            print(v, res[v]["error"], file=sys.stderr)
    for v in dirs:
        if "rel_err" in res[v]:
            print(f"{v}: rel_err={res[v]['rel_err']:.3g} ad={res[v]['ad'][:4]} fd={res[v]['fd'][:4]}", file=sys.stderr)
