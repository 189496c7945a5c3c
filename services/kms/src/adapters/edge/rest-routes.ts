import type { IncomingMessage } from "node:http";
import type { RestRequest, RestResponse, RestRoute } from "@mc/shared/rest";
import { AppError } from "@mc/shared/errors";
import type { Caller } from "../../domain/authz.js";
import type { Kms } from "../../domain/kms.js";
import { auditNdjson } from "./audit.js";
import { objectOf, optBool, optBytes, optInt, optString, queryInt, reqBytes, reqString, stringList, toB64 } from "./body.js";
import { clusterStatus, nodeStatus, readBarrier, type NodeInfo } from "./node-info.js";
import { callerOf, type RequestInfo } from "./request-info.js";

type Handler = (req: RestRequest, caller: Caller) => Promise<RestResponse> | RestResponse;
const empty: RestResponse = { status: 200 };

function page(p: { items: readonly string[]; continueAt: string }, field = "names") {
  return { body: { [field]: p.items, continue_at: p.continueAt } };
}

const listArgs = (req: RestRequest, c: Caller): [string, string, number] => [c.params.pattern ?? "", req.query.get("continue_at") ?? "", queryInt(req.query, "limit") ?? 0];

/** The contract's REST routes (§4), all calling the same domain use cases as the Connect edge. */
export function createKmsRoutes(kms: Kms, node: NodeInfo, infoOf: (raw: IncomingMessage) => RequestInfo): RestRoute[] {
  const { keys, admin } = kms;
  // describe, list and policy read are linearizable in cluster mode (ReadIndex) unless ?stale=true.
  const linearizable = (method: string, pattern: string): boolean => method === "GET" && /\/(describe|list|read)(\/|$)/.test(pattern);
  // Everything else authorises a non-root caller only on a replica known fresh
  // enough that a revocation answered anywhere holds here (kms.fresh).
  const route = (method: string, pattern: string, handler: Handler, readsBody = method === "POST"): RestRoute => ({
    methods: [method],
    pattern,
    readsBody,
    handle: (req) => {
      const caller = callerOf(infoOf(req.raw), pattern, req.params);
      const stale = req.query.get("stale") === "true";
      const wait = node.raft && linearizable(method, pattern) && !stale ? readBarrier(node) : kms.fresh(caller.identity);
      return wait ? wait.then(() => handler(req, caller)) : handler(req, caller);
    },
  });
  // Handlers act on the canonical values the request was authorised as, never on the raw ones.
  const p = (c: Caller, name: string): string => c.params[name] ?? "";
  const body = (req: RestRequest, optional = false) => objectOf(req.body, optional);

  return [
    route("GET", "/v1/status", (_req, c) => {
      admin.authorize(c);
      return { body: nodeStatus(node) };
    }),
    route("POST", "/v1/key/create/:name", async (req, c) => {
      const b = body(req, true);
      await keys.create(c, p(c, "name"), { ...opt("algorithm", optString(b, "algorithm")), addVersion: optBool(b, "add_version") ?? false });
      return empty;
    }),
    route("POST", "/v1/key/import/:name", async (req, c) => {
      const b = body(req);
      await keys.import(c, p(c, "name"), reqBytes(b, "key"), optString(b, "algorithm"));
      return empty;
    }),
    route("GET", "/v1/key/describe/:name", (req, c) => {
      const d = keys.describe(c, p(c, "name"), queryInt(req.query, "version"));
      return { body: { name: d.name, version: d.version, versions: d.versions, algorithm: d.algorithm, created_at: d.createdAt, created_by: d.createdBy } };
    }),
    route("GET", "/v1/key/list/:pattern", (req, c) => page(keys.list(c, ...listArgs(req, c)))),
    route("DELETE", "/v1/key/delete/:name", async (req, c) => {
      await keys.delete(c, p(c, "name"), queryInt(req.query, "version"));
      return empty;
    }),
    route("POST", "/v1/key/generate/:name", (req, c) => {
      const b = body(req, true);
      const g = keys.generate(c, p(c, "name"), optBytes(b, "context") ?? new Uint8Array(0), optInt(b, "length") ?? 32);
      return { body: { plaintext: toB64(g.plaintext), ciphertext: toB64(g.ciphertext), version: g.version } };
    }),
    route("POST", "/v1/key/encrypt/:name", (req, c) => {
      const b = body(req);
      const e = keys.encrypt(c, p(c, "name"), reqBytes(b, "plaintext"), optBytes(b, "context") ?? new Uint8Array(0));
      return { body: { ciphertext: toB64(e.ciphertext), version: e.version } };
    }),
    route("POST", "/v1/key/decrypt/:name", (req, c) => {
      const b = body(req);
      const d = keys.decrypt(c, p(c, "name"), reqBytes(b, "ciphertext"), optBytes(b, "context") ?? new Uint8Array(0));
      return { body: { plaintext: toB64(d.plaintext), version: d.version } };
    }),
    route("POST", "/v1/key/hmac/:name", (req, c) => {
      const h = keys.hmac(c, p(c, "name"), reqBytes(body(req), "message"));
      return { body: { hmac: toB64(h.hmac), version: h.version } };
    }),
    route("POST", "/v1/policy/create/:name", async (req, c) => {
      const b = body(req);
      await admin.createPolicy(c, p(c, "name"), { allow: stringList(b, "allow"), deny: stringList(b, "deny") });
      return empty;
    }),
    route("GET", "/v1/policy/describe/:name", (_req, c) => {
      const d = admin.describePolicy(c, p(c, "name"));
      return { body: { name: d.name, created_at: d.createdAt, created_by: d.createdBy } };
    }),
    route("GET", "/v1/policy/read/:name", (_req, c) => {
      const d = admin.readPolicy(c, p(c, "name"));
      return { body: { name: d.name, allow: d.allow, deny: d.deny, created_at: d.createdAt, created_by: d.createdBy } };
    }),
    route("GET", "/v1/policy/list/:pattern", (req, c) => page(admin.listPolicies(c, ...listArgs(req, c)))),
    route("POST", "/v1/policy/assign/:name", async (req, c) => {
      await admin.assignPolicy(c, p(c, "name"), reqString(body(req), "identity"), true);
      return empty;
    }),
    route("POST", "/v1/policy/unassign/:name", async (req, c) => {
      await admin.assignPolicy(c, p(c, "name"), reqString(body(req), "identity"), false);
      return empty;
    }),
    route("DELETE", "/v1/policy/delete/:name", async (_req, c) => {
      await admin.deletePolicy(c, p(c, "name"));
      return empty;
    }),
    route("POST", "/v1/identity/create/:id", async (req, c) => {
      const b = body(req, true);
      await admin.createIdentity(c, p(c, "id"), { ...opt("policy", optString(b, "policy")), ...opt("admin", optBool(b, "admin")) });
      return empty;
    }),
    route("GET", "/v1/identity/describe/:id", (_req, c) => ({ body: identityJson(admin.describeIdentity(c, p(c, "id"))) })),
    route("GET", "/v1/identity/self/describe", (_req, c) => {
      const d = admin.describeSelf(c);
      return { body: { ...identityJson(d), allow: d.allow, deny: d.deny } };
    }),
    route("GET", "/v1/identity/list/:pattern", (req, c) => page(admin.listIdentities(c, ...listArgs(req, c)), "identities")),
    route("DELETE", "/v1/identity/delete/:id", async (_req, c) => {
      await admin.deleteIdentity(c, p(c, "id"));
      return empty;
    }),
    route("GET", "/v1/log/audit", (req, c) => {
      const visible = admin.auditScope(c);
      // `stream` (not a piped body): a client that hangs up ends it, not an error.
      return { headers: { "content-type": "application/x-ndjson" }, stream: auditNdjson(node.auditStream(req.signal), visible) };
    }),
    route("POST", "/v1/enclave/create/:name", async (_req, c) => {
      await admin.createEnclave(c, p(c, "name"));
      return empty;
    }),
    route("DELETE", "/v1/enclave/delete/:name", async (_req, c) => {
      await admin.deleteEnclave(c, p(c, "name"));
      return empty;
    }),
    route("GET", "/v1/enclave/describe/:name", (_req, c) => {
      const d = admin.describeEnclave(c, p(c, "name"));
      return { body: { name: d.name, created_at: d.createdAt, created_by: d.createdBy } };
    }),
    route("GET", "/v1/enclave/list/:pattern", (req, c) => page(admin.listEnclaves(c, ...listArgs(req, c)))),
    route("GET", "/v1/cluster/status", (_req, c) => {
      admin.authorize(c, "root");
      return { body: clusterStatus(node) };
    }),
    route("POST", "/v1/cluster/add", (req, c) => clusterChange(req, c)),
    route("POST", "/v1/cluster/remove", (req, c) => clusterChange(req, c)),
  ];

  async function clusterChange(req: RestRequest, c: Caller): Promise<RestResponse> {
    admin.authorize(c, "root");
    const host = reqString(body(req), "host");
    if (!node.raft) throw new AppError("unimplemented", "cluster membership changes need the consensus module");
    const nodes = req.path.endsWith("/add") ? await node.raft.addMember(host) : await node.raft.removeMember(host);
    return { body: { nodes } };
  }
}

function opt<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function identityJson(d: { identity: string; admin: boolean; policies: readonly string[]; createdAt: string; createdBy: string }) {
  return { identity: d.identity, admin: d.admin, policies: d.policies, created_at: d.createdAt, created_by: d.createdBy };
}
