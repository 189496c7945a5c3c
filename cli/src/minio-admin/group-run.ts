import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { groupCapability, groupDescription, listGroups, setGroupStatus, updateGroupMembers } from "./users.js";

/** `mc admin group …` (upstream cmd/admin-group-*.go): its `groupMessage` in text and JSON. */

export async function runGroupAdd(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length < 3) throw usageError("group add needs ALIAS, GROUPNAME and at least one MEMBER.");
  const target = adminTarget(ctx, args[0]);
  const group = args[1] ?? "";
  const members = args.slice(2);
  await updateGroupMembers(target.client, group, members, false).catch((err: unknown) => {
    throw adminFailure("Unable to add new group", groupCapability, err);
  });
  ctx.output.result({ status: "success", groupName: group, members }, `Added members \`${members.join(",")}\` to group \`${group}\` successfully.`);
}

export async function runGroupRemove(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length < 2) throw usageError("group remove needs ALIAS and GROUPNAME.");
  const target = adminTarget(ctx, args[0]);
  const group = args[1] ?? "";
  const members = args.slice(2);
  await updateGroupMembers(target.client, group, members, true).catch((err: unknown) => {
    throw adminFailure("Could not perform remove operation", groupCapability, err);
  });
  const text = members.length > 0 ? `Removed members {${members.join(",")}} from group ${group} successfully.` : `Removed group ${group} successfully.`;
  ctx.output.result({ status: "success", groupName: group, ...(members.length > 0 ? { members } : {}) }, text);
}

export async function runGroupInfo(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 2) throw usageError("group info needs ALIAS and GROUPNAME.");
  const target = adminTarget(ctx, args[0]);
  const group = args[1] ?? "";
  const gd = await groupDescription(target.client, group).catch((err: unknown) => {
    throw adminFailure("Could not get group info", groupCapability, err);
  });
  const members = gd.members ?? [];
  ctx.output.result(
    { status: "success", groupName: group, ...(members.length > 0 ? { members } : {}), ...(gd.status ? { groupStatus: gd.status } : {}), ...(gd.policy ? { groupPolicy: gd.policy } : {}) },
    [`Group: ${group}`, `Status: ${gd.status}`, `Policy: ${gd.policy}`, `Members: ${members.join(",")}`].join("\n"),
  );
}

export async function runGroupList(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("group list needs ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const groups = await listGroups(target.client).catch((err: unknown) => {
    throw adminFailure("Could not get group list", groupCapability, err);
  });
  ctx.output.result({ status: "success", ...(groups.length > 0 ? { groups } : {}) }, groups.join("\n"));
}

export async function runGroupStatus(ctx: McContext, args: readonly string[], enable: boolean): Promise<void> {
  if (args.length !== 2) throw usageError(`group ${enable ? "enable" : "disable"} needs ALIAS and GROUPNAME.`);
  const target = adminTarget(ctx, args[0]);
  const group = args[1] ?? "";
  await setGroupStatus(target.client, group, enable ? "enabled" : "disabled").catch((err: unknown) => {
    throw adminFailure(`Unable to ${enable ? "enable" : "disable"} group`, groupCapability, err);
  });
  ctx.output.result({ status: "success", groupName: group, groupStatus: enable ? "enabled" : "disabled" }, `${enable ? "Enabled" : "Disabled"} group \`${group}\` successfully.`);
}
