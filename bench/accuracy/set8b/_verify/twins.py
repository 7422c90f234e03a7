"""Write a correct twin from a bug program and record the bug's fix in fixes_auto.json."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def mk_twin(bug, twin, header, doc_old, doc_new, repls, fix_only=()):
    """repls: (old, new) pairs that turn the bug into the fixed program (first holds the marker).
    fix_only: extra pairs applied to the fix but not needed in the twin (rare)."""
    s = open(os.path.join(ROOT, bug)).read()
    fix = []
    for old, new in repls:
        assert s.count(old) == 1, (bug, old)
        fix.append((bug, old, new))
    if twin:
        t = s
        for old, new in repls:
            t = t.replace(old, new)
        assert t.count(doc_old) == 1, (twin, doc_old)
        t = "# correct: " + header + "\n" + t.replace(doc_old, doc_new)
        open(os.path.join(ROOT, twin), "w").write(t)
    path = os.path.join(HERE, "fixes_auto.json")
    d = json.load(open(path)) if os.path.exists(path) else {}
    d[bug] = fix + [(bug, o, n) for o, n in fix_only]
    json.dump(d, open(path, "w"), indent=1)
