import { setTimeout as sleep } from "node:timers/promises";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { followJson } from "./json-stream.js";

export const logsCapability = "Following the server's logs";

/** madmin `LogInfo` as the log stream sends it (its `logEntry`, then ConsoleMsg and node). */
interface LogInfo {
  deploymentid?: string;
  level?: string;
  errKind?: string;
  time?: string;
  api?: { name?: string; args?: { bucket?: string; object?: string; metadata?: Record<string, string> } };
  remotehost?: string;
  host?: string;
  requestID?: string;
  userAgent?: string;
  message?: string;
  error?: { message?: string; source?: string[]; variables?: Record<string, string> };
  ConsoleMsg?: string;
  node?: string;
}

/** upstream `logMessage` JSON: status first, then the LogInfo fields in madmin's order (omitempty as there). */
export function logJson(l: LogInfo): Record<string, unknown> {
  const o: Record<string, unknown> = { status: "success" };
  if (l.deploymentid) o["deploymentid"] = l.deploymentid;
  o["level"] = l.level ?? "";
  o["errKind"] = l.errKind ?? "";
  o["time"] = l.time ?? "";
  if (l.api) o["api"] = l.api;
  for (const k of ["remotehost", "host", "requestID", "userAgent", "message"] as const) if (l[k]) o[k] = l[k];
  if (l.error) o["error"] = l.error;
  o["ConsoleMsg"] = l.ConsoleMsg ?? "";
  o["node"] = l.node ?? "";
  return o;
}

const zoneAbbrev = (iso: string): string => {
  const m = /(Z|[+-]\d{2}:?\d{2})$/.exec(iso);
  return !m || m[1] === "Z" ? "UTC" : (m[1] ?? "").replace(":", "");
};

/** upstream `getLogTime`: RFC 3339 → Go layout "15:04:05 MST 01/02/2006" in the time's own zone; anything else as given. */
export function logTime(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(iso);
  if (!m) return iso;
  return `${m[4]} ${zoneAbbrev(iso)} ${m[2]}/${m[3]}/${m[1]}`;
}

/** upstream `logMessage.String()` (colours aside), before printMsg's newline. */
export function logText(l: LogInfo): string {
  const host = l.node ? `${l.node} ` : "";
  if (l.ConsoleMsg) {
    let msg = l.ConsoleMsg;
    let b = "";
    if (msg.startsWith("\n")) {
      b += `${host}\n`;
      msg = msg.slice(1);
    }
    return `${b}${host} ${msg}`;
  }
  let b = "";
  if (l.api) {
    let api = `API: ${l.api.name ?? ""}(`;
    if (l.api.args?.bucket) api += `bucket=${l.api.args.bucket}`;
    if (l.api.args?.object) api += `, object=${l.api.args.object}`;
    b += `\n${host} ${api})`;
  }
  if (l.time) b += `\n${host} Time: ${logTime(l.time)}`;
  if (l.deploymentid) b += `\n${host} DeploymentID: ${l.deploymentid}`;
  if (l.requestID) b += `\n${host} RequestID: ${l.requestID}`;
  if (l.remotehost) b += `\n${host} RemoteHost: ${l.remotehost}`;
  if (l.userAgent) b += `\n${host} UserAgent: ${l.userAgent}`;
  if (l.error) {
    if (l.error.message) b += `\n${host} Error: ${l.error.message}`;
    // Go walks the map in random order: sorted here.
    for (const [k, v] of Object.entries(l.error.variables ?? {}).sort(([a], [c]) => (a < c ? -1 : 1))) if (v !== "") b += `\n${host} ${k}=${v}`;
    const src = l.error.source ?? [];
    src.forEach((s, i) => {
      b += `\n${host} ${String(src.length - i).padStart(8)}: ${s}`;
    });
  }
  return `${b.replace(/^\n/, "")}\n`;
}

export interface LogsFlags {
  readonly last: string | undefined;
  readonly type: string;
}

/** How long to wait before asking again when the server ends the log stream (madmin asks again at once). */
const reconnectMs = 1000;

/**
 * `mc admin logs ALIAS [NODE] [--last N] [--type minio|application|all]`
 * (upstream cmd/admin-logs.go): GET /log?node=N&limit=L&logType=T followed
 * until Ctrl-C (130) or a closed stdout (141); a stream the server ends is
 * asked for again, as madmin's GetLogs does.
 */
export async function runLogs(ctx: McContext, args: readonly string[], f: LogsFlags): Promise<void> {
  if (args.length === 0 || args.length > 3) throw usageError("admin logs needs ALIAS and an optional NODE.");
  const node = args[1] ?? "";
  let limit = 0;
  if (f.last !== undefined) {
    if (!/^-?\d+$/.test(f.last)) throw usageError(`invalid value "${f.last}" for flag -last.`);
    limit = Number(f.last);
    if (limit <= 0) throw mcError("please set a proper limit, for example: '--last 5' to display last 5 logs, omit this flag to display all available logs.", undefined, "invalid_argument");
  }
  const logType = f.type.toLowerCase();
  if (!["minio", "application", "all"].includes(logType)) throw mcError("Invalid value for --type flag. Valid options are [minio, application, all].", undefined, "invalid_argument");
  const target = adminTarget(ctx, args[0]);
  for (;;) {
    await followJson(target.client, { method: "GET", path: "/log", query: { node, limit: String(limit), logType } }, (raw) => {
      const l = { ...(raw as LogInfo) };
      // The node's name is dropped when the user named the node.
      if (node !== "") l.node = "";
      ctx.output.result(logJson(l), logText(l));
    }).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      throw adminFailure("Unable to listen to console logs", logsCapability, err);
    });
    await sleep(reconnectMs, undefined, { signal: ctx.signal });
  }
}
