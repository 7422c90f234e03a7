"""Prove that the marked line is the line to change.

    python _verify/check_fixes.py [name-prefix ...]

For every bug program: find the single ``# expect: <class>`` marker in the
program or in a ``_helper.py`` it imports, copy the program and its helpers
to ``_verify/_fixed/<program>/``, replace (or delete) the marked line there
as ``fixes.py`` says, keeping its indentation, and measure the fixed copy with
the same driver as ``verify.py`` (two programs at a time). Every fixed variant
must MATCH. Results go
to ``_verify/fix_results.json``.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from fixes import FIXES  # noqa: E402
from verify import ENV, PY, measure  # noqa: E402

MARK = re.compile(r"#\s*expect:\s*([a-z_]+)\s*$")


def imported_helpers(src):
    names = set(re.findall(r"^\s*(?:from|import)\s+(_[A-Za-z0-9_]+)", src, re.M))
    return sorted(n + ".py" for n in names if os.path.exists(os.path.join(ROOT, n + ".py")))


def find_marker(prog):
    files = [os.path.basename(prog)] + imported_helpers(open(prog).read())
    hits = []
    for f in files:
        for ln, line in enumerate(open(os.path.join(ROOT, f)).read().splitlines(), 1):
            m = MARK.search(line)
            if m:
                hits.append((f, ln, m.group(1), line))
    return files, hits


def helper_users():
    users = {}
    for p in glob.glob(os.path.join(ROOT, "[bc][0-9][0-9]_*.py")):
        for h in imported_helpers(open(p).read()):
            users.setdefault(h, []).append(os.path.basename(p))
    return users


def main():
    filters = sys.argv[1:]
    out_path = os.path.join(HERE, "fix_results.json")
    results = json.load(open(out_path)) if os.path.exists(out_path) else {}
    users = helper_users()
    progs = sorted(glob.glob(os.path.join(ROOT, "b[0-9][0-9]_*.py")))
    if filters:
        progs = [p for p in progs if any(os.path.basename(p).startswith(f) for f in filters)]
    lock = threading.Lock()

    def one(prog):
        name = os.path.basename(prog)[:-3]
        files, hits = find_marker(prog)
        rec = {"program": name}
        if len(hits) != 1:
            rec.update(ok=False, error=f"expected exactly one marker, found {len(hits)}: {hits}")
            results[name] = rec
            print(name, rec["error"])
            return
        f, ln, cls, line = hits[0]
        rec.update(marked_file=f, marked_line=ln, cls=cls, original=line.strip())
        if f != os.path.basename(prog) and users.get(f) != [os.path.basename(prog)]:
            rec["warning"] = f"marked helper {f} is imported by {users.get(f)}"
        if name not in FIXES:
            rec.update(ok=False, error="no entry in fixes.py")
            results[name] = rec
            print(name, rec["error"])
            return
        action = FIXES[name]
        dst = os.path.join(HERE, "_fixed", name)
        shutil.rmtree(dst, ignore_errors=True)
        os.makedirs(dst)
        for g in files:
            shutil.copy(os.path.join(ROOT, g), os.path.join(dst, g))
        lines = open(os.path.join(dst, f)).read().split("\n")
        indent = re.match(r"\s*", lines[ln - 1]).group(0)
        if action[0] == "delete":
            del lines[ln - 1]
            rec["fix"] = "delete line"
        else:
            lines[ln - 1] = indent + action[1].replace("\n", "\n" + indent)
            rec["fix"] = "replace with: " + action[1]
        open(os.path.join(dst, f), "w").write("\n".join(lines))
        res = measure(os.path.join(dst, os.path.basename(prog)))
        sa = subprocess.run([PY, os.path.basename(prog)], cwd=dst, capture_output=True, text=True, env=ENV,
                            timeout=300)
        rec.update(fixed_verdict=res.get("verdict"), fixed_rel_err=res.get("rel_err"), fixed_ad=res.get("ad"),
                   fixed_fd=res.get("fd"), fixed_standalone_rc=sa.returncode,
                   fixed_repeat_max_abs_diff=res.get("repeat_max_abs_diff"))
        rec["ok"] = res.get("verdict") == "MATCH" and sa.returncode == 0
        if res.get("verdict") == "ERROR":
            rec["stderr_tail"] = res.get("stderr_tail")
        with lock:
            results[name] = rec
            print(f"{name:40s} {cls:18s} {f}:{ln:<4d} fixed -> {res.get('verdict'):7s} rel_err={res.get('rel_err') if isinstance(res.get('rel_err'), str) else format(res.get('rel_err', float('nan')), '.3g')} "
                  f"rc={sa.returncode} {'OK' if rec['ok'] else '<<< FAIL'}", flush=True)
            if res.get("verdict") == "ERROR":
                print(res.get("stderr_tail", ""))
            json.dump(results, open(out_path, "w"), indent=1, sort_keys=True)

    with ThreadPoolExecutor(max_workers=2) as ex:
        list(ex.map(one, progs))
    bad = [k for k, v in results.items() if not v.get("ok")]
    print(f"\n{len(results)} fixes checked, {len(bad)} not MATCH: {bad}")


if __name__ == "__main__":
    main()
