import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { topLocks, topLocksCapability, type LockEntry } from "./support.js";

/** upstream `newPrettyTable("  ", Time 20, Type 6, Resource -1).buildRow`: a negative width leaves the cell as it is. */
function row(cells: readonly string[]): string {
  const widths = [20, 6, -1];
  return cells.map((c, i) => {
    const w = widths[i] ?? -1;
    if (w < 0) return c;
    return (c.length > w ? `${c.slice(0, w - 3)}...` : c).padEnd(w);
  }).join("  ");
}

/** upstream `getTimeDiff`: seconds, minutes, or hours since the lock was granted. */
export function lockAge(time: string, now = Date.now()): string {
  const diff = Math.max(0, now - new Date(time).getTime()) / 1000;
  const hours = Math.trunc(diff / 3600);
  const minutes = Math.trunc(diff / 60) % 60;
  const seconds = Math.trunc(diff) % 60;
  if (hours === 0) return minutes === 0 ? `${seconds} seconds` : `${minutes} minutes`;
  return `${hours} hours`;
}

/**
 * `mc admin top locks ALIAS [--stale] [--count N]` (upstream
 * cmd/admin-top-locks.go): madmin TopLocksWithOpts, GET /top/locks?count=N&stale=B.
 */
export async function runTopLocks(ctx: McContext, args: readonly string[], count: string, stale: boolean): Promise<void> {
  if (args.length !== 1) throw usageError("admin top locks needs one ALIAS.");
  if (!/^-?\d+$/.test(count)) throw usageError(`invalid value "${count}" for flag -count.`);
  const target = adminTarget(ctx, args[0]);
  const locks: LockEntry[] = await topLocks(target.client, Number(count), stale).catch((err: unknown) => {
    throw adminFailure("Unable to get server locks list", topLocksCapability, err);
  });
  if (!ctx.output.json) ctx.output.line(row(["Time", "Type", "Resource"]));
  for (const l of locks) ctx.output.result({ status: "success", locks: l }, row([lockAge(l.time), l.type, l.resource]));
}
