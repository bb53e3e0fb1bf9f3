// tests/mcp/client.mjs: drive `gpucost mcp` with the official MCP
// TypeScript SDK client over stdio, as an agent's host would.
// Usage: node client.mjs GPUCOST DB EXPECTED_JSON
// EXPECTED_JSON: `gpucost --gpu A100-80 --count 4 --format json` of the
// same cache. Prints one line per check and "N passed, N failed".
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const [gpucost, db, expectedPath] = process.argv.slice(2);
let passed = 0, failed = 0;
function check(what, ok, detail) {
	if (ok) {
		passed++;
	} else {
		failed++;
		console.log(`FAIL: ${what}${detail !== undefined ? ": " + JSON.stringify(detail).slice(0, 600) : ""}`);
	}
}

const transport = new StdioClientTransport({
	command: gpucost,
	args: ["mcp", "--db", db],
	env: { ...process.env },
	stderr: "inherit",
});
const client = new Client({ name: "gpucost-test", version: "1.0.0" });
await client.connect(transport);

const info = client.getServerVersion();
check("serverInfo names gpucost", info?.name === "gpucost", info);
check("the server has tools", client.getServerCapabilities()?.tools !== undefined);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name).sort();
check("six tools", names.length === 6, names);
check("the six tools are named", isDeepStrictEqual(names, [
	"find_offers", "gpu_catalogue", "launch_command", "market_summary",
	"price_history", "providers"]), names);
const find = tools.find((t) => t.name === "find_offers");
const props = Object.keys(find?.inputSchema?.properties ?? {});
for (const p of ["gpu", "count", "provider", "region", "max-price", "interconnect", "min-vram", "spot", "sort", "limit"])
	check(`find_offers takes ${p}`, props.includes(p), props);
for (const p of ["format", "db", "help", "group-by"])
	check(`find_offers does not take ${p}`, !props.includes(p), props);
check("sort is an enum of the sort keys",
    find?.inputSchema?.properties?.sort?.enum?.includes("gpu-price"));
check("count is an integer", find?.inputSchema?.properties?.count?.type === "integer");
check("spot is a boolean", find?.inputSchema?.properties?.spot?.type === "boolean");

function answer(r) {
	return r?.structuredContent ?? {};
}
function hasAge(what, r) {
	const s = answer(r);
	check(`${what}: carries the data age`, Array.isArray(s.data_age) && s.data_age.length > 0 &&
	    s.data_age.every((p) => "age_seconds" in p && "source" in p), s.data_age);
	check(`${what}: carries notes`, Array.isArray(s.notes), s.notes);
	check(`${what}: the text is the same answer`,
	    isDeepStrictEqual(JSON.parse(r.content?.[0]?.text ?? "null"), s));
}

// find_offers: the cheapest 4x A100-80 is the CLI's first offer.
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));
let t0 = performance.now();
const offers = await client.callTool({ name: "find_offers", arguments: { gpu: "A100-80", count: 4 } });
const findMs = performance.now() - t0;
check("find_offers succeeds", offers.isError === false, offers);
const first = answer(offers).result?.offers?.[0];
check("find_offers: the cheapest 4x A100-80 is the CLI's first offer",
    first !== undefined && isDeepStrictEqual(first, expected.offers[0]),
    { mcp: first, cli: expected.offers[0] });
check("find_offers: at most 20 offers by default", answer(offers).result?.offers?.length <= 20);
check("find_offers: the data-age note", answer(offers).notes?.some((n) => n.includes("data age")), answer(offers).notes);
hasAge("find_offers", offers);

const summary = await client.callTool({ name: "market_summary", arguments: { "group-by": "provider", gpu: "H100" } });
check("market_summary succeeds", summary.isError === false, summary);
const groups = answer(summary).result?.groups;
check("market_summary: a group per provider", Array.isArray(groups) && groups.length > 1 &&
    groups.every((g) => typeof g.provider === "string"), answer(summary).result);
hasAge("market_summary", summary);

const history = await client.callTool({ name: "price_history", arguments: { gpu: "H100", count: 8, since: "104w" } });
check("price_history succeeds", history.isError === false, history);
check("price_history: offers with points", answer(history).result?.offers?.[0]?.points?.length > 0, answer(history).result);
hasAge("price_history", history);

const provs = await client.callTool({ name: "providers", arguments: {} });
check("providers succeeds", provs.isError === false, provs);
const plist = answer(provs).result?.providers ?? [];
check("providers: aws with its snapshot date", plist.some((p) => p.provider === "aws" && /^\d{4}-\d\d-\d\d$/.test(p.snapshot_date)), plist);
hasAge("providers", provs);

const launch = await client.callTool({ name: "launch_command", arguments: {
	provider: first?.provider, instance_type: first?.instance_type, region: first?.region } });
check("launch_command succeeds", launch.isError === false, launch);
check("launch_command: the offer's own launch command",
    typeof answer(launch).result?.launch === "string" && answer(launch).result.launch === first?.launch,
    answer(launch).result);
hasAge("launch_command", launch);
// Issue 48: the key find_offers shows, alone, names the same offer.
const byKey = await client.callTool({ name: "launch_command", arguments: { key: first?.key } });
check("launch_command by key succeeds", byKey.isError === false, byKey);
check("launch_command by key: the same command",
    answer(byKey).result?.launch === first?.launch, answer(byKey).result);

const cat = await client.callTool({ name: "gpu_catalogue", arguments: { gpu: "H100" } });
check("gpu_catalogue succeeds", cat.isError === false, cat);
check("gpu_catalogue: H100", answer(cat).result?.gpus?.[0]?.id === "H100", answer(cat).result);
hasAge("gpu_catalogue", cat);

// A value the program refuses is a tool error the agent can read.
const bad = await client.callTool({ name: "find_offers", arguments: { gpu: "Z999" } });
check("an unknown GPU is a tool error", bad.isError === true && /unknown GPU/.test(answer(bad).error), bad);
// Arguments of the wrong shape and unknown tools are -32602.
for (const [what, call] of [
	["an unknown tool", { name: "refresh", arguments: {} }],
	["an unknown argument", { name: "find_offers", arguments: { format: "csv" } }],
	["a count that is a string", { name: "find_offers", arguments: { count: "4" } }],
	["market_summary without group-by", { name: "market_summary", arguments: {} }],
]) {
	let code;
	try {
		await client.callTool(call);
	} catch (e) {
		code = e.code;
	}
	check(`${what}: error -32602`, code === -32602, code);
}

// The round trip: ping, and the query above.
const n = 50;
t0 = performance.now();
for (let i = 0; i < n; i++)
	await client.ping();
const pingMs = (performance.now() - t0) / n;
console.log(`round trip: ping ${pingMs.toFixed(2)} ms (mean of ${n}), find_offers ${findMs.toFixed(1)} ms`);

await client.close();
console.log(`client.mjs: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
