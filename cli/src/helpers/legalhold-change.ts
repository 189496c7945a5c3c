import { Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { featureError } from "../storage/s3/versions/versions-errors.js";
import { setLegalHold } from "../storage/s3/versions/versions-legalhold.js";
import { checkLockFlags } from "../storage/s3/versions/versions-lock-flags.js";
import { printLegalHoldChange } from "./versions-lock-output.js";
import { s3Target } from "../storage/s3/versions-target.js";
import { walkObjects } from "./versions-walk.js";

/** `legalhold set` and `legalhold clear`: the same walk, the hold turned on or off. */
export abstract class LegalHoldChangeCommand extends BaseCommand {
  protected abstract readonly op: "set" | "clear";
  recursive = Option.Boolean("-r,--recursive", false, { description: "apply recursively" });
  versionId = Option.String("--version-id,--vid", { description: "apply to a specific object version" });
  versions = Option.Boolean("--versions", false, { description: "apply to all versions of object(s)" });
  rewind = Option.String("--rewind", { description: "act on the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<number> {
    const command = `legalhold ${this.op}`;
    const flags = { recursive: this.recursive, versions: this.versions, versionId: this.versionId, rewind: this.rewind };
    checkLockFlags(command, { isDefault: false, ...flags });
    const t = s3Target(ctx, this.target, command);
    return walkObjects(ctx, t, { command, ...flags }, `${this.op} legal hold`, async (item) => {
      try {
        await setLegalHold(t.client, t.bucket, item.key, this.op === "set", item.versionId || undefined);
      } catch (err) {
        throw featureError(`${this.op} legal hold on \`${item.url}\``, "object legal hold", err);
      }
      printLegalHoldChange(ctx, this.op, item.url, item.versionId);
    });
  }
}
