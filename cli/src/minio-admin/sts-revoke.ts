import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { accessKeyCapability } from "./idp.js";

export interface StsRevokeFlags {
  readonly all: boolean;
  readonly self: boolean;
  readonly tokenType: string | undefined;
}

/**
 * `mc admin accesskey sts-revoke ALIAS [USER] (--all | --token-type T) [--self]`
 * (upstream cmd/admin-accesskey-sts-revoke.go): madmin-go v3's RevokeTokens,
 * which v2.0.7 lacks: POST /revoke-tokens/builtin?user=U&tokenRevokeType=T
 * [&fullRevoke=true], answered 204.
 */
export async function runStsRevoke(ctx: McContext, args: readonly string[], f: StsRevokeFlags): Promise<void> {
  if (args.length === 0 || args.length > 2) throw usageError("accesskey sts-revoke needs ALIAS and USER (or --self).");
  const user = args[1] ?? "";
  const tokenType = f.tokenType ?? "";
  if (!f.self && user === "") throw mcError("Must specify user or use --self flag.", undefined, "invalid_argument");
  if (f.self && user !== "") throw mcError("Cannot specify user with --self flag.", undefined, "invalid_argument");
  // Upstream demands exactly one of --all and --token-type, yet its own example revokes `--self` alone (madmin accepts it: the caller's own kind of tokens).
  if ((f.all && tokenType !== "") || (!f.self && !f.all && tokenType === "")) throw mcError("Exactly one of --all or --token-type must be specified.", undefined, "invalid_argument");
  const target = adminTarget(ctx, args[0]);
  const query: Record<string, string> = { user, tokenRevokeType: tokenType, ...(f.all ? { fullRevoke: "true" } : {}) };
  await target.client.request({ method: "POST", path: "/revoke-tokens/builtin", query, expect: [204] }).catch((err: unknown) => {
    throw adminFailure(`Unable to revoke tokens for ${user}`, accessKeyCapability, err);
  });
  const who = user === "" ? "authenticated user" : `user ${user}`;
  const text = tokenType === "" ? `Successfully revoked all STS accounts for ${who}` : `Successfully revoked all STS accounts of type ${tokenType} for ${who}`;
  ctx.output.result({ status: "success", user, ...(tokenType !== "" ? { tokenRevokeType: tokenType } : {}) }, text);
}
