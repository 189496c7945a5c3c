import { randomBytes } from "node:crypto";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { deleteServiceAccount, updateServiceAccount } from "./access-keys.js";
import { expiryOf, goJsonTime, goTimeString, policyOf } from "./access-key-run.js";
import { humanizeTime } from "./text-box.js";
import { prettyRow } from "./user-run.js";
import { addServiceAccount, infoServiceAccount, listServiceAccounts, svcacctCapability, temporaryAccountInfo, userCapability, type SvcInfo } from "./users.js";

/** `mc admin user svcacct …` and `admin user sts info` (upstream cmd/admin-user-svcacct-*.go, its `acctMessage`). */

const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** upstream `generateCredentials`: 20 characters of [0-9A-Z]; 40 of base64 with `/` read as `+`. */
function generateCredentials(): { accessKey: string; secretKey: string } {
  const accessKey = [...randomBytes(20)].map((b) => alnum[b % alnum.length]).join("");
  const secretKey = randomBytes(40).toString("base64").slice(0, 40).replaceAll("/", "+");
  return { accessKey, secretKey };
}

/** A Go time that is set: not null and not Go's zero time. */
function setTime(e: string | null | undefined): Date | undefined {
  if (e === undefined || e === null) return undefined;
  const d = new Date(e);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() <= 1 ? undefined : d;
}

export interface SvcFlags {
  readonly accessKey?: string | undefined;
  readonly secretKey?: string | undefined;
  readonly policy?: string | undefined;
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly expiry?: string | undefined;
}

export async function runSvcAdd(ctx: McContext, args: readonly string[], f: SvcFlags): Promise<void> {
  if (args.length !== 2) throw usageError("user svcacct add needs ALIAS and ACCOUNT.");
  const exp = expiryOf({ expiry: f.expiry });
  const policy = await policyOf(f.policy);
  const target = adminTarget(ctx, args[0]);
  const gen = generateCredentials();
  const creds = await addServiceAccount(target.client, {
    ...(policy !== undefined ? { policy } : {}),
    targetUser: args[1] ?? "",
    accessKey: f.accessKey || gen.accessKey,
    secretKey: f.secretKey || gen.secretKey,
    ...(f.name ? { name: f.name } : {}),
    ...(f.description ? { description: f.description } : {}),
    ...(exp ? { expiration: goJsonTime(exp) } : {}),
  }).catch((err: unknown) => {
    throw adminFailure("Unable to add a new service account", svcacctCapability, err);
  });
  // upstream prints the answer's expiration always (Go's zero time when none), "no-expiry" for none or its epoch sentinel.
  const real = setTime(creds.expiration);
  const shown = real && real.getTime() !== 0 ? goTimeString(real) : "no-expiry";
  ctx.output.result(
    { status: "success", accessKey: creds.accessKey, secretKey: creds.secretKey, accountStatus: "enabled", expiration: creds.expiration ?? "0001-01-01T00:00:00Z" },
    `Access Key: ${creds.accessKey}\nSecret Key: ${creds.secretKey}\nExpiration: ${shown}`,
  );
}

export async function runSvcList(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("user svcacct list needs ALIAS and ACCOUNT.");
  const target = adminTarget(ctx, args[0]);
  const accounts = await listServiceAccounts(target.client, args[1] ?? "").catch((err: unknown) => {
    throw adminFailure("Unable to list service accounts", svcacctCapability, err);
  });
  for (const a of accounts) {
    const exp = setTime(a.expiration);
    ctx.output.result(
      { status: "success", accessKey: a.accessKey, ...(a.expiration ? { expiration: a.expiration } : {}) },
      prettyRow([a.accessKey, exp ? goTimeString(exp) : "no-expiry"], [20, 29], " | "),
    );
  }
}

function infoOutput(ctx: McContext, accessKey: string, r: SvcInfo): void {
  let policy: unknown;
  try {
    policy = r.policy ? JSON.parse(r.policy) : undefined;
  } catch {
    policy = undefined; // not JSON: upstream's RawMessage would not marshal either; left out
  }
  const exp = r.expiration === undefined || r.expiration === null ? undefined : new Date(r.expiration);
  ctx.output.result(
    {
      status: "success",
      accessKey,
      ...(r.parentUser ? { parentUser: r.parentUser } : {}),
      ...(r.impliedPolicy ? { impliedPolicy: true } : {}),
      ...(policy !== undefined ? { policy } : {}),
      ...(r.name ? { name: r.name } : {}),
      ...(r.description ? { description: r.description } : {}),
      ...(r.accountStatus ? { accountStatus: r.accountStatus } : {}),
      ...(r.expiration ? { expiration: r.expiration } : {}),
    },
    [
      `AccessKey: ${accessKey}`,
      `ParentUser: ${r.parentUser ?? ""}`,
      `Status: ${r.accountStatus ?? ""}`,
      `Name: ${r.name ?? ""}`,
      `Description: ${r.description ?? ""}`,
      `Policy: ${r.impliedPolicy ? "implied" : "embedded"}`,
      `Expiration: ${exp && !Number.isNaN(exp.getTime()) ? humanizeTime(exp) : "no-expiry"}`,
    ].join("\n"),
  );
}

export async function runSvcInfo(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("user svcacct info needs ALIAS and SERVICE-ACCOUNT.");
  const target = adminTarget(ctx, args[0]);
  const r = await infoServiceAccount(target.client, args[1] ?? "").catch((err: unknown) => {
    throw adminFailure("Unable to get information of the specified service account", svcacctCapability, err);
  });
  infoOutput(ctx, args[1] ?? "", r);
}

export async function runStsInfo(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("user sts info needs ALIAS and STS-ACCESS-KEY.");
  const target = adminTarget(ctx, args[0]);
  const r = await temporaryAccountInfo(target.client, args[1] ?? "").catch((err: unknown) => {
    throw adminFailure("Unable to get information of the specified temporary account", userCapability, err);
  });
  infoOutput(ctx, args[1] ?? "", r);
}

function aliasAndKey(args: readonly string[], verb: string): [string, string] {
  if (args.length !== 2) throw usageError(`user svcacct ${verb} needs ALIAS and SERVICE-ACCOUNT.`);
  return [args[0] ?? "", args[1] ?? ""];
}

export async function runSvcEdit(ctx: McContext, args: readonly string[], f: SvcFlags): Promise<void> {
  const [aliasArg, accessKey] = aliasAndKey(args, "edit");
  const exp = expiryOf({ expiry: f.expiry });
  const policy = await policyOf(f.policy);
  const target = adminTarget(ctx, aliasArg);
  await updateServiceAccount(target.client, accessKey, {
    ...(policy !== undefined ? { newPolicy: policy } : {}),
    ...(f.secretKey ? { newSecretKey: f.secretKey } : {}),
    ...(f.name ? { newName: f.name } : {}),
    ...(f.description ? { newDescription: f.description } : {}),
    ...(exp ? { newExpiration: goJsonTime(exp) } : {}),
  }).catch((err: unknown) => {
    throw adminFailure("Unable to edit the specified service account", svcacctCapability, err);
  });
  ctx.output.result({ status: "success", accessKey }, `Edited service account \`${accessKey}\` successfully.`);
}

export async function runSvcStatus(ctx: McContext, args: readonly string[], enable: boolean): Promise<void> {
  const [aliasArg, accessKey] = aliasAndKey(args, enable ? "enable" : "disable");
  const target = adminTarget(ctx, aliasArg);
  await updateServiceAccount(target.client, accessKey, { newStatus: enable ? "on" : "off" }).catch((err: unknown) => {
    throw adminFailure(`Unable to ${enable ? "enable" : "disable"} the specified service account`, svcacctCapability, err);
  });
  ctx.output.result({ status: "success", accessKey }, `${enable ? "Enabled" : "Disabled"} service account \`${accessKey}\` successfully.`);
}

export async function runSvcRemove(ctx: McContext, args: readonly string[]): Promise<void> {
  const [aliasArg, accessKey] = aliasAndKey(args, "remove");
  const target = adminTarget(ctx, aliasArg);
  await deleteServiceAccount(target.client, accessKey).catch((err: unknown) => {
    throw adminFailure("Unable to remove the specified service account", svcacctCapability, err);
  });
  ctx.output.result({ status: "success", accessKey }, `Removed service account \`${accessKey}\` successfully.`);
}
