// jig: publishes every OpenCode session of this process as jig's status
// file, and applies the requests readers send back (a tool off or on).
//
// This file only wires OpenCode's events to jig; the logic lives in Go.
// One `jig opencode bridge` per opencode process takes JSON lines on its
// stdin and keeps one status file per session (opencode/README.md has
// the protocol). Lines are written without waiting: OpenCode never waits
// on jig, and a bridge that dies is started again (a few times) or left.
//
// A tool switched off is refused in tool.execute.before from the session's
// switches file, which the bridge saves before it takes a request: read
// here at once, bounded, and refused when it cannot be read (fail closed).
//
// Plain JavaScript that imports only Node's own modules: OpenCode loads it
// without its plugin package. jig is found through $JIG_BIN, else the path
// `jig install opencode` wrote below.
import { spawn } from "node:child_process"
import { accessSync, closeSync, constants, fstatSync, openSync, promises as fsp, readSync } from "node:fs"
import { isAbsolute, resolve } from "node:path"
import { createInterface } from "node:readline"

const INSTALLED_JIG = "" // jig install opencode: jig's absolute path
const SELF = Symbol.for("jig.opencode") // one bridge per process, whatever loads this file
const FILE_TOOLS = new Set(["write", "edit"])
const HELPERS = new Set(["title", "summary", "compaction"]) // OpenCode's own agents: not the session's model
const MAX_RESTARTS = 3
const SWITCHES_MAX = 64 << 10
const SWITCHES_WAIT = 2000 // ms a call waits for the bridge to name the session's switches file

function findJig() {
	for (const p of [process.env.JIG_BIN, INSTALLED_JIG]) {
		if (!p) continue
		try {
			accessSync(p, constants.X_OK)
			return p
		} catch {}
	}
	return undefined
}

// shared is the process's one bridge and what every instance of the plugin
// (one per project folder OpenCode serves) shares.
function shared() {
	const g = globalThis
	if (g[SELF]) return g[SELF]
	const s = {
		jig: findJig(),
		child: undefined,
		restarts: 0,
		switchesDir: "", // the bridge's folder of switches files, from its first ready
		switches: new Map(), // session → its switches file, as the bridge named it
		waiting: new Map(), // session → resolvers waiting for that name
		clients: new Map(), // session → the SDK client of the instance that hosts it
		agents: new Map(), // session → the agent of its last model call
		children: new Set(), // subagents' sessions: their calls show in their parent's
	}
	g[SELF] = s
	return s
}

function start(s) {
	if (s.child || !s.jig || s.restarts > MAX_RESTARTS) return
	s.restarts++
	let child
	try {
		child = spawn(s.jig, ["opencode", "bridge"], { stdio: ["pipe", "pipe", "ignore"] })
	} catch {
		return
	}
	s.child = child
	const gone = () => {
		if (s.child === child) s.child = undefined
	}
	child.on("error", gone)
	child.on("exit", gone)
	child.stdin.on("error", gone)
	createInterface({ input: child.stdout }).on("line", (line) => {
		try {
			onReply(s, JSON.parse(line))
		} catch {}
	})
	write(s, { type: "hello", pid: process.pid, opencode: process.execPath })
}

function write(s, msg) {
	const c = s.child
	if (!c || !c.stdin.writable) return
	try {
		c.stdin.write(JSON.stringify(msg) + "\n") // buffered: never waits on the bridge
	} catch {}
}

function send(s, msg) {
	if (!s.child) start(s)
	write(s, msg)
}

function onReply(s, r) {
	if (r.type === "ready" && typeof r.switches === "string") s.switchesDir = r.switches
	else if (r.type === "session" && typeof r.session === "string" && typeof r.switches === "string") {
		s.switches.set(r.session, r.switches)
		for (const done of s.waiting.get(r.session) ?? []) done(r.switches)
		s.waiting.delete(r.session)
	} else if (r.type === "apply") {
		apply(s, r).then(
			() => write(s, { type: "applied", id: r.id, session: r.session, ok: true }),
			(err) => write(s, { type: "applied", id: r.id, session: r.session, ok: false, reason: String(err?.message ?? err).slice(0, 200) }),
		)
	}
}

// PLAIN is a session id that is its own file name (status.SafeName's plain
// case; OpenCode's ses_… ids are): its switches file is known without the
// bridge, so a bridge that died does not stop the refusals.
const PLAIN = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/

// switchesFile is the session's switches file: as the bridge named it, or
// in its folder for a plain id, else once the bridge names it (at most
// SWITCHES_WAIT); undefined when it did not.
function switchesFile(s, session) {
	if (s.switches.has(session)) return Promise.resolve(s.switches.get(session))
	if (s.switchesDir && PLAIN.test(session)) return Promise.resolve(s.switchesDir + "/" + session + ".json")
	return new Promise((done) => {
		const timer = setTimeout(() => done(undefined), SWITCHES_WAIT)
		const list = s.waiting.get(session) ?? []
		list.push((p) => {
			clearTimeout(timer)
			done(p)
		})
		s.waiting.set(session, list)
	})
}

// offSwitch reads the switches file at once: "" lets the call run, "?" is
// a file that cannot be read (the call is refused), else the tool is off.
function offSwitch(file, tool) {
	let fd
	try {
		fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
	} catch (err) {
		return err?.code === "ENOENT" ? "" : "?"
	}
	try {
		const st = fstatSync(fd)
		if (!st.isFile() || st.size > SWITCHES_MAX) return "?"
		const buf = Buffer.alloc(st.size)
		let n = 0
		while (n < st.size) {
			const got = readSync(fd, buf, n, st.size - n, n)
			if (got <= 0) break
			n += got
		}
		const sw = JSON.parse(buf.subarray(0, n).toString("utf8"))
		if (typeof sw !== "object" || sw === null) return "?"
		return sw.tools?.[tool] === false ? tool : ""
	} catch {
		return "?"
	} finally {
		closeSync(fd)
	}
}

// existed: whether a file was there before the tool ran (created or
// changed), looked up without blocking OpenCode, at most a second.
async function existed(path) {
	const look = fsp.stat(path).then(
		() => true,
		() => false,
	)
	return Promise.race([look, new Promise((done) => setTimeout(() => done(true), 1000))])
}

// globMatch is OpenCode's wildcard match of a permission name ("*", "mcp_*").
function globMatch(name, pattern) {
	const re = "^" + pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".") + "$"
	return new RegExp(re, "s").test(name)
}

// apply appends the session's permission rules a request asks for: deny
// removes the permission's tools from what the model is offered; restore
// gives back the rules the session's agent has for it (the last matching
// rule wins, so the copies undo jig's deny without allowing more than the
// agent did; "ask" when the agent's rules cannot be read).
async function apply(s, r) {
	const client = s.clients.get(r.session)
	if (!client) throw new Error("no OpenCode instance hosts this session")
	const rules = []
	for (const p of r.deny ?? []) rules.push({ permission: p, pattern: "*", action: "deny" })
	if ((r.restore ?? []).length) {
		let agent
		try {
			const res = await client.app.agents()
			agent = (res?.data ?? []).find((a) => a?.name === (s.agents.get(r.session) ?? "build"))
		} catch {}
		for (const p of r.restore) {
			const own = (agent?.permission ?? []).filter((rule) => typeof rule?.permission === "string" && globMatch(p, rule.permission))
			if (!own.length) rules.push({ permission: p, pattern: "*", action: "ask" })
			for (const rule of own) rules.push({ permission: p, pattern: String(rule.pattern), action: String(rule.action) })
		}
	}
	if (!rules.length) return
	const res = await client.session.update({ path: { id: r.session }, body: { permission: rules } })
	if (res?.error) throw new Error(JSON.stringify(res.error).slice(0, 200))
}

export const JigSession = async (ctx) => {
	if (process.env.JIG_OPENCODE_CHILD) return {} // jig's own `opencode export`: nothing to publish
	const s = shared()
	if (!s.jig) return {}
	const mine = new Set() // the sessions this instance hosts
	const seen = (session) => {
		if (typeof session !== "string" || !session || s.children.has(session)) return false
		mine.add(session)
		s.clients.set(session, ctx.client)
		return true
	}

	return {
		event: async ({ event }) => {
			const p = event?.properties ?? {}
			switch (event?.type) {
				case "session.created":
				case "session.updated": {
					const info = p.info ?? {}
					if (info.parentID && typeof info.id === "string") s.children.add(info.id) // shows in its parent's calls
					if (!seen(info.id)) return
					send(s, { type: "session", session: info.id, created: event.type === "session.created", cwd: info.directory, variant: info.model?.variant })
					return
				}
				case "session.deleted":
					if (seen(p.info?.id)) send(s, { type: "end", sessions: [p.info.id] })
					return
				case "session.status":
					if (seen(p.sessionID)) send(s, { type: "state", session: p.sessionID, state: p.status?.type })
					return
				case "session.idle":
					if (seen(p.sessionID)) send(s, { type: "state", session: p.sessionID, state: "idle" })
					return
				case "message.updated": {
					const m = p.info ?? {}
					if (m.role !== "assistant" || !seen(m.sessionID)) return
					send(s, { type: "message", session: m.sessionID, id: m.id, tokens: m.tokens, cost: m.cost, model: { id: m.modelID, providerID: m.providerID } })
					return
				}
				case "message.part.updated": {
					const part = p.part ?? {}
					if (part.type !== "tool" || part.state?.status !== "error" || !seen(part.sessionID)) return
					send(s, { type: "call", session: part.sessionID, phase: "end", id: part.callID, tool: part.tool, error: true })
					return
				}
				case "permission.asked":
				case "question.asked":
					if (seen(p.sessionID)) {
						const kind = event.type === "permission.asked" ? "permission" : "question"
						send(s, { type: "ask", session: p.sessionID, id: p.id, kind, tool: kind === "permission" ? p.permission : "question", call: p.tool?.callID })
					}
					return
				case "permission.replied":
				case "question.replied":
				case "question.rejected":
					if (seen(p.sessionID)) send(s, { type: "replied", session: p.sessionID, id: p.requestID })
					return
			}
		},
		"chat.params": async (input) => {
			if (!seen(input?.sessionID) || HELPERS.has(input.agent)) return
			s.agents.set(input.sessionID, input.agent)
			const m = input.model ?? {}
			send(s, { type: "model", session: input.sessionID, agent: input.agent, model: { id: m.id, providerID: m.providerID, name: m.name, context: m.limit?.context } })
		},
		"chat.message": async (input) => {
			if (seen(input?.sessionID) && typeof input.variant === "string") send(s, { type: "session", session: input.sessionID, variant: input.variant })
		},
		"tool.definition": async (input) => {
			if (typeof input?.toolID === "string") send(s, { type: "tool", name: input.toolID })
		},
		"tool.execute.before": async (input, output) => {
			if (!seen(input?.sessionID)) return
			const call = { type: "call", session: input.sessionID, phase: "start", id: input.callID, tool: input.tool }
			const file = await switchesFile(s, input.sessionID)
			const off = file === undefined ? "?" : offSwitch(file, input.tool)
			if (off) {
				send(s, call)
				if (off === "?") throw new Error("jig: cannot read this session's tool switches, so every call is refused until it can")
				throw new Error(`jig: tool ${off} is switched off for this session (jig request tool ${off} on turns it back on)`)
			}
			const path = output?.args?.filePath
			if (FILE_TOOLS.has(input.tool) && typeof path === "string" && path) {
				call.path = isAbsolute(path) ? path : resolve(ctx.directory, path)
				call.existed = await existed(call.path)
			}
			send(s, call)
		},
		"tool.execute.after": async (input, output) => {
			if (!seen(input?.sessionID)) return
			const msg = { type: "call", session: input.sessionID, phase: "end", id: input.callID, tool: input.tool }
			if (input.tool === "write" && typeof output?.metadata?.exists === "boolean") msg.existed = output.metadata.exists
			send(s, msg)
		},
		dispose: async () => {
			if (mine.size) write(s, { type: "end", sessions: [...mine] }) // a dead bridge is not started to hear it
		},
	}
}
