#!/usr/bin/env python3
"""Independent count for transcript_test.go: reads a Pi session .jsonl the
way Pi's own TypeScript does (loadEntriesFromFile, migrateV1ToV2,
buildSessionContext, getContextUsage, estimateTokens), written straight from
that code without jig's incremental tricks, and prints the expected values
as JSON. Usage: count.py FILE"""
import gzip, json, math, os, sys
from datetime import datetime

def js_len(s):
    return len(s.encode("utf-16-le", "surrogatepass")) // 2 if isinstance(s, str) else 0

MAX_LINE = 32 << 20

def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    raw = opener(path, "rb").read()
    text = raw.decode("utf-8", "replace")
    entries, bad = [], []
    # jig's one departure from Pi: a line longer than its MaxLine (32 MiB)
    # is skipped unread, where Pi would parse it.
    long_lines = {i for i, l in enumerate(raw.split(b"\n")) if len(l) > MAX_LINE}
    for i, line in enumerate(text.split("\n")):
        if not line.strip():
            continue
        if i in long_lines and i + 1 < len(text.split("\n")):
            bad.append(i + 1)
            continue
        try:
            v = json.loads(line)
        except ValueError:
            if i + 1 < len(text.split("\n")) or text.endswith("\n"):
                bad.append(i + 1)
            continue
        if not isinstance(v, dict):
            bad.append(i + 1)
            continue
        entries.append(v)
    return entries, bad

def migrate(entries):
    header = entries[0]
    version = header.get("version", 1)
    if version < 2:
        prev = None
        for n, e in enumerate(entries):
            if e.get("type") == "session":
                continue
            e["id"] = "%08x" % n
            e["parentId"] = prev
            prev = e["id"]
    if version < 3:
        for e in entries:
            m = e.get("message")
            if e.get("type") == "message" and isinstance(m, dict) and m.get("role") == "hookMessage":
                m["role"] = "custom"
    return [e for e in entries if e.get("type") != "session"]

def estimate(m):
    role, c, chars = m.get("role"), m.get("content"), 0
    if role == "user":
        if isinstance(c, str):
            chars = js_len(c)
        else:
            for b in c or []:
                if b.get("type") == "text" and b.get("text"):
                    chars += js_len(b["text"])
    elif role == "assistant":
        for b in c or []:
            t = b.get("type")
            if t == "text":
                chars += js_len(b.get("text"))
            elif t == "thinking":
                chars += js_len(b.get("thinking"))
            elif t == "toolCall":
                chars += js_len(b.get("name")) + js_len(json.dumps(b.get("arguments"), separators=(",", ":"), ensure_ascii=False))
    elif role in ("custom", "toolResult"):
        if isinstance(c, str):
            chars = js_len(c)
        else:
            for b in c or []:
                if b.get("type") == "text" and b.get("text"):
                    chars += js_len(b["text"])
                if b.get("type") == "image":
                    chars += 4800
    elif role == "bashExecution":
        chars = js_len(m.get("command")) + js_len(m.get("output"))
    elif role in ("branchSummary", "compactionSummary"):
        chars = js_len(m.get("summary"))
    return math.ceil(chars / 4)

def ctx_tokens(u):
    return u.get("totalTokens") or (u.get("input", 0) + u.get("output", 0) + u.get("cacheRead", 0) + u.get("cacheWrite", 0))

def ms(e):
    return int(datetime.fromisoformat(e["timestamp"].replace("Z", "+00:00")).timestamp() * 1000)

def main(path):
    raw, bad = load(path)
    header = raw[0]
    entries = migrate(raw)
    by_id = {e["id"]: e for e in entries}
    path_entries, cur = [], entries[-1]
    while cur is not None:
        path_entries.insert(0, cur)
        cur = by_id.get(cur.get("parentId"))
    thinking, model, compaction = "off", None, None
    for e in path_entries:
        t = e.get("type")
        if t == "thinking_level_change":
            thinking = e["thinkingLevel"]
        elif t == "model_change":
            model = [e["provider"], e["modelId"]]
        elif t == "message" and e["message"].get("role") == "assistant":
            model = [e["message"]["provider"], e["message"]["model"]]
        elif t == "compaction":
            compaction = e
    # context messages (buildSessionContext)
    def as_msg(e):
        if e["type"] == "message":
            return [e["message"]]
        if e["type"] == "custom_message":
            return [{"role": "custom", "content": e["content"]}]
        if e["type"] == "branch_summary" and e.get("summary"):
            return [{"role": "branchSummary", "summary": e["summary"]}]
        return []
    msgs = []
    if compaction:
        msgs.append({"role": "compactionSummary", "summary": compaction.get("summary", "")})
        ci = path_entries.index(compaction)
        keep = False
        for e in path_entries[:ci]:
            if e["id"] == compaction.get("firstKeptEntryId"):
                keep = True
            if keep:
                msgs += as_msg(e)
        for e in path_entries[ci + 1:]:
            msgs += as_msg(e)
    else:
        for e in path_entries:
            msgs += as_msg(e)
    tokens = None
    post = True
    if compaction:
        ci = path_entries.index(compaction)
        post = False
        for e in reversed(path_entries[ci + 1:]):
            if e["type"] == "message" and e["message"].get("role") == "assistant":
                a = e["message"]
                if a.get("stopReason") not in ("aborted", "error"):
                    post = ctx_tokens(a["usage"]) > 0
                    break
    if post:
        last = None
        for i in range(len(msgs) - 1, -1, -1):
            m = msgs[i]
            if m.get("role") == "assistant" and m.get("stopReason") not in ("aborted", "error") and m.get("usage"):
                last = i
                break
        if last is None:
            tokens = sum(estimate(m) for m in msgs)
        else:
            tokens = ctx_tokens(msgs[last]["usage"]) + sum(estimate(m) for m in msgs[last + 1:])
    # usage over every assistant in the file
    tot = dict(input=0, output=0, cacheRead=0, cacheWrite=0)
    cost, priced = 0.0, True
    # Pi 1.x (usage-totals.js getUsageCostBreakdown) also counts usage
    # entries, a toolResult's own usage, and a summary's usage
    def usage_of(e):
        t, m = e["type"], e.get("message") or {}
        if t == "message" and m.get("role") == "assistant":
            return m.get("usage")
        if t == "usage" or t in ("compaction", "branch_summary"):
            return e.get("usage")
        if t == "message" and m.get("role") == "toolResult":
            return m.get("usage")
        return None
    for e in entries:
        u = usage_of(e)
        if isinstance(u, dict):
            for k in tot:
                tot[k] += u.get(k, 0)
            c = u.get("cost")
            if isinstance(c, dict) and isinstance(c.get("total"), (int, float)):
                cost += c["total"]
            else:
                priced = False
    # tool calls: results by id, outputs over the file, recent on the branch
    results = {}
    for e in entries:
        m = e.get("message") if e["type"] == "message" else None
        if m and m.get("role") == "toolResult" and m.get("toolCallId") not in results:
            results[m["toolCallId"]] = e
    calls_by_id = {}
    touched, outputs, claimed = set(), {}, set()
    cwd = header["cwd"]
    for e in entries:
        m = e.get("message") if e["type"] == "message" else None
        if not m:
            continue
        if m.get("role") == "assistant":
            for b in m.get("content") or []:
                if b.get("type") in ("toolCall", "tool_use"):
                    calls_by_id.setdefault(b.get("id"), b)
        if m.get("role") == "toolResult":
            b = calls_by_id.get(m.get("toolCallId"))
            if b is None or m["toolCallId"] in claimed:
                continue
            claimed.add(m["toolCallId"])
            if m.get("isError"):
                continue
            args = b.get("arguments", b.get("input")) or {}
            p = args.get("path") if isinstance(args, dict) else None
            if not isinstance(p, str) or b.get("name") not in ("read", "write", "edit"):
                continue
            if p.startswith("@"):
                p = p[1:]
            # Pi expands ~ to its own home, unknown here: left as written
            p = os.path.normpath(p if p.startswith("~") else os.path.join(cwd, p))
            if b["name"] == "read":
                touched.add(p)
                continue
            if p not in outputs:
                outputs[p] = {"created": b["name"] == "write" and p not in touched, "at": 0}
            touched.add(p)
            outputs[p]["at"] = max(outputs[p]["at"], ms(e))
    recent = []
    for e in reversed(path_entries):
        m = e.get("message") if e["type"] == "message" else None
        if not m or m.get("role") != "assistant":
            continue
        for b in reversed([b for b in m.get("content") or [] if b.get("type") in ("toolCall", "tool_use")]):
            r = results.get(b.get("id"))
            outcome = "pending" if r is None else ("error" if r["message"].get("isError") else "ok")
            recent.append([b.get("name"), outcome, ms(e)])
        if len(recent) >= 15:
            break
    outs = sorted(outputs.items(), key=lambda kv: (-kv[1]["at"], kv[0]))
    print(json.dumps({
        "entries": len(entries), "bad": bad, "leaf": entries[-1]["id"],
        "model": model, "thinking": thinking, "usage": tot, "cost": cost if priced else None,
        "contextTokens": tokens,
        "outputs": [[p, "created" if o["created"] else "changed", o["at"]] for p, o in outs],
        "recent": recent[:15],
    }, indent=1))

main(sys.argv[1])
