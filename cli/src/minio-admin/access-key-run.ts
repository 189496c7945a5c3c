import { randomInt } from "node:crypto";
import { readFile } from "node:fs/promises";
import { isAppError } from "@mc/shared/errors";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { parseDuration } from "../util/humanize.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { accessKeyCapability } from "./idp.js";
import {
  addLdapServiceAccount,
  deleteServiceAccount,
  infoAccessKey,
  listBuiltinAccessKeys,
  listLdapAccessKeys,
  listOpenIdAccessKeys,
  updateServiceAccount,
  type ListOptions,
  type ServiceAccountInfo,
} from "./access-keys.js";
import { humanizeTime } from "./text-box.js";

/**
 * `mc idp ldap|openid accesskey …` (upstream cmd/idp-ldap-accesskey-*.go,
 * cmd/idp-openid-accesskey-*.go, cmd/admin-accesskey-info.go).
 */
const sentinel = 0; // Unix epoch: madmin's "no expiration"

/** A server expiration that means none (null, Go's zero time, the epoch) is undefined. */
export function realExpiry(e: string | null | undefined): Date | undefined {
  if (e === undefined || e === null) return undefined;
  const d = new Date(e);
  return Number.isNaN(d.getTime()) || d.getTime() === sentinel || d.getUTCFullYear() <= 1 ? undefined : d;
}

/** Go's JSON time text (RFC 3339, fraction only when not zero), in UTC. */
export function goJsonTime(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, "Z");
}

export interface ListFlags {
  readonly usersOnly: boolean;
  readonly tempOnly: boolean;
  readonly svcaccOnly: boolean;
  readonly self: boolean;
  readonly all: boolean;
}

/** upstream `commonAccesskeyList`: ALIAS[:CFG] [USER…]; with neither users, --self nor --all, --all first and --self when refused. */
function listOptions(args: readonly string[], f: ListFlags): { aliasArg: string; tentativeAll: boolean; opts: ListOptions } {
  if (args.length === 0) throw usageError("accesskey list needs ALIAS.");
  const [aliasArg = "", cfg = ""] = (args[0] ?? "").split(/:(.*)/s);
  const users = args.slice(1);
  if ([f.usersOnly, f.tempOnly, f.svcaccOnly].filter(Boolean).length > 1) throw mcError("Invalid flags.", new Error("only one of --users-only, --temp-only, or --permanent-only can be specified"), "invalid_argument");
  if (f.self && f.all) throw mcError("Invalid flags.", new Error("only one of --self or --all can be specified"), "invalid_argument");
  if ((f.self || f.all) && users.length > 0) throw mcError("Invalid flags.", new Error("users cannot be specified with --self or --all"), "invalid_argument");
  const tentativeAll = !f.self && !f.all && users.length === 0;
  const listType = f.usersOnly ? "users-only" : f.tempOnly ? "sts-only" : f.svcaccOnly ? "svcacc-only" : "all";
  return { aliasArg, tentativeAll, opts: { listType, all: f.all || tentativeAll, users, ...(cfg ? { configName: cfg } : {}) } };
}

async function withSelfRetry<T>(tentativeAll: boolean, opts: ListOptions, list: (o: ListOptions) => Promise<T>): Promise<T> {
  try {
    return await list(opts);
  } catch (err) {
    if (tentativeAll && isAppError(err) && err.details["code"] === "AccessDenied") return list({ ...opts, all: false });
    throw err;
  }
}

function keyLines(keys: readonly ServiceAccountInfo[] | null, sts: boolean, indent: number): string {
  return (keys ?? []).map((k) => {
    const exp = realExpiry(k.expiration);
    return `${" ".repeat(indent)}${k.accessKey}, expires: ${exp ? humanizeTime(exp) : "never"}, sts: ${sts}\n`;
  }).join("");
}

export async function runLdapAccessKeyList(ctx: McContext, args: readonly string[], f: ListFlags): Promise<void> {
  const { aliasArg, tentativeAll, opts } = listOptions(args, f);
  const target = adminTarget(ctx, aliasArg);
  const { configName: _ignored, ...ldapOpts } = opts;
  const byDn = await withSelfRetry(tentativeAll, ldapOpts, (o) => listLdapAccessKeys(target.client, o)).catch((err: unknown) => {
    throw adminFailure("Unable to list access keys", accessKeyCapability, err);
  });
  // Go walks the map in random order; sorted here, so that output is stable.
  for (const dn of Object.keys(byDn).sort()) {
    const k = byDn[dn] ?? { stsKeys: null, serviceAccounts: null };
    const any = (k.stsKeys ?? []).length + (k.serviceAccounts ?? []).length > 0;
    const text = `DN: ${dn}\n${any ? "  Access Keys:\n" : ""}${keyLines(k.stsKeys, true, 4)}${keyLines(k.serviceAccounts, false, 4)}`;
    ctx.output.result({ status: "success", user: dn, stsKeys: k.stsKeys ?? null, svcaccs: k.serviceAccounts ?? null, ldap: true }, text);
  }
}

/** `admin accesskey list` (upstream cmd/admin-accesskey-list.go): as the LDAP list, by user name. */
export async function runBuiltinAccessKeyList(ctx: McContext, args: readonly string[], f: ListFlags): Promise<void> {
  const { aliasArg, tentativeAll, opts } = listOptions(args, f);
  const target = adminTarget(ctx, aliasArg);
  const { configName: _ignored, ...builtinOpts } = opts;
  const byUser = await withSelfRetry(tentativeAll, builtinOpts, (o) => listBuiltinAccessKeys(target.client, o)).catch((err: unknown) => {
    throw adminFailure("Unable to list access keys", accessKeyCapability, err);
  });
  for (const user of Object.keys(byUser).sort()) {
    const k = byUser[user] ?? { stsKeys: null, serviceAccounts: null };
    const any = (k.stsKeys ?? []).length + (k.serviceAccounts ?? []).length > 0;
    const text = `User: ${user}\n${any ? "  Access Keys:\n" : ""}${keyLines(k.stsKeys, true, 4)}${keyLines(k.serviceAccounts, false, 4)}`;
    ctx.output.result({ status: "success", user, stsKeys: k.stsKeys ?? null, svcaccs: k.serviceAccounts ?? null }, text);
  }
}

export async function runOpenIdAccessKeyList(ctx: McContext, args: readonly string[], f: ListFlags): Promise<void> {
  const { aliasArg, tentativeAll, opts } = listOptions(args, f);
  const target = adminTarget(ctx, aliasArg);
  const configs = await withSelfRetry(tentativeAll, opts, (o) => listOpenIdAccessKeys(target.client, o)).catch((err: unknown) => {
    throw adminFailure("Unable to list access keys", accessKeyCapability, err);
  });
  for (const cfg of configs) {
    let text = `Config Name: ${cfg.configName}\n`;
    for (const u of cfg.users ?? []) {
      text += `  User ID: ${u.minioAccessKey}\n  ID: ${u.ID}\n${u.readableName ? `  Readable Name: ${u.readableName}\n` : ""}`;
      if ((u.stsKeys ?? []).length + (u.serviceAccounts ?? []).length > 0) text += "    Access Keys:\n";
      text += keyLines(u.stsKeys, true, 6) + keyLines(u.serviceAccounts, false, 6);
    }
    ctx.output.result({ status: "success", configName: cfg.configName, users: cfg.users ?? null }, text);
  }
}

export async function runAccessKeyInfo(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length < 2) throw usageError("accesskey info needs ALIAS and at least one ACCESSKEY.");
  const target = adminTarget(ctx, args[0]);
  for (const accessKey of args.slice(1)) {
    const r = await infoAccessKey(target.client, accessKey).catch((err: unknown) => {
      throw adminFailure("Unable to get info for access key", accessKeyCapability, err);
    });
    let policy: unknown = r.policy;
    try {
      if (r.policy) policy = JSON.parse(r.policy);
    } catch {
      // Not JSON: shown as the server's text.
    }
    const exp = realExpiry(r.expiration);
    const providerInfo =
      r.userProvider === "ldap" ? { ...(r.ldapSpecificInfo?.username ? { username: r.ldapSpecificInfo.username } : {}) }
      : r.userProvider === "openid" ? { configName: r.openIDSpecificInfo?.configName ?? "", userID: r.openIDSpecificInfo?.userID ?? "", userIDClaim: r.openIDSpecificInfo?.userIDClaim ?? "", ...(r.openIDSpecificInfo?.displayName ? { displayName: r.openIDSpecificInfo.displayName } : {}), ...(r.openIDSpecificInfo?.displayNameClaim ? { displayNameClaim: r.openIDSpecificInfo.displayNameClaim } : {}) }
      : undefined;
    const json = {
      status: "success",
      accessKey,
      ...(r.parentUser ? { parentUser: r.parentUser } : {}),
      ...(r.accountStatus ? { accountStatus: r.accountStatus } : {}),
      ...(r.impliedPolicy ? { impliedPolicy: true } : {}),
      ...(r.policy ? { policy } : {}),
      ...(r.name ? { name: r.name } : {}),
      ...(r.description ? { description: r.description } : {}),
      ...(exp ? { expiration: goJsonTime(exp) } : {}),
      ...(r.userProvider ? { provider: r.userProvider } : {}),
      ...(providerInfo ? { providerInfo } : {}),
    };
    let text = [
      `Access Key: ${accessKey}`,
      `Parent User: ${r.parentUser ?? ""}`,
      `Status: ${r.accountStatus === "off" ? "disabled" : "enabled"}`,
      `Policy: ${r.impliedPolicy ? "implied" : "embedded"}`,
      `Name: ${r.name ?? ""}`,
      `Description: ${r.description ?? ""}`,
      `Expiration: ${exp ? humanizeTime(exp) : "NONE"}`,
      "STS: false",
      `Provider: ${r.userProvider ?? ""}`,
    ].join("\n") + "\n";
    if (r.userProvider === "ldap") text += `Provider Specific Info:\nUsername: ${r.ldapSpecificInfo?.username ?? ""}`;
    if (r.userProvider === "openid") {
      const o = r.openIDSpecificInfo ?? {};
      text += `Provider Specific Info:\nConfig Name: ${o.configName ?? ""}\nUser ID: ${o.userID ?? ""}\nUser ID Claim: ${o.userIDClaim ?? ""}\n`;
    }
    ctx.output.result(json, text);
  }
}

export interface KeyEditFlags {
  readonly accessKey?: string | undefined;
  readonly secretKey?: string | undefined;
  readonly policy?: string | undefined;
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly expiryDuration?: string | undefined;
  readonly expiry?: string | undefined;
}

/** --expiry DATE (local time unless it says its zone) or --expiry-duration D; at most one. */
export function expiryOf(f: KeyEditFlags): Date | undefined {
  if (f.expiry && f.expiryDuration) throw mcError("Invalid flags.", new Error("Only one of --expiry or --expiry-duration can be specified"), "invalid_argument");
  if (f.expiry) {
    const local = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/.test(f.expiry);
    const rfc = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(f.expiry);
    const d = local ? new Date(f.expiry.length === 10 ? `${f.expiry}T00:00:00` : f.expiry) : rfc ? new Date(f.expiry) : new Date(Number.NaN);
    if (Number.isNaN(d.getTime())) throw mcError("Unable to parse the expiry argument.", new Error(`invalid expiry date format '${f.expiry}'`), "invalid_argument");
    return d;
  }
  if (f.expiryDuration) {
    const ms = parseDuration(f.expiryDuration);
    if (ms === undefined || ms <= 0) throw mcError("Unable to parse the expiry argument.", new Error(`invalid duration '${f.expiryDuration}'`), "invalid_argument");
    return new Date(Date.now() + ms);
  }
  return undefined;
}

/** A policy document from a file: JSON with at least one statement. */
export async function policyOf(path: string | undefined): Promise<unknown> {
  if (!path) return undefined;
  const text = await readFile(path, "utf8").catch((err: unknown) => {
    throw mcError("Unable to open the policy document.", err, "invalid_argument");
  });
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw mcError("Unable to parse the policy document.", err, "invalid_argument");
  }
  const statements = typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>)["Statement"] : undefined;
  if (!Array.isArray(statements) || statements.length === 0) throw mcError("Empty policy documents are not allowed.", undefined, "invalid_argument");
  return doc;
}

/** mc `generateCredentials`: a 20-character access key and a 40-character secret key. */
function generated(length: number, alphabet: string): string {
  return Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join("");
}
const upperAlnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Go's time.String in UTC: `2030-01-02 00:00:00 +0000 UTC`. */
export const goTimeString = (d: Date): string => `${d.toISOString().replace("T", " ").replace(/\.000Z$|Z$/, "")} +0000 UTC`;

/** `idp ldap accesskey create`, or with `builtin` `admin accesskey create` (PUT add-service-account): upstream's `commonAccesskeyCreate`. */
export async function runLdapAccessKeyCreate(ctx: McContext, args: readonly string[], f: KeyEditFlags, builtin = false): Promise<void> {
  if (args.length === 0 || args.length > 2) throw usageError(`${builtin ? "admin" : "idp ldap"} accesskey create needs ALIAS [TARGET_USER].`);
  const exp = expiryOf(f);
  const policy = await policyOf(f.policy);
  const target = adminTarget(ctx, args[0]);
  const accessKey = f.accessKey || generated(20, upperAlnum);
  const secretKey = f.secretKey || generated(40, `${upperAlnum}abcdefghijklmnopqrstuvwxyz`);
  const res = await addLdapServiceAccount(target.client, {
    ...(policy !== undefined ? { policy } : {}),
    ...(args[1] ? { targetUser: args[1] } : {}),
    accessKey,
    secretKey,
    ...(f.name ? { name: f.name } : {}),
    ...(f.description ? { description: f.description } : {}),
    expiration: goJsonTime(exp ?? new Date(0)),
  }, builtin ? "/add-service-account" : undefined).catch((err: unknown) => {
    throw adminFailure("Unable to add service account", accessKeyCapability, err);
  });
  const real = realExpiry(res.expiration);
  const json = { status: "success", accessKey: res.accessKey, secretKey: res.secretKey, expiration: res.expiration ?? "0001-01-01T00:00:00Z", ...(f.name ? { name: f.name } : {}), ...(f.description ? { description: f.description } : {}) };
  ctx.output.result(json, `Access Key: ${res.accessKey}\nSecret Key: ${res.secretKey}\nExpiration: ${real ? goTimeString(real) : "NONE"}\nName: ${f.name ?? ""}\nDescription: ${f.description ?? ""}\n`);
}

function aliasAndKey(args: readonly string[], verb: string): [string, string] {
  if (args.length !== 2) throw usageError(`accesskey ${verb} needs ALIAS and ACCESSKEY.`);
  return [args[0] ?? "", args[1] ?? ""];
}

export async function runAccessKeyEdit(ctx: McContext, args: readonly string[], f: KeyEditFlags): Promise<void> {
  const [aliasArg, accessKey] = aliasAndKey(args, "edit");
  if (!f.name && !f.expiry && !f.expiryDuration && !f.policy && !f.secretKey && !f.description) throw mcError("invalid flags.", new Error("At least one property must be edited"), "invalid_argument");
  const exp = expiryOf(f);
  const policy = await policyOf(f.policy);
  const target = adminTarget(ctx, aliasArg);
  await updateServiceAccount(target.client, accessKey, {
    ...(policy !== undefined ? { newPolicy: policy } : {}),
    ...(f.secretKey ? { newSecretKey: f.secretKey } : {}),
    ...(f.name ? { newName: f.name } : {}),
    ...(f.description ? { newDescription: f.description } : {}),
    ...(exp ? { newExpiration: goJsonTime(exp) } : {}),
  }).catch((err: unknown) => {
    throw adminFailure("Unable to edit service account", accessKeyCapability, err);
  });
  ctx.output.result({ status: "success", accessKey }, `Successfully edited access key \`${accessKey}\`.`);
}

export async function runAccessKeyEnable(ctx: McContext, args: readonly string[], enable: boolean): Promise<void> {
  const [aliasArg, accessKey] = aliasAndKey(args, enable ? "enable" : "disable");
  const target = adminTarget(ctx, aliasArg);
  await updateServiceAccount(target.client, accessKey, { newStatus: enable ? "on" : "off" }).catch((err: unknown) => {
    throw adminFailure(`Unable to ${enable ? "enable" : "disable"} access key`, accessKeyCapability, err);
  });
  ctx.output.result({ status: "success", accessKey }, `Successfully ${enable ? "enabled" : "disabled"} access key \`${accessKey}\`.`);
}

export async function runAccessKeyRemove(ctx: McContext, args: readonly string[]): Promise<void> {
  const [aliasArg, accessKey] = aliasAndKey(args, "remove");
  const target = adminTarget(ctx, aliasArg);
  await deleteServiceAccount(target.client, accessKey).catch((err: unknown) => {
    throw adminFailure("Unable to remove service account", accessKeyCapability, err);
  });
  ctx.output.result({ status: "success", accessKey }, `Successfully removed access key \`${accessKey}\`.`);
}
