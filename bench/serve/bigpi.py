# Writes a Pi session file of about SIZE bytes: the recorded session's
# message entries (transcript/testdata/recorded/pi-1.6.0.jsonl) again and
# again, on one branch, each entry with a fresh id whose parent is the
# previous one.  python3 bigpi.py SRC OUT SIZE
import json, sys

src, out, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = [json.loads(l) for l in open(src)]
header, entries = lines[0], [e for e in lines[1:] if e.get("type") == "message" and e["message"].get("role") != "system"]
n, parent, written = 0, None, 0
with open(out, "w") as f:
    f.write(json.dumps(header) + "\n")
    while written < size:
        for e in entries:
            n += 1
            e = dict(e, id="%08x" % n, parentId=parent)
            parent = e["id"]
            line = json.dumps(e, separators=(",", ":")) + "\n"
            f.write(line)
            written += len(line)
print(n)
