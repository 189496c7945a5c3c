/**
 * The request fuzzer's oracle: the contract's policy and enclave rules
 * (kms.md §1, §2, §4; services/kms/docs/admin-minting.md) written again from
 * the text, sharing no code with the server. It parses a request exactly as
 * sent and says whether the rules refuse it; it tracks what successful
 * writes change (identities, policies, keys, enclaves) so later verdicts use
 * the state the server has.
 */

export interface Sent {
  readonly transport: "rest" | "connect";
  readonly method: string;
  /** As sent, with any query. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: string | undefined;
}

interface IdentityModel {
  admin: boolean;
  readonly policies: Set<string>;
}
interface Rules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}
export interface EnclaveModel {
  readonly ids: Map<string, IdentityModel>;
  readonly policies: Map<string, Rules>;
  /** Over-approximated: a version delete may or may not have removed a key. */
  readonly keys: Set<string>;
}
export interface Model {
  readonly root: string;
  readonly enclaves: Map<string, EnclaveModel>;
}

export interface Parsed {
  readonly route: string;
  readonly params: Readonly<Record<string, string>>;
  readonly path: string;
  /** The body's fields, when the route's body could be read. */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly hasVersion: boolean;
}

export type Verdict = { readonly refuse: true; readonly why: string } | { readonly refuse: false; readonly parsed: Parsed; readonly enclave: string };

const routes: readonly (readonly [method: string, template: string, rpc: string])[] = [
  ["GET", "/v1/status", "ClusterService/GetStatus"],
  ["POST", "/v1/key/create/:name", "KeyService/CreateKey"],
  ["POST", "/v1/key/import/:name", "KeyService/ImportKey"],
  ["GET", "/v1/key/describe/:name", "KeyService/DescribeKey"],
  ["GET", "/v1/key/list/:pattern", "KeyService/ListKeys"],
  ["DELETE", "/v1/key/delete/:name", "KeyService/DeleteKey"],
  ["POST", "/v1/key/generate/:name", "KeyService/Generate"],
  ["POST", "/v1/key/encrypt/:name", "KeyService/Encrypt"],
  ["POST", "/v1/key/decrypt/:name", "KeyService/Decrypt"],
  ["POST", "/v1/key/hmac/:name", "KeyService/Hmac"],
  ["POST", "/v1/policy/create/:name", "PolicyService/CreatePolicy"],
  ["GET", "/v1/policy/describe/:name", "PolicyService/DescribePolicy"],
  ["GET", "/v1/policy/read/:name", "PolicyService/ReadPolicy"],
  ["GET", "/v1/policy/list/:pattern", "PolicyService/ListPolicies"],
  ["POST", "/v1/policy/assign/:name", "PolicyService/AssignPolicy"],
  ["POST", "/v1/policy/unassign/:name", "PolicyService/UnassignPolicy"],
  ["DELETE", "/v1/policy/delete/:name", "PolicyService/DeletePolicy"],
  ["POST", "/v1/identity/create/:id", "IdentityService/CreateIdentity"],
  ["GET", "/v1/identity/describe/:id", "IdentityService/DescribeIdentity"],
  ["GET", "/v1/identity/self/describe", "IdentityService/DescribeSelf"],
  ["GET", "/v1/identity/list/:pattern", "IdentityService/ListIdentities"],
  ["DELETE", "/v1/identity/delete/:id", "IdentityService/DeleteIdentity"],
  ["POST", "/v1/enclave/create/:name", "EnclaveService/CreateEnclave"],
  ["DELETE", "/v1/enclave/delete/:name", "EnclaveService/DeleteEnclave"],
  ["GET", "/v1/enclave/describe/:name", "EnclaveService/DescribeEnclave"],
  ["GET", "/v1/enclave/list/:pattern", "EnclaveService/ListEnclaves"],
  ["GET", "/v1/cluster/status", "ClusterService/GetClusterStatus"],
];
/** Routes whose body the oracle needs after a success (what the write changed). */
const bodyRoutes = new Set(["/v1/policy/create/:name", "/v1/policy/assign/:name", "/v1/policy/unassign/:name", "/v1/identity/create/:id"]);

const nameRule = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,78}[A-Za-z0-9_])?$/;
const validName = (s: string): boolean => s !== "_" && nameRule.test(s);

/** `h1:` form of an identity written either way, or undefined. */
export function h1Of(text: string): string | undefined {
  if (/^h1:[A-Za-z0-9_-]{43}$/.test(text)) {
    const bytes = Buffer.from(text.slice(3), "base64url");
    return bytes.length === 32 && `h1:${bytes.toString("base64url")}` === text ? text : undefined;
  }
  if (/^[0-9a-fA-F]{64}$/.test(text)) return `h1:${Buffer.from(text, "hex").toString("base64url")}`;
  return undefined;
}
export const hexOf = (h1: string): string => Buffer.from(h1.slice(3), "base64url").toString("hex");

function canonicalValue(template: string, placeholder: string, value: string): string | undefined {
  const area = template.split("/")[2];
  if (placeholder === "id") return h1Of(value);
  if (placeholder === "name") return validName(value) ? value : undefined;
  // List patterns: an exact name (identity), or a prefix in the alphabet plus one trailing `*`.
  if (!value.endsWith("*")) return area === "identity" ? h1Of(value) : validName(value) ? value : undefined;
  const prefix = value.slice(0, -1);
  const ok = area === "identity" ? /^[A-Za-z0-9_:-]{0,67}$/.test(prefix) : /^[A-Za-z0-9_-]{0,80}$/.test(prefix);
  return ok ? value : undefined;
}

function fill(template: string, raw: Readonly<Record<string, string>>): { path: string; params: Record<string, string> } | undefined {
  const params: Record<string, string> = {};
  const parts: string[] = [];
  for (const part of template.split("/")) {
    if (!part.startsWith(":")) {
      parts.push(part);
      continue;
    }
    const v = canonicalValue(template, part.slice(1), raw[part.slice(1)] ?? "");
    if (v === undefined) return undefined;
    params[part.slice(1)] = v;
    parts.push(v);
  }
  return { path: parts.join("/"), params };
}

function jsonObject(text: string | undefined, emptyIsObject: boolean): Record<string, unknown> | undefined {
  if ((text ?? "").trim() === "" && emptyIsObject) return {};
  try {
    const v: unknown = JSON.parse(text ?? "");
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function parseRest(sent: Sent): Parsed | undefined {
  const q = sent.path.indexOf("?");
  const raw = q >= 0 ? sent.path.slice(0, q) : sent.path;
  const query = new URLSearchParams(q >= 0 ? sent.path.slice(q + 1) : "");
  const method = ({ PUT: "POST", HEAD: "GET" } as Record<string, string>)[sent.method] ?? sent.method;
  const segments = raw.split("/");
  for (const [m, template] of routes) {
    const parts = template.split("/");
    if (parts.length !== segments.length || m !== method) continue;
    if (parts.some((part, i) => !part.startsWith(":") && part !== segments[i])) continue;
    const values: Record<string, string> = {};
    for (const [i, part] of parts.entries()) {
      if (!part.startsWith(":")) continue;
      try {
        values[part.slice(1)] = decodeURIComponent(segments[i] ?? "");
      } catch {
        return undefined;
      }
    }
    const filled = fill(template, values);
    if (!filled) return undefined;
    const body = bodyRoutes.has(template) ? jsonObject(sent.body, template === "/v1/identity/create/:id") : undefined;
    return { route: template, ...filled, body, hasVersion: query.has("version") };
  }
  return undefined;
}

function parseConnect(sent: Sent): Parsed | undefined {
  // Connect routes on the path without its query, and nothing else.
  const path = sent.path.split("?")[0];
  const route = routes.find(([, , rpc]) => path === `/kms.v1.${rpc}`);
  const type = String(sent.headers["content-type"] ?? "").toLowerCase();
  if (!route || sent.method !== "POST" || !type.startsWith("application/json")) return undefined;
  const fields = jsonObject(sent.body, true);
  if (!fields) return undefined;
  const str = (k: string): string => (typeof fields[k] === "string" ? (fields[k] as string) : "");
  const filled = fill(route[1], { name: str("name"), id: str("id"), pattern: str("pattern") });
  if (!filled) return undefined;
  return { route: route[1], ...filled, body: fields, hasVersion: fields.version !== undefined && fields.version !== null };
}

export function parseRequest(sent: Sent): Parsed | undefined {
  return sent.transport === "rest" ? parseRest(sent) : parseConnect(sent);
}

function matches(pattern: string, path: string, hexPath: string | undefined): boolean {
  let p = pattern;
  const m = /^(\/v1\/identity\/(?:create|describe|delete)\/)(.*)$/.exec(pattern);
  if (m) {
    const [, head = "", rest = ""] = m;
    if (rest.endsWith("*") && /^[0-9a-fA-F]*$/.test(rest.slice(0, -1))) p = `${head}${rest.toLowerCase()}`;
    else p = `${head}${h1Of(rest) ?? rest}`;
  }
  const one = (x: string): boolean => (p.endsWith("*") ? x.startsWith(p.slice(0, -1)) : x === p);
  return one(path) || (hexPath !== undefined && one(hexPath));
}

function permitted(e: EnclaveModel, who: IdentityModel, path: string, id: string | undefined): boolean {
  if (who.admin && /^\/v1\/(key|policy|identity)\//.test(path)) return true;
  const rules = [...who.policies].flatMap((n) => e.policies.get(n) ?? []);
  const hexPath = id === undefined ? undefined : path.replace(id, hexOf(id));
  if (rules.some((r) => r.deny.some((d) => matches(d, path, hexPath)))) return false;
  return rules.some((r) => r.allow.some((a) => matches(a, path, hexPath)));
}

const refuse = (why: string): Verdict => ({ refuse: true, why });

/** Whether the rules refuse `sent` from `caller` (undefined: no certificate). */
export function decide(model: Model, caller: string | undefined, sent: Sent): Verdict {
  const parsed = parseRequest(sent);
  if (!parsed) return refuse("no canonical request");
  if (caller === undefined) return refuse("no certificate");
  const header = sent.headers["kms-enclave"];
  // HTTP strips a field value's surrounding whitespace and joins repeated fields with ", ".
  const enclave = header === undefined ? "default" : (Array.isArray(header) ? header.join(", ") : String(header)).trim();
  if (!validName(enclave)) return refuse("bad enclave header");
  const ok: Verdict = { refuse: false, parsed, enclave };
  if (/^\/v1\/(enclave|cluster)\//.test(parsed.route)) return caller === model.root ? ok : refuse("root only");
  if (parsed.route === "/v1/identity/self/describe") return ok;
  const e = model.enclaves.get(enclave);
  if (caller === model.root) return e ? ok : refuse("no such enclave");
  const who = e?.ids.get(caller);
  if (!e || !who) return refuse("not in the enclave");
  if (!permitted(e, who, parsed.path, parsed.params.id)) return refuse("policy");
  if (parsed.route === "/v1/identity/create/:id") {
    const admin = parsed.body?.admin;
    if (admin !== undefined && admin !== null && admin !== false) return refuse("only root mints admins");
    const policy = parsed.body?.policy;
    if (policy !== undefined && policy !== null && policy !== "") {
      if (typeof policy !== "string" || !validName(policy)) return refuse("bad policy name");
      if (!permitted(e, who, `/v1/policy/assign/${policy}`, undefined)) return refuse("may not assign that policy");
    }
  }
  if (parsed.route === "/v1/identity/delete/:id" && e.ids.get(parsed.params.id ?? "")?.admin) return refuse("only root removes admins");
  return ok;
}
