import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { goSeconds, topLocks, topLocksCapability, type LockEntry } from "../../../minio-admin/support.js";
import { humanizeTime } from "../../../minio-admin/text-box.js";

/** upstream `PrettyTable.buildRow`: each cell cut to its width (`...` marks a cut) and padded, two spaces between. */
function row(cells: readonly string[]): string {
  const widths = [20, 6, 20, 150];
  return cells.map((c, i) => {
    const w = widths[i] ?? 0;
    const cut = c.length > w ? `${c.slice(0, w - 3)}...` : c;
    return cut.padEnd(w);
  }).join("  ");
}

/** Go's Duration.Round(time.Second) of nanoseconds: half away from zero. */
const roundedSeconds = (ns: number): number => Math.floor(ns / 1e9 + 0.5);

/**
 * `mc support top locks ALIAS [--count N] [--stale]` (upstream
 * cmd/support-top-locks.go): the oldest locks, once; no SUBNET involved.
 */
export class SupportTopLocksCommand extends BaseCommand {
  static override paths = [["support", "top", "locks"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list all active locks on a MinIO cluster",
    examples: [
      ["List the oldest locks of a cluster.", "$0 support top locks myminio"],
      ["List them as JSON.", "$0 support top locks --json myminio"],
    ],
  });
  count = Option.String("--count", "10", { description: "list N number of locks", hidden: true });
  stale = Option.Boolean("--stale", false, { description: "list all stale locks", hidden: true });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("support top locks needs one ALIAS.");
    const count = Number(this.count);
    if (!/^\d+$/.test(this.count) || !Number.isSafeInteger(count)) throw usageError(`invalid value "${this.count}" for flag --count.`);
    const target = adminTarget(ctx, this.args[0]);
    const locks = await topLocks(target.client, count, this.stale).catch((err: unknown) => {
      throw adminFailure("Unable to get server locks list", topLocksCapability, err);
    });
    if (!ctx.output.json) ctx.output.line(row(["Since", "Type", "Owner", "Resource"]));
    const now = Date.now();
    for (const l of locks) ctx.output.result(lockJson(l), lockText(l, now));
  }
}

function lockJson(l: LockEntry): Record<string, unknown> {
  const servers = l.serverlist ?? [];
  return { time: l.time, elapsed: goSeconds(roundedSeconds(l.elapsed ?? 0)), resource: l.resource, type: l.type, source: l.source, serverlist: l.serverlist, owner: l.owner, id: l.id, quorum: l.quorum, Stale: l.quorum > servers.length };
}

function lockText(l: LockEntry, now: number): string {
  // Older servers send no elapsed time: upstream counts from the lock's timestamp.
  const elapsedMs = l.elapsed ? l.elapsed / 1e6 : now - new Date(l.time).getTime();
  return row([humanizeTime(new Date(now - elapsedMs), new Date(now)), l.type, l.owner, l.resource]);
}
