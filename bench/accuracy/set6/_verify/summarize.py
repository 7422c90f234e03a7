import json, re, sys, glob, os
def bug_lines(prog):
    src = open(prog).read()
    files = [prog] + [f"_{m}.py" if not m.startswith("_") else f"{m}.py" for m in re.findall(r"^(?:from|import) (_\w+)", src, re.M)]
    files = [f.replace("__", "_") for f in files]
    out = []
    for f in files:
        if os.path.exists(f):
            for i, l in enumerate(open(f), 1):
                if "# BUG" in l:
                    out.append(f"{f}:{i}")
    return out
for j in sys.argv[1:]:
    prog = j.replace(".json", ".py")
    d = json.load(open(j))
    print(f"=== {prog}  status={d['status']} counts={d['counts']} incomplete={d['incomplete']} failure={d['failure']} launch_checks={ {k: d['launch_checks'][k] for k in ('checked','passed','failed','inconclusive','skipped')} }")
    print("   BUG:", bug_lines(prog))
    for f in d["findings"]:
        rel = sorted({f"{os.path.basename(r['path'])}:{r['line']}" for r in f.get("related", [])})
        print(f"   {f['code']} {f['severity']} {os.path.basename(f['path'])}:{f['line']} | {f['message'][:150]}")
        print(f"       related: {rel}")
