import type { RestRequest } from "@mc/shared/rest";
import { objectOf, queryInt } from "./body.js";

/** REST helpers shared by the rows: the raw placeholder (made canonical before use), the body, the page query. */
export const at = (req: RestRequest, name: string): string => req.params[name] ?? "";
export const body = (req: RestRequest, optional = false) => objectOf(req.body, optional);
export const stale = (req: RestRequest): boolean => req.query.get("stale") === "true";
export const pageQuery = (req: RestRequest) => ({ continueAt: req.query.get("continue_at") ?? "", limit: queryInt(req.query, "limit") ?? 0, stale: stale(req) });
export const pageOf = (p: { items: readonly string[]; continueAt: string }) => ({ names: [...p.items], continueAt: p.continueAt });

/** With exactOptionalPropertyTypes, an absent value is an absent key. */
export function opt<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
