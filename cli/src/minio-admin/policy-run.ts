import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { policyEntitiesText, printAssociation } from "./ldap-policy-run.js";
import { addCannedPolicy, builtinPolicyAssociate, builtinPolicyEntities, infoCannedPolicy, listCannedPolicies, policyCapability, removeCannedPolicy } from "./policies.js";

/** `mc admin policy …` (upstream cmd/admin-policy-*.go): its `userPolicyMessage` in text and JSON. */

export async function runPolicyCreate(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 3) throw usageError("policy create needs ALIAS, POLICYNAME and POLICYFILE.");
  const doc = await readFile(args[2] ?? "").catch((err: unknown) => {
    throw mcError("Unable to get policy.", err, "invalid_argument");
  });
  const target = adminTarget(ctx, args[0]);
  const name = args[1] ?? "";
  await addCannedPolicy(target.client, name, doc).catch((err: unknown) => {
    throw adminFailure("Unable to create policy", policyCapability, err);
  });
  ctx.output.result({ status: "success", policy: name, isGroup: false }, `Created policy \`${name}\` successfully.`);
}

export async function runPolicyRemove(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("policy remove needs ALIAS and POLICYNAME.");
  const target = adminTarget(ctx, args[0]);
  const name = args[1] ?? "";
  await removeCannedPolicy(target.client, name).catch((err: unknown) => {
    throw adminFailure("Unable to remove policy", policyCapability, err);
  });
  ctx.output.result({ status: "success", policy: name, isGroup: false }, `Removed policy \`${name}\` successfully.`);
}

export async function runPolicyList(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("policy list needs ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const policies = await listCannedPolicies(target.client).catch((err: unknown) => {
    throw adminFailure("Unable to list policy", policyCapability, err);
  });
  // Go walks the map in random order; sorted here, so that output is stable.
  for (const name of Object.keys(policies).sort()) {
    ctx.output.result({ status: "success", policy: name, policyInfo: { PolicyName: "", Policy: null }, isGroup: false }, name);
  }
}

/** `policy info ALIAS NAME [--policy-file FILE]`: the document alone goes to FILE. */
export async function runPolicyInfo(ctx: McContext, args: readonly string[], policyFile: string | undefined): Promise<void> {
  if (args.length !== 2) throw usageError("policy info needs ALIAS and POLICYNAME.");
  const target = adminTarget(ctx, args[0]);
  const name = args[1] ?? "";
  const info = await infoCannedPolicy(target.client, name).catch((err: unknown) => {
    throw adminFailure("Unable to fetch policy info", policyCapability, err);
  });
  if (policyFile !== undefined) {
    // Atomic: a temp file beside it, renamed over it.
    const tmp = `${policyFile}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(info.Policy, null, " ")}\n`).then(() => rename(tmp, policyFile)).catch(async (err: unknown) => {
      await rm(tmp, { force: true });
      throw mcError("Unable to write the policy file.", err, "unavailable");
    });
  }
  // madmin's PolicyInfo: the dates only when set.
  const shown = info.CreateDate || info.UpdateDate ? info : { PolicyName: info.PolicyName, Policy: info.Policy };
  ctx.output.result({ status: "success", policy: name, policyInfo: shown, isGroup: false }, JSON.stringify(shown, null, " "));
}

export async function runPolicyAssociate(ctx: McContext, attach: boolean, args: readonly string[], user: string | undefined, group: string | undefined): Promise<void> {
  if (args.length < 2) throw usageError(`policy ${attach ? "attach" : "detach"} needs ALIAS and at least one POLICY.`);
  const policies = args.slice(1);
  const invalid =
    policies.some((p) => p === "") ? "an empty policy name was given"
    : !user && !group ? "no user or group association was given"
    : user && group ? "either a group or a user association must be given, not both"
    : "";
  if (invalid !== "") throw mcError(`Invalid policy ${attach ? "attach" : "detach"} arguments.`, new Error(invalid), "invalid_argument");
  const target = adminTarget(ctx, args[0]);
  const res = await builtinPolicyAssociate(target.client, attach, { policies, ...(user ? { user } : {}), ...(group ? { group } : {}) }).catch((err: unknown) => {
    throw adminFailure(`Unable to ${attach ? "attach" : "detach"} the policy`, policyCapability, err);
  });
  printAssociation(ctx, attach, (attach ? res.policiesAttached : res.policiesDetached) ?? [], user, group);
}

export async function runPolicyEntities(ctx: McContext, args: readonly string[], q: { users: readonly string[]; groups: readonly string[]; policies: readonly string[] }): Promise<void> {
  if (args.length !== 1) throw usageError("policy entities needs one ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const res = await builtinPolicyEntities(target.client, q).catch((err: unknown) => {
    throw adminFailure("Unable to fetch policy entities", policyCapability, err);
  });
  ctx.output.result({ status: "success", result: res }, policyEntitiesText(res));
}
