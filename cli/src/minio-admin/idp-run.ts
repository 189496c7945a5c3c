import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { cfgName, defaultCfgName, deleteIdpConfig, getIdpConfig, idpCapability, listIdpConfig, setIdpConfig, type IdpConfig, type IdpListItem, type IdpType } from "./idp.js";
import { cell, roundedBox } from "./text-box.js";

/**
 * The bodies of `mc idp ldap|openid add|update|remove|list|info|enable|disable`
 * (upstream cmd/idp-openid-subcommands.go, cmd/idp-ldap-subcommands.go),
 * shared by the two identity-provider types.
 */
const label = (type: IdpType): string => (type === "ldap" ? "LDAP" : "OpenID");

/** upstream `configSetMessage`: `{"status":"success"}`, and a restart hint when the server did not apply it live. */
function printApplied(ctx: McContext, aliasArg: string, restart: boolean): void {
  ctx.output.result({ status: "success" }, `Successfully applied new settings.${restart ? `\nPlease restart your server '${aliasArg}'.` : ""}`);
}

/** ALIAS [CFG_NAME] [key=value …]: the name is the second argument when it has no `=`. */
export async function runIdpSet(ctx: McContext, type: IdpType, args: readonly string[], update: boolean): Promise<void> {
  if (args.length < 2) throw usageError(`idp ${type} ${update ? "update" : "add"} needs ALIAS and configuration parameters (key=value).`);
  const aliasArg = args[0] ?? "";
  const target = adminTarget(ctx, aliasArg);
  let name = defaultCfgName;
  let input = args.slice(1);
  if (!(args[1] ?? "").includes("=")) {
    name = args[1] ?? "";
    input = args.slice(2);
  }
  if (type === "ldap" && name !== defaultCfgName) throw mcError("Bad LDAP IDP configuration.", new Error('all config parameters must be of the form "key=value"'), "invalid_argument");
  name = cfgName(name);
  const action = update ? `Unable to update ${label(type)} IDP configuration` : `Unable to add ${label(type)} IDP config to server`;
  const restart = await setIdpConfig(target.client, type, name, input.join(" "), update).catch((err: unknown) => {
    throw adminFailure(action, idpCapability, err);
  });
  printApplied(ctx, aliasArg, restart);
}

/** LDAP takes ALIAS only (one configuration); OpenID takes ALIAS [CFG_NAME]. */
function aliasAndName(type: IdpType, args: readonly string[], verb: string): [string, string] {
  const max = type === "ldap" ? 1 : 2;
  if (args.length < 1 || args.length > max) throw usageError(`idp ${type} ${verb} needs ALIAS${type === "openid" ? " [CFG_NAME]" : ""}.`);
  return [args[0] ?? "", cfgName(args[1])];
}

export async function runIdpRemove(ctx: McContext, type: IdpType, args: readonly string[]): Promise<void> {
  const [aliasArg, name] = aliasAndName(type, args, "remove");
  const target = adminTarget(ctx, aliasArg);
  const restart = await deleteIdpConfig(target.client, type, name).catch((err: unknown) => {
    throw adminFailure(`Unable to remove ${type} IDP config '${args[1] ?? ""}'`, idpCapability, err);
  });
  printApplied(ctx, aliasArg, restart);
}

/** enable: `enable=` (the server's default, on); disable: `enable=off`; an update either way. */
export async function runIdpEnable(ctx: McContext, type: IdpType, args: readonly string[], enable: boolean): Promise<void> {
  const [aliasArg, name] = aliasAndName(type, args, enable ? "enable" : "disable");
  const target = adminTarget(ctx, aliasArg);
  const restart = await setIdpConfig(target.client, type, name, enable ? "enable=" : "enable=off", true).catch((err: unknown) => {
    throw adminFailure(`Unable to ${enable ? "enable" : "disable"} ${type} IDP config '${name}'`, idpCapability, err);
  });
  printApplied(ctx, aliasArg, restart);
}

/** upstream `idpCfgList.String`: a box with On? / Name / RoleARN columns; JSON: the list itself. */
export function idpListText(list: readonly IdpListItem[]): string {
  const shown = (i: IdpListItem): string => (i.name === defaultCfgName ? "(default)" : i.name);
  const nameW = Math.max(4, ...list.map((i) => shown(i).length)) + 2;
  const arnW = Math.max(7, ...list.map((i) => (i.roleARN ?? "").length)) + 2;
  const header = cell("On?", 5, "center") + cell("Name", nameW, "center") + cell("RoleARN", arnW, "center");
  const rows = list.map((i) => cell(i.enabled ? "🟢" : "🔴", 5, "center") + cell(shown(i), nameW, "right") + cell(i.roleARN ?? "", arnW, "left"));
  return roundedBox([header, ...rows]);
}

export async function runIdpList(ctx: McContext, type: IdpType, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError(`idp ${type} list needs one ALIAS.`);
  const target = adminTarget(ctx, args[0]);
  const list = await listIdpConfig(target.client, type).catch((err: unknown) => {
    throw adminFailure(`Unable to list IDP config for '${type}'`, idpCapability, err);
  });
  ctx.output.result(list, idpListText(list));
}

/** upstream `idpConfig.String`: `enable:` first, then each key right-aligned, `(environment)` after values set by the environment. */
export function idpInfoText(cfg: IdpConfig): string {
  const info = cfg.info ?? [];
  if (info.length === 0) return "Not configured.";
  const keyW = Math.max(...info.map((kv) => kv.key.length)) + 1;
  const enable = info.find((kv) => kv.key === "enable")?.value ?? "on";
  const lines = [`${"enable:".padStart(keyW)} ${enable}`];
  for (const kv of info) {
    if (kv.key === "enable") continue;
    lines.push(`${`${kv.key}:`.padStart(keyW)} ${kv.value} ${kv.isCfg && kv.isEnv ? " (environment)" : ""}`);
  }
  return roundedBox(lines);
}

export async function runIdpInfo(ctx: McContext, type: IdpType, args: readonly string[]): Promise<void> {
  const [aliasArg, name] = aliasAndName(type, args, "info");
  const target = adminTarget(ctx, aliasArg);
  const cfg = await getIdpConfig(target.client, type, name).catch((err: unknown) => {
    throw adminFailure(`Unable to get ${type} IDP config from server`, idpCapability, err);
  });
  ctx.output.result(cfg, idpInfoText(cfg));
}
