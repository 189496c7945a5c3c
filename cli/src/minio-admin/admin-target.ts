import type { ResolvedAlias } from "../config/aliases.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { createAdminClient, type AdminClient } from "./admin-client.js";

export interface AdminTarget {
  readonly client: AdminClient;
  readonly alias: ResolvedAlias;
  /** What follows `ALIAS/` (a bucket, or ""), without a trailing slash. */
  readonly path: string;
}

/**
 * `ALIAS` or `ALIAS/BUCKET` of an admin command (upstream `url2Alias` +
 * `newAdminClient`): an unknown alias fails as upstream's "Unable to
 * initialize admin connection."
 */
export function adminTarget(ctx: McContext, arg: string | undefined, needsBucket = false): AdminTarget {
  if (arg === undefined || arg === "") throw usageError("an ALIAS argument is needed.");
  const slash = arg.indexOf("/");
  const name = slash < 0 ? arg : arg.slice(0, slash);
  const path = slash < 0 ? "" : arg.slice(slash + 1).replace(/\/+$/, "");
  const alias = ctx.aliases.get(name);
  if (alias === undefined) throw mcError("Unable to initialize admin connection.", new Error(`No valid configuration found for '${name}' host alias`), "invalid_argument");
  if (alias.apiKey !== undefined) throw mcError("Unable to initialize admin connection.", new Error(`\`${name}\` is a KMS alias; this command needs a MinIO server`), "invalid_argument");
  if (needsBucket && path === "") throw usageError(`\`${arg}\` names no bucket; use ALIAS/BUCKET.`);
  return { client: createAdminClient(ctx, alias), alias, path };
}
