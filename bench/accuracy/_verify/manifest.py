"""The tables of a set's MANIFEST.md, from its measured results: one module for every set.

A set's own ``_verify/make_manifest.py`` says in its words what the set measures (a title and a few
paragraphs) and calls ``write(folder, title, prose)``; the tables below (bug programs, look-alikes,
classes, helpers, the summary and how to reproduce) are built here from ``results.json`` (the shared
``verify.py``), ``fix_results.json`` (``check_fixes.py``) and ``cold_times.json`` (``cold_times.py``,
when measured), the set's ``meta.py`` giving a sentence per program.  Nothing is typed in by hand.
"""
import glob
import importlib.util
import json
import os
import re

from check_fixes import helper_users


def g(v):
    if isinstance(v, str):
        return v
    if v is None:
        return "-"
    return f"{v:.4g}"


def first(a):
    return g(a[0]) if a else "-"


def write(root: str, title: str, prose: list) -> str:
    """Write ``root``/MANIFEST.md: ``title`` (a line), ``prose`` (paragraphs), then the tables."""
    root = os.path.abspath(root)
    here = os.path.join(root, "_verify")
    name = os.path.basename(root)
    spec = importlib.util.spec_from_file_location("meta_" + name, os.path.join(here, "meta.py"))
    meta = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(meta)
    DESC = meta.DESC
    res = json.load(open(os.path.join(here, "results.json")))
    fix = json.load(open(os.path.join(here, "fix_results.json")))
    cold_path = os.path.join(here, "cold_times.json")
    cold = json.load(open(cold_path)) if os.path.exists(cold_path) else {}
    progs = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(root, "[bc][0-9][0-9]_*.py")))
    bugs = [p for p in progs if p.startswith("b")]
    goods = [p for p in progs if p.startswith("c")]
    ROOT = root
    lines = ["# " + title + "\n"]
    lines.extend(prose)
    counts = {}
    lines.append(f"## Bug programs ({len(bugs)})\n")
    lines.append("| program | class | marked line | description | AD[0] | FD[0] | rel_err | verdict | fix | fixed rel_err | fixed verdict | run s (cold / cached) |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in bugs:
        r = res.get(p, {})
        f = fix.get(p, {})
        counts[f.get("cls", "?")] = counts.get(f.get("cls", "?"), 0) + 1
        lines.append(
            f"| `{p}.py` | {f.get('cls', '?')} | `{f.get('marked_file', '?')}:{f.get('marked_line', '?')}` | {DESC.get(p, '')} "
            f"| {first(r.get('ad'))} | {first(r.get('fd'))} | {g(r.get('rel_err'))} | {r.get('verdict')} "
            f"| {f.get('fix', '?').replace('|', chr(92) + '|').replace(chr(10), ' ⏎ ')} | {g(f.get('fixed_rel_err'))} | {f.get('fixed_verdict')} "
            f"| {g(cold.get(p, {}).get('cold_s'))} / {g(r.get('standalone_cached_s'))} |")
    lines.append("")
    lines.append(f"## Correct look-alikes ({len(goods)})\n")
    lines.append("| program | near-miss of | description | AD[0] | FD[0] | rel_err | verdict | run s (cold / cached) |")
    lines.append("|---|---|---|---|---|---|---|---|")
    for p in goods:
        r = res.get(p, {})
        first_line = open(os.path.join(ROOT, p + ".py")).readline().strip()
        m = re.match(r"# correct: (.*)", first_line)
        lines.append(f"| `{p}.py` | {m.group(1) if m else '?'} | {DESC.get(p, '')} | {first(r.get('ad'))} | "
                     f"{first(r.get('fd'))} | {g(r.get('rel_err'))} | {r.get('verdict')} | "
                     f"{g(cold.get(p, {}).get('cold_s'))} / {g(r.get('standalone_cached_s'))} |")
    lines.append("")
    lines.append("## Bug classes\n")
    lines.append("| class | count | bug programs |")
    lines.append("|---|---|---|")
    for c in sorted(counts):
        members = ", ".join(f"`{p}`" for p in bugs if fix.get(p, {}).get("cls") == c)
        lines.append(f"| {c} | {counts[c]} | {members} |")
    lines.append("")
    lines.append("## Helpers\n")
    users = helper_users(ROOT)
    lines.append("| helper | imported by | holds a marker |")
    lines.append("|---|---|---|")
    for h in sorted(os.path.basename(x) for x in glob.glob(os.path.join(ROOT, "_*.py"))):
        marked = any("# expect:" in line for line in open(os.path.join(ROOT, h)))
        lines.append(f"| `{h}` | {', '.join('`' + u + '`' for u in sorted(users.get(h, [])))} | {'yes' if marked else 'no'} |")
    lines.append("")
    ok_b = sum(1 for p in bugs if res.get(p, {}).get("ok"))
    ok_c = sum(1 for p in goods if res.get(p, {}).get("ok"))
    ok_f = sum(1 for p in bugs if fix.get(p, {}).get("ok"))
    lines.append("## Summary\n")
    lines.append(f"- bug programs that DIFFER and run standalone (exit 0): {ok_b} / {len(bugs)}")
    lines.append(f"- correct programs that MATCH and run standalone (exit 0): {ok_c} / {len(goods)}")
    lines.append(f"- fixed variants that MATCH (and run standalone): {ok_f} / {len(bugs)}")
    mx = max((res[p].get("standalone_cached_s", 0) for p in progs if p in res), default=0)
    lines.append(f"- standalone wall time (`python prog.py`, exit 0): at most {mx:.2f} s with Warp's kernel cache warm")
    if cold:
        mx1 = max(v["cold_s"] for v in cold.values())
        bad = [k for k, v in cold.items() if v["rc"] != 0]
        lines.append(f"- with an empty kernel cache (compilation included, `_verify/cold_times.py`): at most {mx1:.2f} s; "
                     f"non-zero exits: {bad if bad else 'none'}")
    lines.append("")
    lines.append(f"Reproduce, from the repository root: `python bench/accuracy/_verify/verify.py bench/accuracy/{name} -j 1 && "
                 f"python bench/accuracy/_verify/check_fixes.py bench/accuracy/{name} -j 1 && "
                 f"python bench/accuracy/{name}/_verify/make_manifest.py` (kernels are cached under `_verify/_kcache`). "
                 "`evaluate` programs are also checked for repeatability: the AD gradient is recomputed after all FD "
                 "calls and must agree (largest `repeat_max_abs_diff` in results.json: "
                 f"{max((v.get('repeat_max_abs_diff') or 0.0) for v in res.values()):.3g}).")
    path = os.path.join(root, "MANIFEST.md")
    open(path, "w").write("\n".join(lines) + "\n")
    return path
