import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { applyPerm, parsePerm, permOf } from "../../storage/s3/versions/versions-policy.js";
import { readPolicy, writePolicy } from "../../storage/s3/versions/versions-policy-io.js";
import { s3Target } from "../../storage/s3/versions-target.js";

export class AnonymousSetCommand extends BaseCommand {
  static override paths = [["anonymous", "set"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "set anonymous access to a bucket or prefix (none|private, download, upload, public)",
    examples: [
      ["Allow anonymous downloads from a bucket.", "$0 anonymous set download myalias/mybucket"],
      ["Allow anonymous uploads to one prefix.", "$0 anonymous set upload myalias/mybucket/incoming"],
      ["Make a prefix public (download and upload).", "$0 anonymous set public myalias/mybucket/shared"],
      ["Remove anonymous access.", "$0 anonymous set none myalias/mybucket"],
    ],
  });
  perm = Option.String({ name: "PERMISSION", required: false });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    if (this.target === undefined) throw usageError("anonymous set needs PERMISSION and TARGET, e.g. `anonymous set download ALIAS/BUCKET`.");
    const perm = parsePerm(this.perm);
    const t = s3Target(ctx, this.target, "anonymous set");
    let shown: string;
    try {
      const next = applyPerm(await readPolicy(t), t.bucket, t.key, perm);
      await writePolicy(t, next);
      // Read back what the server now grants, as upstream reports it.
      shown = permOf(await readPolicy(t), t.bucket, t.key);
    } catch (err) {
      throw featureError(`set anonymous \`${this.perm ?? ""}\` for \`${t.url}\``, "bucket policies", err);
    }
    ctx.output.result({ operation: "set", status: "success", bucket: t.url, permission: shown }, `Access permission for \`${t.url}\` is set to \`${shown}\``);
  }
}
