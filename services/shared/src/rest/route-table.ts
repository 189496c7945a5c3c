/**
 * Matching of documented REST paths: `:name` takes one path segment (still
 * percent-encoded, so `%2f` stays inside it), `*name` takes the rest.
 * Pure: no HTTP types, so the KMS edge and the public gateway share it.
 */
export interface RouteSpec<T> {
  readonly methods: readonly string[];
  readonly pattern: string;
  readonly value: T;
}

export type RouteMatch<T> =
  | { readonly kind: "found"; readonly value: T; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "method_not_allowed"; readonly allowed: readonly string[] }
  | { readonly kind: "not_found" };

interface Compiled<T> {
  readonly spec: RouteSpec<T>;
  readonly parts: readonly string[];
}

export class InvalidPathError extends Error {}

function decode(segment: string): string {
  let value: string;
  try {
    value = decodeURIComponent(segment);
  } catch {
    throw new InvalidPathError("invalid percent-encoding in path");
  }
  if (value.includes("\0")) throw new InvalidPathError("NUL byte in path");
  return value;
}

function matchParts(parts: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    if (part.startsWith("*")) {
      // Joined with "/", so an encoded slash inside a segment would forge a
      // deeper path: refuse it here rather than let it alias another file.
      params[part.slice(1)] = segments
        .slice(i)
        .map((seg) => {
          const value = decode(seg);
          if (value.includes("/")) throw new InvalidPathError("encoded slash in path");
          return value;
        })
        .join("/");
      return params;
    }
    const segment = segments[i];
    if (segment === undefined) return undefined;
    if (part.startsWith(":")) {
      params[part.slice(1)] = decode(segment);
    } else if (part !== segment) {
      return undefined;
    }
  }
  return parts.length === segments.length ? params : undefined;
}

export interface RouteTable<T> {
  /** `rawPath` is the path as sent, without the query. Throws InvalidPathError. */
  match(method: string, rawPath: string): RouteMatch<T>;
}

export function createRouteTable<T>(specs: readonly RouteSpec<T>[]): RouteTable<T> {
  const compiled: Compiled<T>[] = specs.map((spec) => ({ spec, parts: spec.pattern.split("/").slice(1) }));
  return {
    match(method, rawPath) {
      const segments = rawPath.split("/").slice(1);
      const allowed = new Set<string>();
      for (const route of compiled) {
        const params = matchParts(route.parts, segments);
        if (!params) continue;
        const methods = route.spec.methods.includes("GET") ? [...route.spec.methods, "HEAD"] : route.spec.methods;
        if (methods.includes(method)) return { kind: "found", value: route.spec.value, params };
        for (const m of methods) allowed.add(m);
      }
      return allowed.size > 0 ? { kind: "method_not_allowed", allowed: [...allowed] } : { kind: "not_found" };
    },
  };
}
