import { AppError } from "@mc/shared/errors";
import { checkIdentity, hexOfIdentity, identityInvalid } from "./identity.js";
import { checkName, invalidName, type NameKind } from "./names.js";

/**
 * A request as authorisation and audit see it, whatever transport and
 * spelling it arrived in: REST and Connect both build it here, and nowhere
 * else, so one canonical object is all a policy is ever matched against.
 */
export interface CanonicalRequest {
  /** The route template, e.g. `/v1/identity/delete/:id`. */
  readonly route: string;
  /** A valid enclave name. */
  readonly enclave: string;
  /** The template with its canonical parameter values: what policies match. */
  readonly path: string;
  /** Canonical parameter values: names as they are, identities in `h1:` form. */
  readonly params: Readonly<Record<string, string>>;
}

/** The contract's routes (§4) plus the Connect-only cluster RPCs, all checked by path. */
export const routeTemplates: ReadonlySet<string> = new Set([
  "/v1/status",
  ...["create", "import", "describe", "delete", "generate", "encrypt", "decrypt", "hmac"].map((op) => `/v1/key/${op}/:name`),
  "/v1/key/list/:pattern",
  ...["create", "describe", "read", "assign", "unassign", "delete"].map((op) => `/v1/policy/${op}/:name`),
  "/v1/policy/list/:pattern",
  ...["create", "describe", "delete"].map((op) => `/v1/identity/${op}/:id`),
  "/v1/identity/self/describe",
  "/v1/identity/list/:pattern",
  "/v1/log/audit",
  ...["create", "delete", "describe"].map((op) => `/v1/enclave/${op}/:name`),
  "/v1/enclave/list/:pattern",
  ...["status", "add", "remove", "transfer", "node"].map((op) => `/v1/cluster/${op}`),
]);

const kindOfArea: Readonly<Record<string, NameKind>> = { key: "key", policy: "policy", enclave: "enclave" };
// A list pattern is a prefix of what it lists plus an optional `*`: a prefix
// outside the alphabet (a `/`, a dot, a second `*`) could only ever hide a
// second meaning in the policy path, so it is refused rather than passed on.
const namePrefix = /^[A-Za-z0-9_-]{0,80}$/;
const identityPrefix = /^[A-Za-z0-9_:-]{0,67}$/;

function listPattern(area: string, pattern: string): string {
  const prefix = pattern.endsWith("*") ? pattern.slice(0, -1) : undefined;
  const kind = kindOfArea[area];
  if (prefix === undefined) return kind ? checkName(kind, pattern) : checkIdentity(pattern);
  if (kind) {
    if (!namePrefix.test(prefix)) throw invalidName(kind, pattern);
  } else if (!identityPrefix.test(prefix)) {
    throw identityInvalid(pattern);
  }
  return pattern;
}

function canonicalParam(route: string, area: string, param: string, value: string): string {
  const kind = kindOfArea[area];
  if (param === "id") return checkIdentity(value);
  if (param === "name" && kind) return checkName(kind, value);
  if (param === "pattern") return listPattern(area, value);
  throw new Error(`route ${route} has an unknown placeholder :${param}`);
}

/**
 * The one normalisation step: validates the enclave and every placeholder,
 * rewrites identities to `h1:`, and fills the template. Anything that has no
 * canonical form is the contract's 400, before any policy is consulted.
 */
export function canonicalRequest(route: string, raw: Readonly<Record<string, string>>, enclave: string): CanonicalRequest {
  if (!routeTemplates.has(route)) throw new Error(`unknown route template ${route}`);
  checkName("enclave", enclave);
  const params: Record<string, string> = {};
  const area = route.split("/")[2] ?? "";
  const path = route.replace(/:(\w+)/g, (_, name: string) => {
    const value = canonicalParam(route, area, name, raw[name] ?? "");
    params[name] = value;
    return value;
  });
  return { route, enclave, path, params };
}

/**
 * The request path in every spelling a policy pattern may be written in: a
 * pattern may name an identity, or an identity prefix, in KES's hex form.
 */
export function spellingsOf(request: CanonicalRequest): readonly string[] {
  const id = request.params.id;
  if (id === undefined) return [request.path];
  return [request.path, request.route.replace(":id", hexOfIdentity(id))];
}

function matchTemplate(parts: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (parts.length !== segments.length) return undefined;
  const raw: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i] ?? "";
    if (part.startsWith(":")) raw[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return raw;
}

// Split once: every audit event is matched against the templates, once per subscriber.
const templateParts: ReadonlyArray<readonly [string, readonly string[]]> = [...routeTemplates].map((route) => [route, route.split("/")]);

/** The canonical request a path already in canonical form stands for; undefined for any other text. */
export function parseCanonicalPath(path: string, enclave: string): CanonicalRequest | undefined {
  const segments = path.split("/");
  for (const [route, parts] of templateParts) {
    const raw = matchTemplate(parts, segments);
    if (!raw) continue;
    try {
      const request = canonicalRequest(route, raw, enclave);
      return request.path === path ? request : undefined;
    } catch (err) {
      if (err instanceof AppError) return undefined;
      throw err;
    }
  }
  return undefined;
}
