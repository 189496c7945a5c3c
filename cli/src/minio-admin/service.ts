import { setTimeout as sleep } from "node:timers/promises";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";

/**
 * `mc admin service restart|stop|freeze|unfreeze` and `mc admin update`
 * (upstream cmd/admin-service-*.go, cmd/admin-update.go) with madmin-go
 * v2.0.7's calls: POST /service?action=A and POST /update?updateURL=U.
 */
export const serviceCapability = "Server service control";

export type ServiceAction = "restart" | "stop" | "freeze" | "unfreeze";

const done: Readonly<Record<Exclude<ServiceAction, "restart">, (alias: string) => string>> = {
  stop: (a) => `Stopped \`${a}\` successfully.`,
  freeze: (a) => `Freeze command successfully sent to \`${a}\`.`,
  unfreeze: (a) => `Unfreeze command successfully sent to \`${a}\`.`,
};

/** How long upstream waits between two looks at a restarting server, and how long one look may take. */
const restartPoll = { everyMs: 3000, timeoutMs: 1000 };

export async function runServiceAction(ctx: McContext, action: ServiceAction, args: readonly string[]): Promise<void> {
  if (args.length !== 1) throw usageError(`service ${action} needs one ALIAS.`);
  const alias = args[0] ?? "";
  const target = adminTarget(ctx, alias);
  await target.client.request({ method: "POST", path: "/service", query: { action } }).catch((err: unknown) => {
    throw adminFailure(`Unable to ${action} the server`, serviceCapability, err);
  });
  if (action !== "restart") {
    ctx.output.result({ status: "success", serverURL: alias }, done[action](alias));
    return;
  }
  ctx.output.result({ status: "success", serverURL: alias }, `Restart command successfully sent to \`${alias}\`. Type Ctrl-C to quit or wait to follow the status of the restart process.`);
  // Dots on a terminal only (upstream: not with --quiet or --json).
  const progress = (mark: string): void => {
    if (!ctx.output.quiet) ctx.output.stdout.write(mark);
  };
  progress("...");
  for (;;) {
    await sleep(restartPoll.everyMs, undefined, { signal: ctx.signal });
    const look = AbortSignal.any([ctx.signal, AbortSignal.timeout(restartPoll.timeoutMs)]);
    const mode = await target.client
      .json<{ mode?: string }>({ method: "GET", path: "/info", signal: look })
      .then((i) => i.mode ?? "")
      .catch(() => "");
    if (ctx.signal.aborted) return;
    if (mode === "online") {
      ctx.output.result({ status: "success", serverURL: alias }, `\nRestarted \`${alias}\` successfully.`);
      return;
    }
    progress(mode === "initializing" ? "!" : ".");
  }
}

interface ServerUpdateStatus {
  readonly currentVersion?: string;
  readonly updatedVersion?: string;
}

/** `admin update ALIAS [UPDATE_URL]`: the servers update themselves (from UPDATE_URL when given) and restart. */
export async function runServerUpdate(ctx: McContext, args: readonly string[], confirm: () => Promise<boolean> = () => Promise.resolve(true)): Promise<void> {
  if (args.length < 1 || args.length > 2) throw usageError("admin update needs ALIAS and an optional UPDATE-URL.");
  const alias = args[0] ?? "";
  const target = adminTarget(ctx, alias);
  if (!(await confirm())) {
    ctx.output.line("Upgrade aborted!");
    return;
  }
  const us = await target.client.json<ServerUpdateStatus>({ method: "POST", path: "/update", query: { updateURL: args[1] ?? "" } }).catch((err: unknown) => {
    throw adminFailure("Unable to update the server", serviceCapability, err);
  });
  const current = us.currentVersion ?? "";
  const updated = us.updatedVersion ?? "";
  const text = current !== updated ? `Server \`${alias}\` updated successfully from ${current} to ${updated}` : `Server \`${alias}\` already running the most recent version ${current} of MinIO`;
  ctx.output.result({ status: "success", serverURL: alias, currentVersion: current, updatedVersion: updated }, text);
}
