import { AppError } from "@mc/shared";

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

/** Any deny in any policy wins; else any allow in any allows; else denied. */
export function isAllowed(policies: readonly PolicyRules[], path: string): boolean {
  if (policies.some((p) => p.deny.some((d) => matchesPattern(d, path)))) return false;
  return policies.some((p) => p.allow.some((a) => matchesPattern(a, path)));
}
