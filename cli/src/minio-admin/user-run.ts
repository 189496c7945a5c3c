import type { McContext } from "../runtime/context.js";
import { readStdinText } from "../core/stdin.js";
import { usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget, type AdminTarget } from "./admin-target.js";
import { addUser, groupDescription, listUsers, removeUser, setUserStatus, userCapability, userInfo, type UserInfo } from "./users.js";

/** `mc admin user …` (upstream cmd/admin-user-*.go): its `userMessage` in text and JSON. */

interface UserGroup {
  readonly name: string;
  readonly policies?: readonly string[];
}

/** upstream `PrettyTable.buildRow`: each cell cut to its width (`...` marks a cut) and padded, two spaces between. */
export function prettyRow(cells: readonly string[], widths: readonly number[], sep = "  "): string {
  return cells.map((c, i) => {
    const w = widths[i] ?? 0;
    return (c.length > w ? `${c.slice(0, w - 3)}...` : c).padEnd(w);
  }).join(sep);
}

async function readLines(): Promise<string[]> {
  return (await readStdinText()).split(/\r?\n/);
}

/** `admin user add ALIAS [ACCESSKEY [SECRETKEY]]`: missing keys are read from stdin, one a line (upstream `fetchUserKeys`). */
export async function runUserAdd(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length < 1 || args.length > 3) throw usageError("Incorrect number of arguments for user add command.");
  const target = adminTarget(ctx, args[0]);
  let accessKey = args[1];
  let secretKey = args[2];
  if (accessKey === undefined || secretKey === undefined) {
    const lines = await readLines();
    if (accessKey === undefined) accessKey = lines.shift() ?? "";
    secretKey = lines.shift() ?? "";
  }
  if (accessKey === "") throw usageError("an ACCESSKEY is needed.");
  await addUser(target.client, accessKey, secretKey).catch((err: unknown) => {
    throw adminFailure("Unable to add new user", userCapability, err);
  });
  ctx.output.result({ status: "success", accessKey, secretKey, userStatus: "enabled" }, `Added user \`${accessKey}\` successfully.`);
}

function aliasAndUser(ctx: McContext, args: readonly string[], verb: string): [AdminTarget, string] {
  if (args.length !== 2) throw usageError(`user ${verb} needs ALIAS and USERNAME.`);
  return [adminTarget(ctx, args[0]), args[1] ?? ""];
}

export async function runUserStatus(ctx: McContext, args: readonly string[], enable: boolean): Promise<void> {
  const [target, user] = aliasAndUser(ctx, args, enable ? "enable" : "disable");
  await setUserStatus(target.client, user, enable ? "enabled" : "disabled").catch((err: unknown) => {
    throw adminFailure(`Unable to ${enable ? "enable" : "disable"} user`, userCapability, err);
  });
  ctx.output.result({ status: "success", accessKey: user, userStatus: enable ? "enabled" : "disabled" }, `${enable ? "Enabled" : "Disabled"} user \`${user}\` successfully.`);
}

export async function runUserRemove(ctx: McContext, args: readonly string[]): Promise<void> {
  const [target, user] = aliasAndUser(ctx, args, "remove");
  await removeUser(target.client, user).catch((err: unknown) => {
    throw adminFailure("Unable to remove user", userCapability, err);
  });
  ctx.output.result({ status: "success", accessKey: user }, `Removed user \`${user}\` successfully.`);
}

/** The user's groups with their policies (upstream fetches each group's description). */
async function groupsOf(target: AdminTarget, info: UserInfo): Promise<UserGroup[]> {
  const out: UserGroup[] = [];
  for (const g of info.memberOf ?? []) {
    const gd = await groupDescription(target.client, g).catch((err: unknown) => {
      throw adminFailure("Unable to fetch group info", userCapability, err);
    });
    out.push({ name: gd.name, policies: gd.policy ? gd.policy.split(",") : [] });
  }
  return out;
}

function userJson(accessKey: string, info: UserInfo, memberOf: readonly UserGroup[]): Record<string, unknown> {
  return { status: "success", accessKey, ...(info.policyName ? { policyName: info.policyName } : {}), ...(info.status ? { userStatus: info.status } : {}), ...(memberOf.length > 0 ? { memberOf } : {}) };
}

export async function runUserList(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("user list needs ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const users = await listUsers(target.client).catch((err: unknown) => {
    throw adminFailure("Unable to list user", userCapability, err);
  });
  // Go walks the map in random order; sorted here, so that output is stable.
  for (const name of Object.keys(users).sort()) {
    const info = users[name] ?? { status: "" };
    const memberOf = await groupsOf(target, info);
    ctx.output.result(userJson(name, info, memberOf), prettyRow([info.status, name, info.policyName ?? ""], [9, 20, 20]));
  }
}

export async function runUserInfo(ctx: McContext, args: readonly string[]): Promise<void> {
  const [target, user] = aliasAndUser(ctx, args, "info");
  const info = await userInfo(target.client, user).catch((err: unknown) => {
    throw adminFailure("Unable to get user info", userCapability, err);
  });
  const memberOf = await groupsOf(target, info);
  const text = [`AccessKey: ${user}`, `Status: ${info.status}`, `PolicyName: ${info.policyName ?? ""}`, `MemberOf: ${memberOf.map((g) => g.name).join(",")}`].join("\n");
  ctx.output.result(userJson(user, info, memberOf), text);
}
