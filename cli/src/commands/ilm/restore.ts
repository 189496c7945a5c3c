import { setTimeout as sleep } from "node:timers/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { walkObjects, type WalkItem } from "../../helpers/versions-walk.js";
import { restoreObject } from "../../storage/s3/restore.js";
import { s3Target, type S3Target } from "../../storage/s3/versions-target.js";

/** How often a restore in progress is asked about again (upstream: 5 s). */
const pollMs = 5000;

export class IlmRestoreCommand extends BaseCommand {
  static override paths = [["ilm", "restore"]];
  static override usage = Command.Usage({
    category: "Bucket configuration",
    description: "restore archived objects",
    details: "Asks the server for a restored copy of one or more objects archived on a remote tier (S3 RestoreObject); the copy expires after --days days. Then waits until each copy is ready.",
    examples: [
      ["Restore an archived object for 7 days.", "$0 ilm restore --days 7 myalias/mybucket/archive/2019.tar"],
      ["Restore one version of an archived object.", "$0 ilm restore --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/archive/2019.tar"],
      ["Restore every archived object under a prefix for 2 days.", "$0 ilm restore --recursive --days 2 myalias/mybucket/archive/"],
      ["Restore every version of every object under a prefix.", "$0 ilm restore --recursive --versions myalias/mybucket/archive/"],
    ],
  });
  days = Option.String("--days", "1", { description: "keep the restored copy for N days (default 1)" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "apply recursively" });
  versions = Option.Boolean("--versions", false, { description: "apply on versions" });
  versionId = Option.String("--version-id,--vid", { description: "select a specific version id" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<number> {
    if (this.args.length !== 1) throw usageError("ilm restore needs one TARGET.");
    const days = Number(this.days);
    if (!/^\d+$/.test(this.days) || !Number.isSafeInteger(days) || days < 1) throw usageError(`--days should be a whole number equal or greater than 1, not \`${this.days}\`.`);
    if (this.versionId !== undefined && (this.recursive || this.versions)) throw usageError("You cannot combine --version-id with --recursive or --versions flags.");
    const t = s3Target(ctx, this.args[0], "ilm restore");
    const sent: WalkItem[] = [];
    const opts = { command: "ilm restore", recursive: this.recursive, versions: this.versions, versionId: this.versionId };
    let failed = await walkObjects(ctx, t, opts, "restore", async (item) => {
      try {
        await restoreObject(t.client, t.bucket, item.key, item.versionId, days);
      } catch (err) {
        // One object alone: a fatal error, as upstream's; a walk reports it and goes on.
        throw mcError(`Unable to send restore request for \`${item.url}\`.`, err);
      }
      sent.push(item);
    });
    if (!ctx.output.json) ctx.output.line(`Sent restore requests to ${sent.length} object(s)`);
    let restored = 0;
    for (const item of sent) {
      try {
        await this.waitRestored(ctx, t, item);
        restored++;
      } catch (err) {
        ctx.output.error(err);
        failed++;
      }
    }
    if (ctx.output.json) ctx.output.printJson({ status: "success", restored: sent.length });
    else ctx.output.line(`${restored}/${sent.length} object(s) successfully restored`);
    return failed > 0 ? 1 : 0;
  }

  /** Asks for the object's restore state until the copy is ready (x-amz-restore ongoing-request="false"). */
  private async waitRestored(ctx: McContext, t: S3Target, item: WalkItem): Promise<void> {
    for (;;) {
      const info = await t.store.stat(item.key, item.versionId || undefined);
      if (!info) throw mcError(`Unable to check for restore status of \`${item.url}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
      if (!info.restore) throw mcError(`Unable to check for restore status of \`${item.url}\`: it did not receive the restore request.`, undefined, "failed_precondition");
      if (!info.restore.ongoing) return;
      await sleep(pollMs, undefined, { signal: ctx.signal });
    }
  }
}
