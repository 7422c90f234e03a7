"""Run every check_*.py (and, with --time-programs, each program itself), print a table, write results.json."""
import glob, json, os, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.dirname(HERE)


def main():
    time_programs = "--time-programs" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    results = []
    for check in sorted(glob.glob(os.path.join(HERE, "check_*.py"))):
        name = os.path.basename(check)[6:-3]
        if only and name not in only:
            continue
        entry = {}
        if time_programs:
            t0 = time.time()
            p = subprocess.run([sys.executable, name + ".py"], cwd=SET, capture_output=True, text=True, timeout=600)
            entry["program_s"] = round(time.time() - t0, 1)
            entry["program_rc"] = p.returncode
        p = subprocess.run([sys.executable, check], cwd=HERE, capture_output=True, text=True, timeout=1200)
        lines = [l for l in p.stdout.splitlines() if l.startswith("CHECK:")]
        if not lines:
            entry.update({"file": name + ".py", "error": (p.stdout + p.stderr)[-2000:]})
        else:
            entry.update(json.loads(lines[-1][6:]))
        results.append(entry)
        print(row(entry), flush=True)
    json.dump(results, open(os.path.join(HERE, "results.json"), "w"), indent=1)
    ok = sum(verdict(e) == "OK" for e in results)
    print(f"\n{ok}/{len(results)} programs verified")


def fmt(x):
    return "nan" if x != x else f"{x:.3g}"


def verdict(e):
    if "error" in e:
        return "ERROR"
    if e["kind"] == "bug":
        b, f = e["bug"], e["fixed"]
        if "rel_err" not in b or "rel_err" not in f:
            return "ERROR"
        bug_wrong = b["rel_err"] != b["rel_err"] or b["rel_err"] > 0.05
        return "OK" if bug_wrong and f["rel_err"] < 1e-4 else "FAIL"
    c = e["correct"]
    return "OK" if "rel_err" in c and c["rel_err"] < 1e-4 else "FAIL"


def row(e):
    if "error" in e:
        return f"{e['file']:<36} ERROR {e['error'][-300:]}"
    if e["kind"] == "bug":
        return (f"{e['file']:<36} {e['class']:<18} {e['marker']:<40} bug_rel={fmt(e['bug'].get('rel_err', float('nan'))):<9}"
                f" fixed_rel={fmt(e['fixed'].get('rel_err', float('nan'))):<9} {verdict(e)}")
    return f"{e['file']:<36} {'correct':<18} {'-':<40} rel={fmt(e['correct'].get('rel_err', float('nan'))):<9} {'':<19} {verdict(e)}"


if __name__ == "__main__":
    main()
