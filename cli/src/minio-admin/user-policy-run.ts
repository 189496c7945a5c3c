import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { infoCannedPolicy, policyCapability } from "./policies.js";
import { userCapability, userInfo } from "./users.js";

interface PolicyDoc {
  Version?: string;
  Statement?: unknown[];
}

/** minio/pkg `policy.MergePolicies`: the first version, every statement once, in order. */
export function mergePolicies(docs: readonly PolicyDoc[]): { Version: string; Statement: unknown[] } {
  const seen = new Set<string>();
  const Statement: unknown[] = [];
  let Version = "";
  for (const d of docs) {
    if (Version === "") Version = d.Version ?? "";
    for (const st of d.Statement ?? []) {
      const key = JSON.stringify(st);
      if (seen.has(key)) continue;
      seen.add(key);
      Statement.push(st);
    }
  }
  return { Version, Statement };
}

/**
 * `mc admin user policy ALIAS USERNAME` (upstream cmd/admin-user-policy.go):
 * the user's info, then each of its policies (madmin InfoCannedPolicyV2),
 * merged into one document printed as compact JSON (with or without --json).
 */
export async function runUserPolicy(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("user policy needs ALIAS and USERNAME.");
  const target = adminTarget(ctx, args[0]);
  const user = args[1] ?? "";
  const info = await userInfo(target.client, user).catch((err: unknown) => {
    throw adminFailure("Unable to get user info", userCapability, err);
  });
  if (!info.policyName) throw mcError("Unable to fetch user policy document.", new Error(`policy not found for user ${user}`), "not_found");
  const docs: PolicyDoc[] = [];
  for (const name of info.policyName.split(",").filter((n) => n !== "")) {
    const p = await infoCannedPolicy(target.client, name).catch((err: unknown) => {
      throw adminFailure(`Unable to fetch user policy document for policy ${name}`, policyCapability, err);
    });
    docs.push((p.Policy ?? {}) as PolicyDoc);
  }
  ctx.output.line(JSON.stringify(mergePolicies(docs)));
}
