import type { McContext } from "../runtime/context.js";
import { readStdin } from "../core/stdin.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget, type AdminTarget } from "./admin-target.js";
import { parseServerConfigOutput } from "./config-parse.js";
import {
  clearConfigHistory,
  configCapability,
  delConfigKv,
  getConfig,
  getConfigKv,
  helpConfigKv,
  listConfigHistory,
  maxConfigSize,
  restoreConfigHistory,
  setConfig,
  setConfigKv,
  type Help,
} from "./config-kv.js";
import { tabwrite } from "./go-format.js";

/** `mc admin config …` (upstream cmd/admin-config-*.go). */

const fail = (action: string) => (err: unknown): never => {
  throw adminFailure(action, configCapability, err);
};

/** upstream `HelpTmpl` through a tabwriter (minwidth 1, padding 2), colours aside. */
export function helpText(h: Help): string {
  const keys = h.keysHelp ?? [];
  const body =
    h.subSys !== ""
      ? `KEY:\n${h.subSys}${h.multipleTargets ? "[:name]" : ""}\t${h.description}\n\nARGS:${keys.map((k) => `\n${k.optional ? k.key : `${k.key}*`}\t(${k.type})\t${k.description}`).join("")}`
      : `KEYS:${keys.map((k) => `\n${k.key}\t${k.description}`).join("")}`;
  return tabwrite(body, 1, 2);
}

async function printHelp(ctx: McContext, target: AdminTarget, subSys: string, key: string, envOnly: boolean): Promise<void> {
  const h = await helpConfigKv(target.client, subSys, key, envOnly).catch(fail("Unable to get help for the sub-system"));
  ctx.output.result({ status: "success", help: h }, helpText(h));
}

const restartHint = (alias: string): string => `Please restart your server with \`mc admin service restart ${alias}\`.`;

/** `config get ALIAS [SUBSYS…]`: the keys' help without a subsystem, else the subsystem's settings. */
export async function runConfigGet(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length < 1) throw usageError("config get needs ALIAS.");
  const target = adminTarget(ctx, args[0]);
  if (args.length === 1) return printHelp(ctx, target, "", "", false);
  const key = args.slice(1).join(" ");
  const value = await getConfigKv(target.client, key).catch(fail(`Unable to get server '[${args.slice(1).join(" ")}]' config`));
  if (!ctx.output.json) return ctx.output.line(value);
  let config;
  try {
    config = parseServerConfigOutput(value);
  } catch (err) {
    throw mcError("Unable to marshal into JSON.", err, "internal");
  }
  ctx.output.printJson({ status: "success", config });
}

/** `config set ALIAS SUBSYS k=v …`: without `=`, the help of SUBSYS (and KEY). */
export async function runConfigSet(ctx: McContext, args: readonly string[], env: boolean): Promise<void> {
  if (args.length < 1) throw usageError("config set needs ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const input = args.slice(1).join(" ");
  if (!input.includes("=")) return printHelp(ctx, target, args[1] ?? "", args[2] ?? "", env);
  const restart = await setConfigKv(target.client, input).catch(fail(`Unable to set '${input}' to server`));
  const alias = args[0] ?? "";
  ctx.output.result({ status: "success" }, `Successfully applied new settings.${restart ? `\nPlease restart your server 'mc admin service restart ${alias}'.` : ""}`);
}

/** `config reset ALIAS SUBSYS[:TARGET] [KEY…]`: back to the defaults. */
export async function runConfigReset(ctx: McContext, args: readonly string[], env: boolean): Promise<void> {
  if (args.length < 1) throw usageError("config reset needs ALIAS.");
  const target = adminTarget(ctx, args[0]);
  if (args.length === 1) return printHelp(ctx, target, "", "", env);
  const input = args.slice(1).join(" ");
  const restart = await delConfigKv(target.client, input).catch(fail(`Unable to reset '${input}' on the server`));
  ctx.output.result({ status: "success" }, `Key is successfully reset.\n${restart ? `${restartHint(args[0] ?? "")}\n` : ""}`);
}

/** Go `http.TimeFormat` (the time in UTC): `Mon, 02 Jan 2006 15:04:05 GMT`. */
export function httpTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toUTCString();
}

/** `config history ALIAS [--count N] [--clear]`. */
export async function runConfigHistory(ctx: McContext, args: readonly string[], countFlag: string, clear: boolean): Promise<void> {
  if (args.length !== 1) throw usageError("config history needs one ALIAS.");
  if (!/^-?\d+$/.test(countFlag)) throw usageError(`invalid value "${countFlag}" for flag --count.`);
  const count = Number(countFlag);
  const target = adminTarget(ctx, args[0]);
  if (clear) {
    await clearConfigHistory(target.client, "all").catch(fail("Unable to clear server configuration"));
    ctx.output.result({ status: "success", entries: null }, "");
    return;
  }
  const list = await listConfigHistory(target.client, count).catch(fail("Unable to list server history configuration"));
  const entries = list.map((e) => ({ restoreId: e.restoreId, createTime: httpTime(e.createTime), targets: e.data }));
  ctx.output.result({ status: "success", entries }, tabwrite(entries.map((e) => `RestoreId: ${e.restoreId}\nDate: ${e.createTime}\n\n${e.targets}\n\n`).join(""), 1, 2));
}

/** `config restore ALIAS RESTOREID`. */
export async function runConfigRestore(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length < 1 || args.length > 2) throw usageError("config restore needs ALIAS and RESTOREID.");
  const target = adminTarget(ctx, args[0]);
  const id = args[1] ?? "";
  await restoreConfigHistory(target.client, id).catch(fail("Unable to restore server configuration"));
  ctx.output.result({ status: "success", restoreID: id }, `${restartHint(args[0] ?? "")}\nRestored ${id} kv successfully.`);
}

/** `config export ALIAS`: the whole configuration text on stdout. */
export async function runConfigExport(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("config export needs one ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const value = await getConfig(target.client).catch(fail("Unable to get server config"));
  ctx.output.result({ status: "success", value }, value);
}

/** `config import ALIAS < FILE`: the whole configuration from stdin (at most 256 KiB, as madmin reads). */
export async function runConfigImport(ctx: McContext, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError("config import needs one ALIAS.");
  const target = adminTarget(ctx, args[0]);
  const config = await readStdin({ bytes: maxConfigSize, tooLarge: () => mcError("Unable to set server config.", new Error("bytes.Buffer: too large"), "payload_too_large") });
  await setConfig(target.client, config).catch(fail("Unable to set server config"));
  ctx.output.result({ status: "success" }, `Setting new key has been successful.\n${restartHint(args[0] ?? "")}\n`);
}
