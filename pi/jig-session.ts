/**
 * jig-session: publishes this Pi session's state as jig's status file and
 * applies the requests readers send back (tools and skills on or off,
 * reload when idle).
 *
 * This file only wires Pi's events to jig. The logic lives in Go: one
 * `jig pi bridge` process per session takes JSON lines on its stdin (what Pi
 * knows live), reads the transcript, writes the file when its content
 * changed, takes request files and answers with what to apply. See
 * pi/README.md for the protocol.
 *
 * jig is found through $JIG_BIN or PATH. Without it the extension says so
 * once and stays out of the way. A Pi started with $JIG_PARENT_SESSION set
 * (a child of another agent) writes nothing.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";

const SWITCHES = "jig-session.switches";
const SELF = Symbol.for("jig-session.self"); // the session this process publishes, across reloads
const WARNED = Symbol.for("jig-session.warned");
const FILE_TOOLS = new Set(["write", "edit"]);

type Json = Record<string, unknown>;

function findJig(): string | undefined {
	const fromEnv = process.env.JIG_BIN;
	if (fromEnv) return isExecutable(fromEnv) ? fromEnv : undefined;
	for (const dir of (process.env.PATH ?? "").split(delimiter)) {
		if (dir && isExecutable(join(dir, "jig"))) return join(dir, "jig");
	}
	return undefined;
}

// pluginOf names what registered a tool as a user knows it: the package's
// name, else the extension's file name (its folder's, for an index file);
// "builtin" for Pi's own. Not Pi's source label (cli, auto, local).
function pluginOf(info: any): string {
	const path = String(info?.path ?? "");
	const source = String(info?.source ?? "");
	if (source === "builtin" || path.startsWith("builtin:") || path.startsWith("<builtin:")) return "builtin";
	if (info?.origin === "package" && source) return packageName(source);
	if (path && !path.startsWith("<")) {
		const file = basename(path).replace(/\.[cm]?[jt]s$/, "");
		return file === "index" ? basename(dirname(path)) : file;
	}
	return source || "other";
}

// packageName: npm:@scope/name@1.2.3 → @scope/name; git:github.com/o/repo@v1 → repo;
// a local path → its last folder.
function packageName(source: string): string {
	if (source.startsWith("npm:")) {
		const spec = source.slice(4);
		const at = spec.lastIndexOf("@");
		return at > 0 ? spec.slice(0, at) : spec;
	}
	const s = source.replace(/^[a-z]+:/, "").replace(/@[^/]*$/, "").replace(/\.git$/, "").replace(/\/+$/, "");
	return s.slice(s.lastIndexOf("/") + 1) || source;
}

// skillSource: a package's name, "cli" for --skill, else where Pi found it (user, project).
function skillSource(info: any): string {
	if (info?.origin === "package" && info?.source) return packageName(String(info.source));
	return String(info?.source === "cli" ? "cli" : (info?.scope ?? info?.source ?? ""));
}

// offered keeps, of a provider request's tools, those not switched off by a
// request: Pi 0.x offers the tools of a run's start until the run ends.
// Covers the tool shapes of Pi's providers: {name}, {function: {name}},
// {functionDeclarations: [{name}]}.
function offered(tools: any[], off: Set<string>): any[] {
	const on = (t: any) => !off.has(t?.name ?? t?.function?.name);
	return tools.flatMap((t: any) => {
		if (Array.isArray(t?.functionDeclarations)) {
			const decl = t.functionDeclarations.filter(on);
			return decl.length ? [{ ...t, functionDeclarations: decl }] : [];
		}
		return on(t) ? [t] : [];
	});
}

function isExecutable(path: string): boolean {
	try {
		accessSync(path, constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

export default function jigSession(pi: any) {
	const g = globalThis as any;
	const parent = process.env.JIG_PARENT_SESSION;
	if (parent && parent !== g[SELF]) return; // a child Pi: its parent's terminal, its parent's file

	const jig = findJig();
	let bridge: ChildProcess | undefined;
	let bridgeDead = false;
	let waiters: Array<{ type: string; id?: string; got: (reply?: Json) => void }> = [];
	let sessionId = "";
	let busy = false;
	let settles = false; // Pi 1.x says agent_settled; 0.x only agent_end
	let skillsOff = new Set<string>();
	let toolsOff = new Set<string>(); // switched off by a request
	const skillSources = new Map<string, string>();
	let reloadWanted = false;
	let ctxNow: any; // the latest context Pi handed us: an older one may be stale after a rebind

	const warnOnce = (ctx: any, msg: string) => {
		if (g[WARNED]) return;
		g[WARNED] = true;
		try {
			if (ctx?.hasUI) return ctx.ui.notify(msg, "warning");
		} catch {
			// a stale context: say it on stderr instead
		}
		process.stderr.write(msg + "\n");
	};

	const send = (msg: Json) => {
		if (!bridge || bridgeDead || !bridge.stdin?.writable) return;
		bridge.stdin.write(JSON.stringify(msg) + "\n");
	};

	const startBridge = () => {
		if (bridge && !bridgeDead) return;
		const child = spawn(jig!, ["pi", "bridge"], { stdio: ["pipe", "pipe", "pipe"] });
		bridge = child;
		bridgeDead = false;
		// A bridge that ended its session may still be exiting: only the
		// current one's end counts.
		const dead = () => {
			if (bridge !== child) return false;
			bridgeDead = true;
			const left = waiters; // no answer will come: nobody waits for it
			waiters = [];
			for (const w of left) w.got(undefined);
			return true;
		};
		let stderr = "";
		child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-400)));
		child.stdin!.on("error", () => {}); // a dead bridge is reported once, below
		child.on("error", (err) => {
			if (dead()) warnOnce(ctxNow, `jig: the session bridge did not start: ${err.message}`);
		});
		child.on("exit", (code, signal) => {
			// Only an end it did not choose: after "end" it is no longer the current bridge.
			if (dead() && (code || signal)) {
				warnOnce(ctxNow, `jig: the session bridge stopped (this session is no longer published): ${stderr.trim() || signal || "exit " + code}`);
			}
		});
		createInterface({ input: child.stdout! }).on("line", (line) => {
			let reply: Json;
			try {
				reply = JSON.parse(line);
			} catch {
				return;
			}
			const w = waiters.find((w) => w.type === reply.type && (w.id === undefined || w.id === reply.id));
			if (w) {
				waiters = waiters.filter((x) => x !== w);
				w.got(reply);
			} else onReply(reply, ctxNow);
		});
	};

	// ask sends a line and waits (a little) for the bridge's reply of a type
	// (and id, when given).
	const ask = (msg: Json, type: string, ms = 3000, id?: string) =>
		new Promise<Json | undefined>((done) => {
			if (!bridge || bridgeDead) return done(undefined);
			const w = {
				type,
				id,
				got: (r?: Json) => {
					clearTimeout(timer);
					done(r);
				},
			};
			const timer = setTimeout(() => {
				waiters = waiters.filter((x) => x !== w);
				done(undefined);
			}, ms);
			waiters.push(w);
			send(msg);
		});

	// onReply runs outside Pi's event handlers: nothing it does may throw into
	// Pi's process.
	const onReply = (reply: Json, ctx: any) => {
		try {
			if (reply.type === "apply") apply(reply, ctx);
			else if (reply.type === "notice" && ctx?.hasUI) ctx.ui.notify(`jig: ${reply.message}`, "warning");
		} catch (err) {
			warnOnce(ctx, `jig: ${err instanceof Error ? err.message : String(err)}`);
		}
	};

	// apply puts a request (or restored switches) in force; the bridge
	// worked out what that means.
	const apply = (r: any, ctx: any) => {
		toolsOff = new Set(Object.entries(r.switches?.tools ?? {}).filter(([, on]) => on === false).map(([name]) => name));
		if (Array.isArray(r.active)) {
			pi.setActiveTools(r.active);
			send(inventory());
		}
		skillsOff = new Set(r.skillsOff ?? []);
		if (r.id) {
			pi.appendEntry(SWITCHES, r.switches);
			sendLive(ctx); // the tools count first, so the answer finds it in force
			send({ type: "applied", applied: { id: r.id, active: pi.getActiveTools(), reloadUnsupported: !!r.reload && !settles } });
		}
		if (r.reload) {
			reloadWanted = true;
			if (!busy) reloadNow(ctx);
		}
	};

	const reloadNow = (ctx: any) => {
		if (!reloadWanted) return;
		reloadWanted = false;
		if (settles) pi.sendUserMessage("/session-reload", { expandPromptTemplates: true });
		else if (ctx?.hasUI) ctx.ui.notify("jig: a reload was asked for; type /session-reload", "info");
	};

	const live = (ctx: any): Json => {
		const m = ctx.model;
		const usage = ctx.getContextUsage?.();
		return {
			cwd: ctx.cwd,
			model: m ? { provider: m.provider, id: m.id, name: m.name ?? m.id } : null,
			thinking: pi.getThinkingLevel?.() ?? null,
			state: busy ? "busy" : "idle",
			context: {
				tokens: usage?.tokens ?? null,
				window: usage?.contextWindow ?? m?.contextWindow ?? null,
				percent: usage?.percent ?? null,
			},
			tools: { active: pi.getActiveTools().length, total: pi.getAllTools().length },
		};
	};
	// run, with the live fields, says a run started or ended (and how).
	const sendLive = (ctx: any, run?: Json) => {
		ctxNow = ctx;
		send(run ? { type: "live", live: live(ctx), run } : { type: "live", live: live(ctx) });
	};

	const inventory = () => {
		const active = new Set(pi.getActiveTools());
		const tools = pi.getAllTools().map((t: any) => ({
			name: t.name,
			source: pluginOf(t.sourceInfo),
			active: active.has(t.name),
			hidden: t.exposure === "hidden",
			chars: JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }).length,
		}));
		return { type: "inventory", tools };
	};
	// The skills Pi knows, before a prompt says what each weighs.
	const skillNames = () =>
		(pi.getCommands?.() ?? [])
			.filter((c: any) => c.source === "skill")
			.map((c: any) => {
				const name = String(c.name).replace(/^skill:/, "");
				skillSources.set(name, skillSource(c.sourceInfo));
				return { name, source: skillSources.get(name), chars: 0 };
			});

	const savedSwitches = (ctx: any) => {
		let found: unknown;
		for (const e of ctx.sessionManager.getBranch?.() ?? []) {
			if (e.type === "custom" && e.customType === SWITCHES) found = e.data;
		}
		return found;
	};

	if (!jig) {
		pi.on("session_start", (_e: any, ctx: any) =>
			warnOnce(ctx, "jig: not found ($JIG_BIN or PATH); this session is not published"),
		);
		return;
	}

	pi.on("session_start", async (_event: any, ctx: any) => {
		const id = ctx.sessionManager.getSessionId();
		g[SELF] = id;
		process.env.JIG_PARENT_SESSION = id; // agents started from here are children
		sessionId = id;
		ctxNow = ctx;
		startBridge();
		busy = false;
		send({
			type: "hello",
			session: id,
			sessionFile: ctx.sessionManager.getSessionFile() ?? "",
			pid: process.pid,
			switches: savedSwitches(ctx),
		});
		send({ ...inventory(), skills: skillNames() });
		// The bridge answers with the switches to re-apply; wait for it so the
		// first prompt already goes out with them.
		const r = await ask({ type: "live", live: live(ctx), ready: true }, "ready");
		if (r) apply(r, ctx);
		sendLive(ctx);
	});

	pi.on("session_shutdown", async (event: any) => {
		const old = bridge;
		const running = old && !bridgeDead && old.exitCode === null && old.signalCode === null;
		send({ type: "end", keep: event?.reason === "reload" });
		old?.stdin?.end();
		bridge = undefined;
		if (!old || !running) return;
		// Wait (a little) for its last write: after a reload the next bridge
		// takes on the file it leaves, and after a quit the file is gone.
		await new Promise<void>((done) => {
			const timer = setTimeout(done, 2000);
			old.once("exit", () => {
				clearTimeout(timer);
				done();
			});
		});
	});

	// How the run's last reply stopped: "error" when Pi gave up on an error.
	// 1.x retries inside one run (agent_settled comes after the last try);
	// 0.x ends a run per try, and says nothing of a retry to extensions.
	let lastStop = "";
	pi.on("agent_start", (_e: any, ctx: any) => {
		busy = true;
		lastStop = "";
		send(inventory()); // another extension may have changed the tools
		sendLive(ctx, { phase: "start" }); // a new prompt: what waited is moot
	});
	const idle = (ctx: any) => {
		busy = false;
		sendLive(ctx, { phase: "end", error: lastStop === "error" }); // idle and why, in one write
		reloadNow(ctx);
	};
	pi.on("agent_end", (e: any, ctx: any) => {
		const replies = (e?.messages ?? []).filter((m: any) => m?.role === "assistant");
		if (replies.length) lastStop = String(replies[replies.length - 1].stopReason ?? "");
		if (!settles) idle(ctx);
	});
	settles = typeof pi.on("agent_settled", (_e: any, ctx: any) => idle(ctx)) === "function";

	for (const name of ["turn_start", "turn_end", "model_select", "thinking_level_select", "session_compact"]) {
		pi.on(name, (_e: any, ctx: any) => sendLive(ctx));
	}

	pi.on("tool_call", async (event: any) => {
		const call: Json = { phase: "start", id: event.toolCallId, tool: event.toolName };
		if (toolsOff.has(event.toolName)) {
			// Asked for before the switch reached the model (a 0.x run): refused.
			send({ type: "call", call });
			return { block: true, reason: `jig: ${event.toolName} is off for this session` };
		}
		const p = event.input?.path;
		if (!FILE_TOOLS.has(event.toolName) || typeof p !== "string") return send({ type: "call", call });
		// Whether the file is there before the tool runs is what only this
		// moment knows (created or changed): the bridge reads the path as Pi
		// does and looks, and the tool waits for it (a little).
		call.path = p;
		await ask({ type: "call", call }, "checked", 2000, event.toolCallId);
	});
	// A decision may come before jig's own tool_call handler (jig-core's
	// holds the call while it asks): it goes with the tool's name, known
	// since the call's execution started.
	const callTools = new Map<string, string>();
	pi.on("tool_execution_start", (event: any) => {
		callTools.set(event.toolCallId, event.toolName);
	});
	pi.on("tool_execution_end", (event: any, ctx: any) => {
		callTools.delete(event.toolCallId);
		send({ type: "call", call: { phase: "end", id: event.toolCallId, tool: event.toolName, error: !!event.isError } });
		sendLive(ctx);
	});
	pi.events?.on?.("jig:decision", (d: any) => {
		if (d?.toolCallId) {
			send({ type: "decision", decision: { id: d.toolCallId, tool: callTools.get(d.toolCallId), action: d.action, decision: d.decision, answer: d.answer } });
		}
	});
	// Another extension names the active ticket: { key: "SHOP-142" }; a key of "" or null takes it back.
	pi.events?.on?.("jig:ticket", (d: any) => {
		const key = typeof d === "string" ? d : d?.key;
		send({ type: "ticket", ticket: { key: typeof key === "string" ? key : "" } });
	});
	// A tool switched off mid-run leaves the very next model request, on 0.x
	// too (0.x keeps a run's tools until the run ends; 1.x drops it itself).
	pi.on("before_provider_request", (event: any) => {
		const payload = event?.payload;
		if (!toolsOff.size || !Array.isArray(payload?.tools)) return undefined;
		const tools = offered(payload.tools, toolsOff);
		if (tools.length === payload.tools.length) return undefined;
		const next = { ...payload, tools };
		if (!tools.length) {
			delete next.tools; // an empty list is refused by some providers
			delete next.tool_choice;
		}
		return next;
	});

	// Skills off leave the skills list from the next prompt; /skill:NAME is refused.
	pi.on("before_agent_start", (event: any) => {
		const skillBlock = /\n?[ \t]*<skill>\s*<name>([^<]*)<\/name>[\s\S]*?<\/skill>/g;
		const full: string = event.systemPrompt ?? "";
		const skills = [...full.matchAll(skillBlock)].map((b) => ({ name: b[1], source: skillSources.get(b[1]) ?? "", chars: b[0].length }));
		send({ type: "inventory", skills });
		const opts = event.systemPromptOptions;
		let result: Json | undefined;
		if (settles && Array.isArray(opts?.skills)) {
			opts.skills = opts.skills.filter((s: any) => !skillsOff.has(s.name)); // 1.x rebuilds the prompt from these
		} else if (skillsOff.size) {
			const cut = full.replace(skillBlock, (block, name) => (skillsOff.has(name) ? "" : block));
			if (cut !== full) result = { systemPrompt: cut };
		}
		const prompt: string = (result?.systemPrompt as string) ?? event.systemPrompt ?? "";
		const skillsBlock = /<available_skills>[\s\S]*<\/available_skills>/.exec(prompt)?.[0] ?? "";
		const files = (opts?.contextFiles ?? []).map((f: any) => ({ path: f.path, chars: f.content?.length ?? 0 }));
		send({ type: "context", context: { systemPrompt: prompt.length, skillsPrompt: skillsBlock.length, files } });
		return result;
	});
	pi.on("input", (event: any, ctx: any) => {
		const m = /^\/skill:(\S+)/.exec(event.text ?? "");
		if (m && skillsOff.has(m[1])) {
			if (ctx.hasUI) ctx.ui.notify(`jig: skill ${m[1]} is off for this session`, "warning");
			return { action: "handled" };
		}
		return { action: "continue" };
	});
	// What the messages weigh, before each model call, for contextDetail.
	// Custom messages of Jig's extensions (customType jig…) are a part of their own.
	pi.on("context", (event: any) => {
		let messages = 0;
		let toolResults = 0;
		let jigMessages = 0;
		for (const m of event.messages ?? []) {
			const n = JSON.stringify(m.content ?? "").length;
			if (m.role === "toolResult") toolResults += n;
			else if (m.role === "custom" && String(m.customType ?? "").startsWith("jig")) jigMessages += n;
			else messages += n;
		}
		send({ type: "context", context: { messages, toolResults, jigMessages } });
	});

	pi.registerCommand("session-file", {
		description: "Where this session's jig status file is, and the terminal it names",
		handler: async (_args: string, ctx: any) => {
			const r: any = await ask({ type: "where" }, "where");
			if (!r) return ctx.ui.notify("jig: the session bridge does not answer", "warning");
			ctx.ui.notify(`${r.path}\nterminal: ${r.terminal || "none"}`, "info");
		},
	});
	pi.registerCommand("context", {
		description: "What fills the context: a grid and each part",
		handler: (_args: string, ctx: any) =>
			new Promise<void>((done) => {
				// Not spawnSync: Pi's screen keeps drawing while jig draws the grid.
				execFile(jig, ["session", "context", sessionId], { encoding: "utf8", timeout: 5000 }, (_err, stdout, stderr) => {
					try {
						ctx.ui.notify((stdout || stderr || "jig: no context detail yet").trimEnd(), "info");
					} catch {
						// the session moved on meanwhile: nothing to show it in
					}
					done();
				});
			}),
	});
	pi.registerCommand("session-reload", {
		description: "Reload Pi once the agent is idle (a reader's reload request runs it)",
		handler: async (_args: string, ctx: any) => {
			await ctx.waitForIdle();
			await ctx.reload();
		},
	});
}
