import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { featureError } from "../storage/s3/versions/versions-errors.js";
import { s3Target } from "../storage/s3/versions-target.js";
import { byKey, undoPlan } from "../storage/s3/versions/versions-undo.js";
import type { Entry } from "../storage/types.js";

export class UndoCommand extends BaseCommand {
  static override paths = [["undo"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "undo PUT/DELETE operations through object versions",
    examples: [
      ["Undo the last upload or removal of an object.", "$0 undo myalias/mybucket/config.yaml"],
      ["Undo the last 3 changes of an object.", "$0 undo --last 3 myalias/mybucket/config.yaml"],
      ["Undo the last change of every object under a prefix.", "$0 undo --recursive --force myalias/mybucket/config/"],
      ["Undo only removals, to get deleted objects back.", "$0 undo --recursive --force --action DELETE myalias/mybucket/docs/"],
      ["Show what would be undone, without changing anything.", "$0 undo --recursive --force --dry-run myalias/mybucket/docs/"],
    ],
  });
  last = Option.String("--last", "1", { description: "undo N last changes" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "undo last S3 PUT/DELETE operations recursively" });
  force = Option.Boolean("--force", false, { description: "force recursive operation" });
  dryRun = Option.Boolean("--dry-run", false, { description: "fake an undo operation" });
  action = Option.String("--action", { description: "undo only if the latest version is of the following type [PUT/DELETE]" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    if (this.target === undefined) throw usageError("undo needs a TARGET.");
    if (!/^\d+$/.test(this.last) || Number(this.last) < 1) throw usageError(`--last value should be a positive integer, not \`${this.last}\`.`);
    const action = this.action?.toUpperCase();
    if (action !== undefined && action !== "PUT" && action !== "DELETE") throw usageError(`--action must be PUT or DELETE, not \`${this.action ?? ""}\`.`);
    if (this.recursive && !this.force) throw usageError("This is a dangerous operation, you need to provide --force flag as well.");
    const t = s3Target(ctx, this.target, "undo");
    if (!this.recursive && t.key === "") throw usageError("undo of a whole bucket needs --recursive --force.");
    let status = "";
    try {
      const cfg = (await t.client.getBucketVersioning(t.bucket)) as unknown;
      status = typeof cfg === "object" && cfg !== null ? String((cfg as { Status?: unknown }).Status ?? "") : "";
    } catch (err) {
      throw featureError(`get versioning of \`${t.bucket}\``, "bucket versioning", err);
    }
    if (status !== "Enabled") throw mcError(`Undo command works only with S3 versioned-enabled buckets; \`${t.aliasName}/${t.bucket}\` is ${status === "" ? "un-versioned" : status.toLowerCase()}.`);
    const listed: Entry[] = [];
    for await (const e of t.store.list(t.key, { recursive: true, versions: true })) {
      if (!e.isDir && (this.recursive || e.key === t.key)) listed.push(e);
    }
    if (listed.length === 0) throw mcError(`Unable to find any object version to undo at \`${t.url}\`.`, undefined, "not_found");
    const dir = t.key.slice(0, t.key.lastIndexOf("/") + 1);
    let failed = 0;
    for (const versions of byKey(listed).values()) {
      const plan = undoPlan(versions, Number(this.last));
      // --action: only objects whose latest change is of that kind (an upload, or a delete marker).
      if (action !== undefined && (plan[0]?.isDeleteMarker === true ? "DELETE" : "PUT") !== action) continue;
      for (const v of plan) {
        const url = t.store.url(v.key);
        try {
          if (!this.dryRun) await t.store.remove(v.key, v.versionId);
        } catch (err) {
          ctx.output.error(mcError(`Unable to undo \`${url}\` (versionId=${v.versionId ?? ""}).`, err));
          failed++;
          continue;
        }
        this.report(ctx, url, v.key.slice(dir.length), v);
      }
    }
    return failed ? 1 : 0;
  }

  private report(ctx: McContext, url: string, key: string, v: Entry): void {
    const json: Record<string, unknown> = { status: "success", url, key };
    if (v.versionId) json["versionId"] = v.versionId;
    if (v.isDeleteMarker) json["isDeleteMarker"] = true;
    const text = v.isDeleteMarker ? `✓ Last delete of \`${key}\` is reverted.` : `✓ Last upload of \`${key}\` (vid=${v.versionId ?? ""}) is reverted.`;
    ctx.output.result(json, text);
  }
}
