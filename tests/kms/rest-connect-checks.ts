// The parts of the REST/Connect comparison that need more than one request:
// status bodies (shaped differently on purpose) and the audit log stream.
import { readFile } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { request } from "node:https";
import { createInterface } from "node:readline";
import type { JsonObject } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { clientCertificateOf, parseApiKey } from "@mc/kms";
import { AuditService } from "@mc/kms/gen/kms/v1/audit_pb.js";
import { ClusterService } from "@mc/kms/gen/kms/v1/cluster_pb.js";
import { KeyService } from "@mc/kms/gen/kms/v1/key_pb.js";
import * as assert from "uvu/assert";
import { asRest, call, facts, newLines, normal, rpcPathOf, type AuditLine, type Both, type Twin, type TwinCtx } from "./rest-connect-twins.js";

const c = ClusterService.method;
const role = (r: unknown) => `NODE_ROLE_${String(r).toUpperCase()}`;

/** `/v1/status` and `/v1/cluster/status` carry the same facts as their messages (uptime as a Duration, roles as enum names, 64-bit numbers as strings). */
export async function checkStatusBodies(ctx: TwinCtx, both: Both): Promise<void> {
  const { rest: rt, rpc: ct } = ctx;
  if (!rt || !ct) throw new Error("no nodes");
  await both(ctx, "status", {
    rest: ["GET", "/v1/status"], rpc: [c.getStatus, {}],
    compare: (r, m, what) => {
      const s = r.body as JsonObject;
      assert.ok(Number.isInteger(s.uptime), `${what}: uptime`);
      const expected = { ...s, uptime: "<uptime>", role: role(s.role), term: String(s.term), commit_index: String(s.commit_index), applied_index: String(s.applied_index) };
      const got = asRest(c.getStatus, m) as JsonObject;
      assert.match(String(got.uptime), /^\d+s$/, `${what}: uptime`);
      assert.equal(normal({ ...got, uptime: "<uptime>" }, ct), normal(expected, rt), `${what}: answer`);
    },
  });
  await both(ctx, "cluster status", {
    rest: ["GET", "/v1/cluster/status"], rpc: [c.getClusterStatus, {}],
    compare: (r, m, what) => {
      const s = r.body as { nodes: JsonObject[] } & JsonObject;
      const nodes = s.nodes.map((n) => ({ ...n, role: role(n.role), last_contact_ms: String(n.last_contact_ms), applied_index: String(n.applied_index), lag: String(n.lag) }));
      const expected = { ...s, term: String(s.term), commit_index: String(s.commit_index), nodes, warnings: s.warnings ?? [] };
      assert.equal(normal(asRest(c.getClusterStatus, m), ct), normal(expected, rt), `${what}: answer`);
    },
  });
}

interface Stream {
  readonly events: AsyncIterator<AuditLine>;
  stop(): void;
}

async function tlsOf(t: Twin) {
  const cert = await clientCertificateOf(parseApiKey(t.kms.rootApiKey ?? "") ?? new Uint8Array(32));
  return { ca: await readFile(t.fx.certs.caFile), cert: cert.cert, key: cert.key };
}

/** `GET /v1/log/audit` as root: its NDJSON lines (its head comes with the first one, so nothing waits for it here). */
async function restStream(t: Twin): Promise<Stream> {
  const tls = await tlsOf(t);
  const req = request({ host: "127.0.0.1", port: t.fx.port, path: "/v1/log/audit", agent: false, ...tls });
  const answered = new Promise<IncomingMessage>((resolve, reject) => req.once("response", resolve).once("error", reject).end());
  async function* events() {
    const res = await answered;
    assert.equal([res.statusCode, res.headers["content-type"]], [200, "application/x-ndjson"]);
    for await (const line of createInterface({ input: res })) yield JSON.parse(line) as AuditLine;
  }
  return { events: events(), stop: () => req.destroy() };
}

/** `kms.v1.AuditService/WatchAuditLog` as root: its events as audit lines. */
async function rpcStream(t: Twin): Promise<Stream> {
  const tls = await tlsOf(t);
  const transport = createConnectTransport({ baseUrl: `https://127.0.0.1:${t.fx.port}`, httpVersion: "1.1", nodeOptions: tls });
  const abort = new AbortController();
  const stream = createClient(AuditService, transport).watchAuditLog({}, { signal: abort.signal });
  async function* events() {
    for await (const { event: e } of stream) {
      const r = e?.request;
      const request = { ip: r?.ip ?? "", enclave: r?.enclave ?? "", path: r?.path ?? "", identity: r?.identity ?? "" };
      yield { time: e?.time ?? "", request, response: { code: e?.response?.code ?? 0, time: Number(e?.response?.time ?? -1) } };
    }
  }
  return { events: events(), stop: () => abort.abort() };
}

const marker = "/v1/key/describe/eq-marker";

/** Sends markers until the stream shows one (it is live only once the server has it), then stops it. */
async function firstMarker(s: Stream, send: () => Promise<unknown>): Promise<AuditLine> {
  let seen: AuditLine | undefined;
  const reading = (async () => {
    for (let next = await s.events.next(); !next.done; next = await s.events.next()) {
      if (next.value.request.path === marker) return (seen = next.value);
    }
    return undefined;
  })();
  for (let i = 0; i < 200 && seen === undefined; i++) await Promise.race([send(), reading]);
  const event = await reading;
  s.stop();
  if (!event) throw new Error("no marker event");
  return event;
}

async function codeOf(p: AsyncIterable<unknown>): Promise<[Code | undefined, string]> {
  try {
    for await (const _ of p) return [undefined, "an event"];
  } catch (err) {
    const e = ConnectError.from(err);
    return [e.code, e.rawMessage];
  }
  return [undefined, "no error"];
}

/** The same events on both streams, the same audit line for each subscription, and the same refusal. */
export async function checkAuditStreams(ctx: TwinCtx): Promise<void> {
  const { rest: rt, rpc: ct } = ctx;
  if (!rt || !ct) throw new Error("no nodes");
  const [rs, cs] = await Promise.all([restStream(rt), rpcStream(ct)]);
  const describe = KeyService.method.describeKey;
  const [re, ce] = await Promise.all([
    firstMarker(rs, () => call(rt, "root", "GET", marker, undefined, undefined)),
    firstMarker(cs, () => call(ct, "root", "POST", rpcPathOf(describe), { name: "eq-marker" }, undefined)),
  ]);
  assert.equal(facts(ce), facts(re), "the streamed event");
  assert.is(re.response.code, 404);
  // Markers are audited as they were sent, as many as it took: only the subscription's own line is compared.
  const subscription = (lines: readonly AuditLine[]) => lines.filter((l) => l.request.path !== marker);
  const done = (lines: readonly AuditLine[]) => subscription(lines).length > 0;
  const [lr, lc] = await Promise.all([newLines(rt, done), newLines(ct, done)]);
  assert.equal(subscription(lc).map(facts), subscription(lr).map(facts), "the subscription's audit line");
  assert.is(subscription(lr)[0]?.request.path, "/v1/log/audit");

  // Refused: REST says 403; a Connect stream carries its error in a 200, yet the audit line says 403 on both.
  const r = await call(rt, "user", "GET", "/v1/log/audit", undefined, undefined);
  assert.equal([r.status, r.body], [403, { message: "not authorized: insufficient permissions" }]);
  const userTls = { ca: await readFile(ct.fx.certs.caFile), ...(await clientCertificateOf(parseApiKey(userKeyOf(ct)) ?? new Uint8Array(32))) };
  const transport = createConnectTransport({ baseUrl: `https://127.0.0.1:${ct.fx.port}`, httpVersion: "1.1", nodeOptions: { ca: userTls.ca, cert: userTls.cert, key: userTls.key } });
  assert.equal(await codeOf(createClient(AuditService, transport).watchAuditLog({})), [Code.PermissionDenied, "not authorized: insufficient permissions"]);
  const one = (lines: readonly AuditLine[]) => lines.length > 0;
  const [fr, fc] = await Promise.all([newLines(rt, one), newLines(ct, one)]);
  assert.equal(fc.map(facts), fr.map(facts), "the refusal's audit line");
}

function userKeyOf(t: Twin): string {
  const key = t.keys.get("user");
  if (!key) throw new Error("no user");
  return key;
}
