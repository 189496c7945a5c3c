import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { infoCannedPolicy, policyCapability } from "./policies.js";
import { userCapability, userInfo } from "./users.js";

/**
 * `mc admin user policy ALIAS USERNAME` (upstream cmd/admin-user-policy.go):
 * the user's info, then the policy document of its policy name (madmin
 * InfoCannedPolicyV2), printed as the server's JSON text. Upstream asks for
 * the policy even when the user has none, then fails; we fail without asking.
 */
export async function runUserPolicy(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("user policy needs ALIAS and USERNAME.");
  const target = adminTarget(ctx, args[0]);
  const user = args[1] ?? "";
  const info = await userInfo(target.client, user).catch((err: unknown) => {
    throw adminFailure("Unable to get user info", userCapability, err);
  });
  if (!info.policyName) throw mcError("Unable to fetch user policy document.", new Error(`Policy not found for user ${user}`), "not_found");
  const p = await infoCannedPolicy(target.client, info.policyName).catch((err: unknown) => {
    throw adminFailure("Unable to fetch user policy document", policyCapability, err);
  });
  // Upstream prints the document alone (fmt.Println), with or without --json.
  ctx.output.line(JSON.stringify(p.Policy));
}
