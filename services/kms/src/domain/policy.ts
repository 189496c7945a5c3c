import { AppError } from "@mc/shared/errors";
import { parseIdentity } from "./identity.js";

/**
 * Path-pattern policies with KES semantics: a trailing `*` is a prefix match
 * (only one `*`, only at the end), anything else is exact.
 */
export interface PolicyRules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

export function isValidPattern(pattern: string): boolean {
  if (!pattern.startsWith("/")) return false;
  const star = pattern.indexOf("*");
  return star < 0 || star === pattern.length - 1;
}

export function checkRules(rules: PolicyRules): PolicyRules {
  for (const p of [...rules.allow, ...rules.deny]) {
    if (!isValidPattern(p)) throw new AppError("invalid_argument", "invalid request body");
  }
  return rules;
}

export function matchesPattern(pattern: string, path: string): boolean {
  if (pattern.endsWith("*")) return path.startsWith(pattern.slice(0, -1));
  return pattern === path;
}

const identityRoute = /^(\/v1\/identity\/(?:create|describe|delete)\/)(.*)$/;
const hexPrefix = /^[0-9a-fA-F]*$/;

/**
 * A pattern with the identity it names in canonical spelling: a whole
 * identity (h1 or hex of either case) in `h1:` form, a hex prefix in lower
 * case (it is matched against the hex spelling of the request).
 */
export function canonicalPattern(pattern: string): string {
  const m = identityRoute.exec(pattern);
  if (!m) return pattern;
  const [, route = "", rest = ""] = m;
  if (rest.endsWith("*")) {
    const head = rest.slice(0, -1);
    return hexPrefix.test(head) ? `${route}${head.toLowerCase()}*` : pattern;
  }
  const id = parseIdentity(rest);
  return id === undefined ? pattern : `${route}${id}`;
}

// Policies are immutable once created; canonicalising their patterns once
// keeps the per-request check to plain string comparisons.
const canonicalRules = new WeakMap<PolicyRules, PolicyRules>();
function canonicalOf(rules: PolicyRules): PolicyRules {
  let c = canonicalRules.get(rules);
  if (!c) {
    c = { allow: rules.allow.map(canonicalPattern), deny: rules.deny.map(canonicalPattern) };
    canonicalRules.set(rules, c);
  }
  return c;
}

/**
 * Any deny in any policy wins; else any allow in any allows; else denied.
 * `spellings` is the canonical request path, in every spelling a pattern may
 * use (see `spellingsOf`): a pattern matches if it matches one of them.
 */
export function isAllowed(policies: readonly PolicyRules[], spellings: string | readonly string[]): boolean {
  const paths = typeof spellings === "string" ? [spellings] : spellings;
  const rules = policies.map(canonicalOf);
  const hit = (patterns: readonly string[]) => patterns.some((p) => paths.some((path) => matchesPattern(p, path)));
  if (rules.some((r) => hit(r.deny))) return false;
  return rules.some((r) => hit(r.allow));
}
