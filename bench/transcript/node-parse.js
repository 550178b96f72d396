// Pi's loader, as a baseline: read the file, split on "\n", JSON.parse each
// non-blank line and skip the ones that fail (session-manager.ts
// loadEntriesFromFile). Prints the best of N runs in milliseconds.
const fs = require("fs");
const [file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 5);
let best = Infinity;
let entries = 0;
for (let r = 0; r < runs; r++) {
	const t0 = process.hrtime.bigint();
	const content = fs.readFileSync(file, "utf8");
	const out = [];
	for (const line of content.trim().split("\n")) {
		if (!line.trim()) continue;
		try {
			out.push(JSON.parse(line));
		} catch {}
	}
	const ms = Number(process.hrtime.bigint() - t0) / 1e6;
	if (ms < best) best = ms;
	entries = out.length;
}
console.log(JSON.stringify({ ms: best, entries }));
