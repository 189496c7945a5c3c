import { readFile } from "node:fs/promises";
import { request } from "node:https";
import fc from "fast-check";
import { clientCertificateOf, createKmsClient, identityOfSeed, newApiKey, parseApiKey, type KmsClient } from "@mc/kms";
import * as assert from "uvu/assert";
import { fuzzSeed, fuzzSuite, rssOf, type FuzzCtx } from "./fuzz-server.js";
import { describe, requestArb, type FuzzRequest, type Pools } from "./request-fuzz-gen.js";
import { afterSuccess } from "./request-model.js";
import { decide, hexOf, type Model } from "./request-oracle.js";

/**
 * Valid REST and Connect requests of identities with allow and deny policies
 * in two enclaves, mutated (paths, percent-encodings, identity spellings,
 * methods, headers, bodies, sizes), against a real node over TLS. No answer
 * is a 5xx; none is a 2xx the oracle's reading of the policy and enclave
 * rules refuses, or shows another enclave's names; an enclave's audit
 * subscriber sees only its enclave; the node's memory stays bounded.
 */
const fuzz = fuzzSuite("kms requests around policies (fast-check)");
const runs = Number(process.env.FUZZ_RUNS ?? 10000);

const idOf = (key: string) => identityOfSeed(parseApiKey(key) ?? new Uint8Array(32));
const fresh = () => idOf(newApiKey());

interface World {
  readonly model: Model;
  readonly pools: Pools;
  readonly clients: Readonly<Record<string, KmsClient>>;
  readonly identities: Readonly<Record<string, string | undefined>>;
  readonly keys: Readonly<Record<string, string>>;
}

/** Two enclaves with keys, policies (allow and deny, identities written both ways), users and admins; the model says the same. */
async function setUp({ fx, kms }: FuzzCtx): Promise<World> {
  if (!fx || !kms) throw new Error("no server");
  const keys = { u1: newApiKey(), u2: newApiKey(), u12: newApiKey(), adminA: newApiKey(), adminB: newApiKey(), stranger: newApiKey() };
  const id = Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, idOf(v)])) as Record<keyof typeof keys, string>;
  const victim = fresh();
  const scratch = [fresh(), fresh(), fresh()];
  const root = await kms.client();
  const rootId = root.identity ?? "";
  const at = (enclave: string) => ({ "kms-enclave": enclave });
  const ok = async (method: string, path: string, body: unknown, enclave = "default") => {
    const res = await root.send(method, path, body, at(enclave));
    if (res.status !== 200) throw new Error(`set-up ${method} ${path}: ${res.status} ${res.body.toString()}`);
  };
  const rules: Record<string, { allow: string[]; deny: string[]; enclave: string }> = {
    gen: { enclave: "default", allow: ["/v1/key/generate/app-*", "/v1/key/encrypt/app-*", "/v1/key/decrypt/app-*", "/v1/key/describe/*", "/v1/key/list/*", "/v1/identity/*", "/v1/policy/describe/*", "/v1/log/audit", "/v1/status"], deny: ["/v1/key/generate/app-2", `/v1/identity/delete/${victim}`, `/v1/identity/describe/${hexOf(victim)}`, `/v1/identity/create/${hexOf(scratch[2] ?? "").slice(0, 8)}*`, "/v1/policy/describe/secret*"] },
    gen2: { enclave: "default", allow: ["/v1/policy/assign/scratch-p", "/v1/key/create/new-*"], deny: [] },
    "gen-min": { enclave: "default", allow: ["/v1/key/list/*"], deny: [] },
    "secret-p": { enclave: "default", allow: ["/v1/*"], deny: [] },
    "ot-pol": { enclave: "other", allow: ["/v1/key/*", "/v1/identity/list/*", "/v1/policy/*"], deny: ["/v1/key/delete/*", "/v1/key/create/app-*", "/v1/policy/assign/*"] },
    "ot-min": { enclave: "other", allow: ["/v1/key/describe/*"], deny: [] },
  };
  const model: Model = { root: rootId, enclaves: new Map() };
  for (const enclave of ["default", "other"]) model.enclaves.set(enclave, { ids: new Map(), policies: new Map(), keys: new Set() });
  const enclave = (name: string) => model.enclaves.get(name) ?? { ids: new Map(), policies: new Map(), keys: new Set<string>() };
  for (const [name, keysIn] of [["default", ["app-1", "app-2", "df-1", "secret-1"]], ["other", ["app-1", "ot-1"]]] as const) {
    for (const k of keysIn) {
      await ok("POST", `/v1/key/create/${k}`, {}, name);
      enclave(name).keys.add(k);
    }
  }
  for (const [name, r] of Object.entries(rules)) {
    await ok("POST", `/v1/policy/create/${name}`, { allow: r.allow, deny: r.deny }, r.enclave);
    enclave(r.enclave).policies.set(name, { allow: r.allow, deny: r.deny });
  }
  const members: [string, string, boolean, string[]][] = [
    [id.u1, "default", false, ["gen", "gen2"]], [id.u2, "other", false, ["ot-pol"]], [id.u12, "default", false, ["gen-min"]], [id.u12, "other", false, ["ot-min"]],
    [id.adminA, "default", true, []], [id.adminB, "other", true, []], [victim, "default", false, []],
  ];
  for (const [who, name, admin, policies] of members) {
    await ok("POST", `/v1/identity/create/${who}`, admin ? { admin: true } : {}, name);
    for (const pol of policies) await ok("POST", `/v1/policy/assign/${pol}`, { identity: who }, name);
    enclave(name).ids.set(who, { admin, policies: new Set(policies) });
  }
  const ciphertext = (await root.call<{ ciphertext: string }>("POST", "/v1/key/encrypt/app-1", { plaintext: "AA==" })).ciphertext;
  const ca = await readFile(fx.certs.caFile);
  const clients: Record<string, KmsClient> = { root, anon: await createKmsClient({ server: `127.0.0.1:${fx.port}`, ca }) };
  for (const [name, key] of Object.entries(keys)) clients[name] = await kms.client(key);
  const ids = [victim, ...scratch, id.adminA, id.adminB, id.u1, id.u2, rootId];
  const pools: Pools = {
    actors: [["root", 3, ["default", "other"]], ["u1", 6, ["default"]], ["u2", 4, ["other"]], ["u12", 2, ["default", "other"]], ["adminA", 3, ["default"]], ["adminB", 2, ["other"]], ["stranger", 1, ["default"]], ["anon", 1, ["default"]]],
    keys: ["app-1", "app-2", "df-1", "ot-1", "secret-1", "new-1", "new-2"],
    policies: [...Object.keys(rules), "scratch-p"],
    scratchPolicies: ["gen2", "secret-p", "scratch-p"],
    ids,
    scratchIds: [victim, ...scratch, id.adminA, id.adminB],
    patterns: ["*", "app-*", "app-1", "df*", "h1:*", "", "a*b", "../*", hexOf(victim), victim, `${victim.slice(0, 6)}*`],
    rules: ["/v1/key/*", "/v1/key/generate/app-*", "/v1/identity/*", `/v1/identity/delete/${hexOf(victim)}`, `/v1/identity/describe/${victim}`, "/v1/*", "/v1/policy/assign/*", "/v1/key/list/*"],
    ciphertext,
  };
  return { model, pools, clients, identities: { ...id, root: rootId, anon: undefined }, keys: { ...keys, root: kms.rootApiKey ?? "" } };
}

/** u1's audit subscription in its enclave, kept open for the whole run. */
async function watchAudit(fx: FuzzCtx["fx"], apiKey: string): Promise<{ lines: string[]; close(): void }> {
  const cert = await clientCertificateOf(parseApiKey(apiKey) ?? new Uint8Array(32));
  const ca = await readFile(fx?.certs.caFile ?? "");
  const lines: string[] = [];
  let buf = "";
  const req = request({ host: "127.0.0.1", port: fx?.port, path: "/v1/log/audit", ca, cert: cert.cert, key: cert.key, agent: false }, (res) => {
    res.on("data", (c: Buffer) => {
      buf += c.toString();
      const parts = buf.split("\n");
      buf = parts.pop() ?? "";
      lines.push(...parts);
    });
  });
  req.on("error", () => undefined);
  req.end();
  return { lines, close: () => req.destroy() };
}

fuzz("should never let a mutated request around a policy, out of its enclave, into a 5xx or unbounded memory", async (ctx) => {
  const world = await setUp(ctx);
  const pid = ctx.kms?.proc.child.pid;
  const audit = await watchAudit(ctx.fx, world.keys.u1 ?? "");
  const rss: number[] = [];
  const counts = { sent: 0, ok: 0, refusedByOracle: 0, rest: 0, connect: 0 };
  const why: Record<string, number> = {};
  // FUZZ_SURVEY=1 runs on through violations and lists them by kind (to see all a build gets wrong).
  const survey = process.env.FUZZ_SURVEY === "1";
  const violations = new Map<string, { count: number; example: string }>();
  const violation = (kind: string, detail: string): void => {
    if (!survey) assert.unreachable(`${kind}: ${detail}`);
    const v = violations.get(kind) ?? { count: 0, example: detail };
    v.count++;
    violations.set(kind, v);
  };
  const check = async ({ actor, sent }: FuzzRequest): Promise<void> => {
    const verdict = decide(world.model, world.identities[actor], sent);
    const client = world.clients[actor];
    if (!client) throw new Error(`no client ${actor}`);
    const send = () => client.send(sent.method, sent.path, sent.body, sent.headers as Record<string, string>);
    let res: Awaited<ReturnType<KmsClient["send"]>>;
    try {
      // A kept-alive socket the server closed after an earlier 413 can fail the next request
      // before it is read: once more on a fresh socket (a dead server fails both).
      res = await send().catch(send);
    } catch (err) {
      // A request HTTP itself refuses (a target not starting with "/", headers past Node's
      // 16 KiB, a body past 1 MiB) may see the connection closed before it reads the 400,
      // 413 or 431, while its body is still going out: a refusal. Anything else is a failure.
      if (sent.path.startsWith("/") && sent.path.length < 8000 && (sent.body?.length ?? 0) < 1024 * 1024) throw err;
      res = { status: 0, headers: {}, body: Buffer.alloc(0) };
    }
    counts.sent++;
    counts[sent.transport]++;
    if (counts.sent % 250 === 0) rss.push(await rssOf(pid));
    const where = `${describe(actor, sent)} -> ${res.status} ${res.body.toString().slice(0, 200)}`;
    if (res.status >= 500) violation("5xx", where);
    const success = res.status >= 200 && res.status < 300;
    if (verdict.refuse) {
      counts.refusedByOracle++;
      why[verdict.why] = (why[verdict.why] ?? 0) + 1;
      if (success) violation(`allowed although the rules refuse (${verdict.why})`, where);
      return;
    }
    if (!success) return;
    counts.ok++;
    const text = res.body.toString();
    const complaint = afterSuccess(world.model, verdict.parsed, verdict.enclave, sent.method === "HEAD" || text === "" ? {} : JSON.parse(text));
    if (complaint !== undefined) violation(complaint.split(":")[0] ?? complaint, `${complaint}: ${where}`);
  };
  const seed = fuzzSeed("kms request fuzzer", 15015);
  const started = Date.now();
  const reported = async (r: FuzzRequest): Promise<void> => {
    try {
      await check(r);
    } catch (err) {
      // fast-check shows the counterexample; this shows what was wrong with it.
      process.stdout.write(`\n${err instanceof Error ? err.message : String(err)}\n`);
      throw err;
    }
  };
  await fc.assert(fc.asyncProperty(requestArb(world.pools), reported), { numRuns: runs, seed, endOnFailure: true });
  audit.close();
  const mib = (n: number) => Math.round(n / 1024 / 1024);
  process.stdout.write(`kms request fuzzer: ${JSON.stringify(counts)}, refused for ${JSON.stringify(why)} in ${Date.now() - started} ms; ${audit.lines.length} audit events to u1; node RSS MiB ${rss.map(mib).join(" ")}\n`);
  for (const [kind, v] of violations) process.stdout.write(`VIOLATION ${v.count}x ${kind}\n  e.g. ${v.example.slice(0, 600)}\n`);
  assert.is(violations.size, 0, "violations (listed above)");
  assert.ok(counts.ok > runs / 10, "enough requests got through to test the allow side");
  assert.ok(counts.refusedByOracle > runs / 4, "enough requests were refused to test the deny side");
  // Memory: a plateau, not a climb (the first samples include warming up and the big bodies).
  const settled = rss.slice(Math.floor(rss.length / 3));
  assert.ok(Math.max(...rss) < 512 * 1024 * 1024, `node RSS peaked at ${mib(Math.max(...rss))} MiB`);
  assert.ok((settled.at(-1) ?? 0) - Math.min(...settled) < 96 * 1024 * 1024, `node RSS grew from ${mib(Math.min(...settled))} to ${mib(settled.at(-1) ?? 0)} MiB`);
  // The enclave's audit subscriber saw its own enclave's events, and nothing else.
  assert.ok(audit.lines.length > 0, "the audit subscriber got events");
  for (const line of audit.lines) {
    const e = JSON.parse(line) as { request: { enclave: string; path: string } };
    assert.is(e.request.enclave, "default", line);
    assert.not.match(e.request.path, /^\/v1\/(enclave|cluster)\//, line);
  }
  assert.is(ctx.kms?.proc.child.exitCode, null, "the node is still running");
  for (const c of Object.values(world.clients)) c.close();
});

fuzz.run();
