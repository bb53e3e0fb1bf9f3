// tests/mcp/client.mjs: drive `gpucost mcp` with the official MCP
// TypeScript SDK client over stdio, as an agent's host would.
// Usage: node client.mjs GPUCOST DB EXPECTED_JSON GROUPS_JSON
// EXPECTED_JSON: `gpucost --gpu A100-80 --count 4 --format json` of the
// same cache; GROUPS_JSON: `gpucost --gpu H100 --group-by provider
// --format json`. Prints one line per check and "N passed, N failed".
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";

const [gpucost, db, expectedPath, groupsPath] = process.argv.slice(2);
const expectedGroups = JSON.parse(readFileSync(groupsPath, "utf8"));
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
for (const p of ["format", "db", "help", "group-by", "max-age"])
	check(`find_offers does not take ${p}`, !props.includes(p), props);
check("sort is an enum of the sort keys",
    find?.inputSchema?.properties?.sort?.enum?.includes("gpu-price"));
check("count is an integer", find?.inputSchema?.properties?.count?.type === "integer");
check("spot is a boolean", find?.inputSchema?.properties?.spot?.type === "boolean");

function answer(r) {
	return r?.structuredContent ?? {};
}
// Issue 48: the text is a short summary, never the structured answer
// again; no answer carries every provider's status.
function isShort(what, r) {
	let text = r.content?.[0]?.text ?? "";
	let json;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	check(`${what}: the text is a summary, not the JSON again`, typeof text === "string" &&
	    text.length > 0 && json === undefined, text.slice(0, 200));
	check(`${what}: no status of every provider`, !JSON.stringify(answer(r)).includes("last_error"));
}

// find_offers: the cheapest 4x A100-80 is the CLI's first offer.
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));
let t0 = performance.now();
const offers = await client.callTool({ name: "find_offers", arguments: { gpu: "A100-80", count: 4 } });
const findMs = performance.now() - t0;
check("find_offers succeeds", offers.isError === false, offers);
const first = answer(offers).offers?.[0];
const kept = ["key", "provider", "instance_type", "region", "gpu", "gpu_count", "nodes",
	"total_gpus", "price_hour", "price_gpu_hour", "spot_hour", "spot_gpu_hour",
	"availability", "notes", "launch"];
for (const f of kept) {
	const want = expected.offers[0][f];
	const absent = want === null || (Array.isArray(want) && want.length === 0);
	check(`find_offers: the first offer's ${f} is the CLI's first offer's`,
	    first !== undefined && (absent ? !(f in first) : isDeepStrictEqual(first[f], want)),
	    { mcp: first?.[f], cli: want });
}
check("find_offers: the short shape (no vcpus, source, committed, launch_spot)",
    first !== undefined && !("vcpus" in first) && !("source" in first) && !("committed" in first) &&
    !("launch_spot" in first), first);
check("find_offers: at most 20 rows by default", answer(offers).offers?.length <= 20);
check("find_offers: rows and matched", Number.isInteger(answer(offers).rows) &&
    answer(offers).matched >= answer(offers).rows, answer(offers));
check("find_offers: the data age, once, short", typeof answer(offers).data_age === "string" &&
    answer(offers).data_age.length < 1000, answer(offers).data_age);
check("find_offers: rows folded by instance type",
    answer(offers).offers?.some((o) => o.other_regions > 0 &&
    o.other_region_list?.length > 0 && o.price_gpu_hour_range?.length === 2), answer(offers).offers);
isShort("find_offers", offers);
const h100 = await client.callTool({ name: "find_offers", arguments: { gpu: "H100", count: 8 } });
const h100Bytes = JSON.stringify(h100).length;
check(`find_offers H100 x8: under 16 KB (${h100Bytes} bytes)`, h100Bytes < 16384);

const summary = await client.callTool({ name: "market_summary", arguments: { "group-by": "provider", gpu: "H100" } });
check("market_summary succeeds", summary.isError === false, summary);
check("market_summary: the CLI's --group-by groups",
    isDeepStrictEqual(answer(summary).groups, expectedGroups.groups), answer(summary));
isShort("market_summary", summary);

const history = await client.callTool({ name: "price_history", arguments: { gpu: "H100", count: 8, since: "104w" } });
check("price_history succeeds", history.isError === false, history);
check("price_history: offers with points", answer(history).offers?.[0]?.points?.length > 0, answer(history));
isShort("price_history", history);

const provs = await client.callTool({ name: "providers", arguments: {} });
check("providers succeeds", provs.isError === false, provs);
const plist = answer(provs).providers ?? [];
check("providers: aws with its snapshot date", plist.some((p) => p.provider === "aws" && /^\d{4}-\d\d-\d\d$/.test(p.snapshot_date)), plist);

const launch = await client.callTool({ name: "launch_command", arguments: {
	provider: first?.provider, instance_type: first?.instance_type, region: first?.region } });
check("launch_command succeeds", launch.isError === false, launch);
check("launch_command: the offer's own launch command",
    typeof answer(launch).launch === "string" && answer(launch).launch === first?.launch,
    answer(launch));
isShort("launch_command", launch);
// Issue 48: the key find_offers shows, alone, names the same offer.
const byKey = await client.callTool({ name: "launch_command", arguments: { key: first?.key } });
check("launch_command by key succeeds", byKey.isError === false, byKey);
check("launch_command by key: the same command",
    answer(byKey).launch === first?.launch, answer(byKey));

const cat = await client.callTool({ name: "gpu_catalogue", arguments: { gpu: "H100" } });
check("gpu_catalogue succeeds", cat.isError === false, cat);
check("gpu_catalogue: H100", answer(cat).gpus?.[0]?.id === "H100", answer(cat));
isShort("gpu_catalogue", cat);

// Arguments the tool refuses are tool errors the agent reads (isError,
// revision 2025-11-25), in the CLI's words.
for (const [what, call, want] of [
	["an unknown GPU", { name: "find_offers", arguments: { gpu: "Z999" } }, /unknown GPU/],
	["a misspelt argument", { name: "find_offers", arguments: { gpus: "H100" } },
	    /^unknown argument "gpus"; did you mean gpu\?$/],
	["a count that is a word", { name: "find_offers", arguments: { count: "eight" } },
	    /^count: expected an integer$/],
	["max-age", { name: "find_offers", arguments: { "max-age": "1d" } }, /never refresh/],
	["market_summary without group-by", { name: "market_summary", arguments: {} }, /group-by is required/],
]) {
	const r = await client.callTool(call);
	check(`${what}: a tool error`, r.isError === true && want.test(answer(r).error), r);
	check(`${what}: the text says why`, want.test(r.content?.[0]?.text ?? ""), r.content);
}
// An unknown tool stays a protocol error.
let code;
try {
	await client.callTool({ name: "refresh", arguments: {} });
} catch (e) {
	code = e.code;
}
check("an unknown tool: error -32602", code === -32602, code);

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
