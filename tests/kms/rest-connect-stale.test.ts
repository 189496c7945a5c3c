// The read rule through both edges (issue 18): before the one table, Connect
// ignored `stale` and REST honoured `?stale=true`. A founding member of a
// two-node cluster whose peer never starts has no leader, so a linearizable
// read cannot be served (503) while a stale one is served from the local
// replica. Both edges of that one node must agree on every read that takes
// `stale`, in answer, status and audit line.
import { readFile } from "node:fs/promises";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { EnclaveService } from "@mc/kms/gen/kms/v1/enclave_pb.js";
import { IdentityService } from "@mc/kms/gen/kms/v1/identity_pb.js";
import { KeyService } from "@mc/kms/gen/kms/v1/key_pb.js";
import { PolicyService } from "@mc/kms/gen/kms/v1/policy_pb.js";
import type { DescMethod, JsonObject } from "@bufbuild/protobuf";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { freePort } from "../harness/free-port.js";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { startProcess } from "../harness/processes.js";
import { waitFor } from "../harness/wait-for.js";
import { tlsAnswers } from "./cluster-harness.js";
import { createFixture, kmsBin } from "./kms-harness.js";
import { asRest, call, facts, newLines, normal, rpcPathOf, stopTwin, type Twin } from "./rest-connect-twins.js";

interface Ctx {
  nats: NatsNode | undefined;
  node: Twin | undefined;
}
const stale = suite<Ctx>("kms REST and Connect: the same read rule (stale reads)", { nats: undefined, node: undefined });

stale.before(async (ctx) => {
  ctx.nats = await startNatsServer();
  const fx = await createFixture("software");
  const self = `127.0.0.1:${fx.port}`;
  const peer = `127.0.0.1:${await freePort()}`;
  await fx.writeConfig(fx.defaultYaml(["cluster:", `  nats: ${ctx.nats.url}`, "  id: stale", `  host: ${self}`, `  nodes: [${self}, ${peer}]`].join("\n")));
  const proc = startProcess(process.execPath, [kmsBin, "server", "--config", fx.configFile], { env: { ...process.env, KMS_HSM_KEY: "" } });
  const ca = await readFile(fx.certs.caFile);
  // Never ready (no leader): wait for the edge and the root key it prints.
  const rootApiKey = await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`kms exited: ${proc.output()}`);
      const key = /API Key (k1:\S+)/.exec(proc.output())?.[1];
      return key !== undefined && (await tlsAnswers(fx.port)) ? key : undefined;
    },
    { what: "kms listening", timeoutMs: 30000 },
  );
  const client = (apiKey = rootApiKey): Promise<KmsClient> => createKmsClient({ server: self, ca, apiKey });
  ctx.node = { fx, kms: { proc, rootApiKey, client }, clients: new Map([["root", await client()]]), keys: new Map(), read: 0 };
});

stale.after(async (ctx) => {
  await stopTwin(ctx.node);
  await ctx.nats?.stop();
});

type Read = readonly [what: string, rest: string, rpc: DescMethod, message: JsonObject];
const k = KeyService.method;
const p = PolicyService.method;
const i = IdentityService.method;
const e = EnclaveService.method;
const reads: readonly Read[] = [
  ["key describe", "/v1/key/describe/k1", k.describeKey, { name: "k1" }],
  ["key list", "/v1/key/list/*", k.listKeys, { pattern: "*" }],
  ["policy describe", "/v1/policy/describe/p1", p.describePolicy, { name: "p1" }],
  ["policy read", "/v1/policy/read/p1", p.readPolicy, { name: "p1" }],
  ["policy list", "/v1/policy/list/*", p.listPolicies, { pattern: "*" }],
  ["identity describe", "/v1/identity/describe/h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", i.describeIdentity, { id: "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }],
  ["self describe", "/v1/identity/self/describe", i.describeSelf, {}],
  ["identity list", "/v1/identity/list/*", i.listIdentities, { pattern: "*" }],
  ["enclave describe", "/v1/enclave/describe/default", e.describeEnclave, { name: "default" }],
  ["enclave list", "/v1/enclave/list/*", e.listEnclaves, { pattern: "*" }],
];

const one = (lines: readonly unknown[]) => lines.length > 0;

stale("a stale read is served from the replica on both edges, with the same answer and audit line", async ({ node }) => {
  if (!node) throw new Error("no node");
  for (const [what, path, rpc, message] of reads) {
    const r = await call(node, "root", "GET", `${path}?stale=true`, undefined, undefined);
    const [lr] = await newLines(node, one);
    const c = await call(node, "root", "POST", rpcPathOf(rpc), { ...message, stale: true }, undefined);
    const [lc] = await newLines(node, one);
    assert.is.not(r.status, 503, `${what}: REST serves the replica (${JSON.stringify(r.body)})`);
    assert.is(c.status, r.status, `${what}: status (REST ${JSON.stringify(r.body)}, Connect ${JSON.stringify(c.body)})`);
    assert.equal(normal(asRest(rpc, c), node), normal(r.body, node), `${what}: answer`);
    assert.ok(facts(lr).timed && facts(lc).timed, `${what}: audit times`);
    assert.equal(facts(lc), facts(lr), `${what}: audit line`);
  }
});

stale("without stale, both edges refuse every such read with 503 and audit it alike", async ({ node }) => {
  if (!node) throw new Error("no node");
  // Each waits out the read barrier: all at once, so the suite pays for one wait.
  const answers = await Promise.all(
    reads.flatMap(([what, path, rpc, message]) => [
      call(node, "root", "GET", path, undefined, undefined).then((a) => [`${what} (REST)`, a.status, a.body] as const),
      call(node, "root", "POST", rpcPathOf(rpc), message, undefined).then((a) => [`${what} (Connect)`, a.status, asRest(rpc, a)] as const),
    ]),
  );
  const refused = { message: "cluster has no leader" };
  assert.equal(answers, answers.map(([what]) => [what, 503, refused]));
  const lines = await newLines(node, (l) => l.length >= answers.length);
  const audited = lines.map((l) => `${facts(l).path} ${l.response.code}`).sort();
  assert.equal(audited, reads.flatMap(([, path]) => [`${path} 503`, `${path} 503`]).sort());
});

stale.run();
