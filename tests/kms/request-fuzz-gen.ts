import fc from "fast-check";
import { hexOf, type Sent } from "./request-oracle.js";

/** Names and identities the fuzzer draws from (set up by the test, tracked by the model). */
export interface Pools {
  /** Who sends, with a weight (mostly identities whose policies decide) and the enclaves it belongs to. */
  readonly actors: readonly (readonly [name: string, weight: number, homes: readonly string[]])[];
  readonly keys: readonly string[];
  readonly policies: readonly string[];
  /** Policies the fuzzer may delete or unassign (the actors' own stay, or there is little left to test). */
  readonly scratchPolicies: readonly string[];
  readonly ids: readonly string[];
  readonly scratchIds: readonly string[];
  readonly patterns: readonly string[];
  readonly rules: readonly string[];
  readonly ciphertext: string;
}

export interface FuzzRequest {
  readonly actor: string;
  readonly sent: Sent;
  /** How fast-check prints a counterexample. */
  readonly [fc.toStringMethod]: () => string;
}

type Op = readonly [method: string, template: string, rpc: string, fields: (p: Pools) => fc.Arbitrary<Record<string, unknown>>];
const none = () => fc.constant({});
const b64 = (s: string) => Buffer.from(s).toString("base64");
const ops: readonly Op[] = [
  ["GET", "/v1/status", "ClusterService/GetStatus", none],
  ["POST", "/v1/key/create/:name", "KeyService/CreateKey", () => fc.constantFrom({}, { add_version: true }, { algorithm: "XCHACHA20-POLY1305" })],
  ["POST", "/v1/key/import/:name", "KeyService/ImportKey", () => fc.constant({ key: Buffer.alloc(32, 3).toString("base64") })],
  ["GET", "/v1/key/describe/:name", "KeyService/DescribeKey", none],
  ["GET", "/v1/key/list/:pattern", "KeyService/ListKeys", none],
  ["DELETE", "/v1/key/delete/:name", "KeyService/DeleteKey", none],
  ["POST", "/v1/key/generate/:name", "KeyService/Generate", () => fc.constantFrom({}, { context: b64("ctx") }, { length: 16 })],
  ["POST", "/v1/key/encrypt/:name", "KeyService/Encrypt", () => fc.constant({ plaintext: b64("fuzz") })],
  ["POST", "/v1/key/decrypt/:name", "KeyService/Decrypt", (p) => fc.constant({ ciphertext: p.ciphertext })],
  ["POST", "/v1/key/hmac/:name", "KeyService/Hmac", () => fc.constant({ message: b64("m") })],
  ["POST", "/v1/policy/create/:name", "PolicyService/CreatePolicy", (p) => fc.record({ allow: fc.subarray([...p.rules], { maxLength: 3 }), deny: fc.subarray([...p.rules], { maxLength: 2 }) })],
  ["GET", "/v1/policy/describe/:name", "PolicyService/DescribePolicy", none],
  ["GET", "/v1/policy/read/:name", "PolicyService/ReadPolicy", none],
  ["GET", "/v1/policy/list/:pattern", "PolicyService/ListPolicies", none],
  ["POST", "/v1/policy/assign/:name", "PolicyService/AssignPolicy", (p) => spelledId(p.scratchIds).map((identity) => ({ identity }))],
  ["POST", "/v1/policy/unassign/:name", "PolicyService/UnassignPolicy", (p) => spelledId(p.ids).map((identity) => ({ identity }))],
  ["DELETE", "/v1/policy/delete/:name", "PolicyService/DeletePolicy", none],
  ["POST", "/v1/identity/create/:id", "IdentityService/CreateIdentity", (p) => fc.oneof(fc.constant({}), fc.constant({ admin: true }), fc.constant({ admin: false }), fc.constantFrom(...p.policies).map((policy) => ({ policy })), fc.constantFrom(...p.policies).map((policy) => ({ policy, admin: true })))],
  ["GET", "/v1/identity/describe/:id", "IdentityService/DescribeIdentity", none],
  ["GET", "/v1/identity/self/describe", "IdentityService/DescribeSelf", none],
  ["GET", "/v1/identity/list/:pattern", "IdentityService/ListIdentities", none],
  ["DELETE", "/v1/identity/delete/:id", "IdentityService/DeleteIdentity", none],
  ["POST", "/v1/enclave/create/:name", "EnclaveService/CreateEnclave", none],
  ["DELETE", "/v1/enclave/delete/:name", "EnclaveService/DeleteEnclave", none],
  ["GET", "/v1/enclave/describe/:name", "EnclaveService/DescribeEnclave", none],
  ["GET", "/v1/enclave/list/:pattern", "EnclaveService/ListEnclaves", none],
  ["GET", "/v1/cluster/status", "ClusterService/GetClusterStatus", none],
];

/** An identity in any of its canonicalisable spellings. */
function spelledId(ids: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...ids), fc.nat(3), fc.nat(63)).map(([id, form, at]) => {
    const hex = hexOf(id);
    return [id, hex, hex.toUpperCase(), `${hex.slice(0, at).toUpperCase()}${hex.slice(at)}`][form] ?? id;
  });
}

function valueFor(template: string, p: Pools, write: boolean): fc.Arbitrary<string> {
  const area = template.split("/")[2];
  if (template.endsWith(":id")) return spelledId(write ? p.scratchIds : p.ids);
  if (template.endsWith(":pattern")) return fc.constantFrom(...p.patterns);
  if (area === "key") return fc.constantFrom(...p.keys);
  if (area === "policy") return fc.constantFrom(...(write ? p.scratchPolicies : p.policies));
  // Deleting a populated enclave would leave nothing to test for the rest of the run.
  return write ? fc.constant("scratch-e") : fc.constantFrom("scratch-e", "default", "other");
}

const pct = (s: string, upper: boolean) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, "0")}`).map((x) => (upper ? x.toUpperCase() : x)).join("");
/** How a REST path segment is written: as is, URI-encoded, or every byte percent-encoded. */
const encodings = [(s: string) => s, encodeURIComponent, (s: string) => pct(s, true), (s: string) => pct(s, false)];

type Mutation = (r: { method: string; path: string; headers: Record<string, string | string[]>; body: string | undefined }) => void;
const insertAt = (s: string, at: number, text: string) => s.slice(0, at % (s.length + 1)) + text + s.slice(at % (s.length + 1));
const slashAt = (s: string, at: number) => {
  const slashes = [...s].flatMap((c, i) => (c === "/" ? [i] : []));
  return slashes[at % Math.max(1, slashes.length)] ?? 0;
};
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map((at): Mutation => (r) => void (r.path = insertAt(r.path, slashAt(r.path, at), "/"))),
  fc.tuple(fc.nat(), fc.constantFrom("/.", "/x/..", "/%2e", "/%2E%2E", "/..")).map(([at, dot]): Mutation => (r) => void (r.path = insertAt(r.path, slashAt(r.path, at), dot))),
  fc.constantFrom("/", "/.", "%2F", "%2f", "?", "#x", "%00", "%", "%ZZ", "%C3%28", "%C3%A4", "*", ";x").map((tail): Mutation => (r) => void (r.path += tail)),
  fc.nat().map((at): Mutation => (r) => {
    const i = at % r.path.length;
    r.path = r.path.slice(0, i) + pct(r.path[i] ?? "", at % 2 === 0) + r.path.slice(i + 1);
  }),
  fc.nat().map((at): Mutation => (r) => {
    const i = at % r.path.length;
    const c = r.path[i] ?? "";
    r.path = r.path.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + r.path.slice(i + 1);
  }),
  fc.constantFrom("stale=true", "version=1", "limit=1", "continue_at=z", "%zz", "version=x", "limit=-1").map((q): Mutation => (r) => void (r.path += `${r.path.includes("?") ? "&" : "?"}${q}`)),
  fc.integer({ min: 100, max: 20000 }).map((n): Mutation => (r) => void (r.path += "a".repeat(n))),
  fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS").map((m): Mutation => (r) => void (r.method = m)),
  fc.constantFrom<string | string[] | undefined>(undefined, "default", "other", "scratch-e", "Other", "%6fther", "", " other", "a/b", "default, other", ["default", "other"], "x".repeat(81)).map((v): Mutation => (r) => {
    if (v === undefined) delete r.headers["kms-enclave"];
    else r.headers["kms-enclave"] = v;
  }),
  fc.constantFrom("application/json", "text/plain", "", "application/json; charset=utf-8", "APPLICATION/JSON", "application/proto", "application/connect+json").map((v): Mutation => (r) => void (r.headers["content-type"] = v)),
  fc.constantFrom<[string, string]>(["connect-protocol-version", "1"], ["connect-protocol-version", "2"], ["connect-timeout-ms", "abc"], ["connect-timeout-ms", "1"]).map(([k, v]): Mutation => (r) => void (r.headers[k] = v)),
  fc.nat().map((at): Mutation => (r) => void (r.body = (r.body ?? "").slice(0, at % ((r.body ?? "").length + 1)))),
  fc.constantFrom("x", "}", "\u0000", "[]", "null", "\"s\"", "{\"a\":}", "\ud800").map((g): Mutation => (r) => void (r.body = (r.body ?? "") + g)),
  fc.tuple(fc.constantFrom("name", "id", "pattern", "policy", "admin", "identity", "allow", "zz"), fc.constantFrom<unknown>(5, [], null, "true", true, {}, "", "h1:x", "../x")).map(([k, v]): Mutation => (r) => {
    try {
      r.body = JSON.stringify({ ...(JSON.parse(r.body ?? "{}") as object), [k]: v });
    } catch {
      r.body = JSON.stringify({ [k]: v });
    }
  }),
  fc.integer({ min: 1000, max: 100000 }).map((n): Mutation => (r) => void (r.body = "[".repeat(n))),
);
/** Rare, they cost a megabyte each: bodies around the 1 MiB limit. */
const bigBody = fc.constantFrom(1024 * 1024 - 64, 1024 * 1024 + 1, 3 * 1024 * 1024).map((n): Mutation => (r) => {
  let fields: object = {};
  try {
    fields = JSON.parse(r.body ?? "{}") as object;
  } catch {
    // Not JSON: the padding replaces it.
  }
  r.body = JSON.stringify({ ...fields, pad: "A".repeat(n) });
});

/** A valid REST or Connect request of a random actor, then up to three mutations. */
export function requestArb(p: Pools): fc.Arbitrary<FuzzRequest> {
  const actor = fc.oneof(...p.actors.map(([name, weight, homes]) => ({ weight, arbitrary: fc.constant([name, homes] as const) })));
  // Mostly the sender's own enclave (absent header = default), sometimes another one.
  const withEnclave = actor.chain(([name, homes]) =>
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...homes) }, { weight: 1, arbitrary: fc.constantFrom("default", "other") }).map((e) => [name, e === "default" ? undefined : e] as const),
  );
  return fc.tuple(fc.constantFrom(...ops), withEnclave).chain(([op, [actor, enclave]]) => {
    const [method, template, rpc, fields] = op;
    const write = method !== "GET";
    const placeholder = /:(\w+)$/.exec(template)?.[1];
    return fc.record({
      value: valueFor(template, p, write),
      fields: fields(p),
      encode: fc.constantFrom(...encodings),
      connect: fc.boolean(),
      mutations: fc.oneof({ weight: 50, arbitrary: fc.constant([]) }, { weight: 48, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) }, { weight: 2, arbitrary: bigBody.map((m) => [m]) }),
    }).map(({ value, fields: f, encode, connect, mutations }): FuzzRequest => {
      const headers: Record<string, string | string[]> = { "content-type": "application/json", ...(enclave ? { "kms-enclave": enclave } : {}) };
      const r = connect
        ? { method: "POST", path: `/kms.v1.${rpc}`, headers, body: JSON.stringify({ ...(placeholder ? { [placeholder]: value } : {}), ...connectFields(f) }) }
        : { method, path: placeholder ? template.replace(`:${placeholder}`, encode(value)) : template, headers, body: method === "POST" ? JSON.stringify(f) : undefined };
      for (const m of mutations) m(r);
      const sent: Sent = { transport: connect ? "connect" : "rest", ...r };
      return { actor, sent, [fc.toStringMethod]: () => describe(actor, sent) };
    });
  });
}

/** A request in a line short enough to read (paths and bodies can be megabytes). */
export function describe(actor: string, sent: Sent): string {
  const cut = (t: string) => (t.length > 160 ? `${t.slice(0, 160)}…(${t.length} chars)` : t);
  return `${actor} ${sent.transport} ${sent.method} ${cut(sent.path)} ${JSON.stringify(sent.headers)} body ${cut(String(sent.body))}`;
}

/** Connect JSON names the same fields in lowerCamelCase. */
function connectFields(f: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()), v]));
}
