import json, re, os, sys, glob
os.chdir(sys.argv[1] if len(sys.argv) > 1 else "/tmp/blind")
BASE = sys.argv[2] if len(sys.argv) > 2 else "/tmp/blind/"
def bug_lines(prog):
    src = open(BASE + prog).read()
    files = [prog] + [m + ".py" for m in re.findall(r"^(?:from|import) (_\w+)", src, re.M)]
    out = set()
    for f in files:
        p = BASE + f
        if os.path.exists(p):
            for i, l in enumerate(open(p), 1):
                if "# BUG" in l:
                    out.add((f, i))
    return out
rows = []
for j in sorted(glob.glob("*.json")):
    prog = os.path.basename(j).replace(".json", ".py")
    try:
        d = json.load(open(j))
    except Exception as e:
        rows.append((prog, "NO-JSON")); continue
    bugs = bug_lines(prog)
    warn = [f for f in d["findings"] if f["severity"] in ("warning", "error")]
    tw9 = [f["code"] for f in d["findings"] if f["code"].startswith("TW9")]
    def at(f):
        locs = {(os.path.basename(f["path"]), f["line"])} | {(os.path.basename(r["path"]), r["line"]) for r in f.get("related", [])}
        return locs
    if bugs:
        hit = [f for f in warn if (os.path.basename(f["path"]), f["line"]) in bugs]
        rel = [f for f in warn if at(f) & bugs]
        v = "HIT" if hit else ("HIT-related" if rel else ("WRONG-LINE/MISS" if warn else "MISS"))
    else:
        v = "FALSE-ALARM" if warn else "OK"
    rows.append((prog, v + (" TW9:" + ",".join(tw9) if tw9 else ""), sorted({(f["code"], os.path.basename(f["path"]), f["line"]) for f in warn})))
for r in rows: print(*r)
from collections import Counter
print(Counter(r[1].split()[0] for r in rows))
