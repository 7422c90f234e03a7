"""Prove that each bug program's marked line is the line to change.

    python bench/accuracy/_verify/check_fixes.py SET [name-prefix ...] [--python PY] [-j N]

For every bug program: find the single ``# expect: <class>`` marker in the program or in a
``_helper.py`` it imports, copy the program and its helpers to ``SET/_verify/_fixed/<program>/``,
replace (or delete) the marked line there as ``SET/_verify/fixes.py`` says, keeping its indentation
(a ``\\n`` in a replacement starts a further line at that indentation), and measure the fixed copy with
the driver ``verify.py`` uses. Every fixed variant must MATCH. Results go to
``SET/_verify/fix_results.json``.
"""
import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor

from common import arguments
from verify import measure

MARK = re.compile(r"#\s*expect:\s*([a-z_]+)\s*$")


def imported_helpers(root, src):
    names = set(re.findall(r"^\s*(?:from|import)\s+(_[A-Za-z0-9_]+)", src, re.M))
    return sorted(n + ".py" for n in names if os.path.exists(os.path.join(root, n + ".py")))


def find_marker(root, prog):
    files = [os.path.basename(prog)] + imported_helpers(root, open(prog).read())
    hits = []
    for f in files:
        for ln, line in enumerate(open(os.path.join(root, f)).read().splitlines(), 1):
            m = MARK.search(line)
            if m:
                hits.append((f, ln, m.group(1), line))
    return files, hits


def helper_users(root):
    users = {}
    for p in glob.glob(os.path.join(root, "[bc][0-9][0-9]_*.py")):
        for h in imported_helpers(root, open(p).read()):
            users.setdefault(h, []).append(os.path.basename(p))
    return users


def load_fixes(data):
    spec = importlib.util.spec_from_file_location("fixes", os.path.join(data, "fixes.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.FIXES


def main():
    ns, paths = arguments(__doc__)
    root = paths.root
    fixes = load_fixes(paths.data)
    out_path = os.path.join(paths.data, "fix_results.json")
    results = json.load(open(out_path)) if os.path.exists(out_path) else {}
    users = helper_users(root)
    lock = threading.Lock()

    def one(prog):
        name = os.path.basename(prog)[:-3]
        files, hits = find_marker(root, prog)
        rec = {"program": name}
        if len(hits) != 1 or name not in fixes:
            rec.update(ok=False, error=("no entry in fixes.py" if len(hits) == 1 else
                                        f"expected exactly one marker, found {len(hits)}: {hits}"))
            with lock:
                results[name] = rec
                print(name, rec["error"])
            return
        f, ln, cls, line = hits[0]
        rec.update(marked_file=f, marked_line=ln, cls=cls, original=line.strip())
        if f != os.path.basename(prog) and users.get(f) != [os.path.basename(prog)]:
            rec["warning"] = f"marked helper {f} is imported by {users.get(f)}"
        action = fixes[name]
        dst = os.path.join(paths.data, "_fixed", name)
        shutil.rmtree(dst, ignore_errors=True)
        os.makedirs(dst)
        for g in files:
            shutil.copy(os.path.join(root, g), os.path.join(dst, g))
        lines = open(os.path.join(dst, f)).read().split("\n")
        indent = re.match(r"\s*", lines[ln - 1]).group(0)
        if action[0] == "delete":
            del lines[ln - 1]
            rec["fix"] = "delete line"
        else:
            lines[ln - 1] = indent + action[1].replace("\n", "\n" + indent)
            rec["fix"] = "replace with: " + action[1]
        open(os.path.join(dst, f), "w").write("\n".join(lines))
        res = measure(paths, ns.python, os.path.join(dst, os.path.basename(prog)))
        sa = subprocess.run([ns.python, os.path.basename(prog)], cwd=dst, capture_output=True, text=True,
                            env=paths.env(), timeout=300)
        rec.update(fixed_verdict=res.get("verdict"), fixed_rel_err=res.get("rel_err"), fixed_ad=res.get("ad"),
                   fixed_fd=res.get("fd"), fixed_standalone_rc=sa.returncode,
                   fixed_repeat_max_abs_diff=res.get("repeat_max_abs_diff"))
        rec["ok"] = res.get("verdict") == "MATCH" and sa.returncode == 0
        if res.get("verdict") == "ERROR":
            rec["stderr_tail"] = res.get("stderr_tail")
        rel = res.get("rel_err")
        with lock:
            results[name] = rec
            print(f"{name:40s} {cls:18s} {f}:{ln:<4d} fixed -> {res.get('verdict'):7s} "
                  f"rel_err={rel if isinstance(rel, str) else format(rel if rel is not None else float('nan'), '.3g')} "
                  f"rc={sa.returncode} {'OK' if rec['ok'] else '<<< FAIL'}", flush=True)
            if res.get("verdict") == "ERROR":
                print(res.get("stderr_tail", ""))
            json.dump(results, open(out_path, "w"), indent=1, sort_keys=True)

    with ThreadPoolExecutor(max_workers=ns.j) as ex:
        list(ex.map(one, paths.programs("b[0-9][0-9]_*.py", ns.prefixes)))
    bad = [k for k, v in results.items() if not v.get("ok")]
    print(f"\n{len(results)} fixes checked, {len(bad)} not MATCH: {bad}")


if __name__ == "__main__":
    main()
