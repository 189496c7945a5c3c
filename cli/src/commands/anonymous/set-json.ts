import { readFile } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { writePolicy } from "../../storage/s3/versions/versions-policy-io.js";
import { s3Target } from "../../storage/s3/versions-target.js";

/** Upstream's limit on a policy file. */
const maxPolicyBytes = 120 * 1024;

export class AnonymousSetJsonCommand extends BaseCommand {
  static override paths = [["anonymous", "set-json"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "set a bucket policy from a JSON file",
    examples: [
      ["Set a bucket's policy from a JSON file.", "$0 anonymous set-json ./policy.json myalias/mybucket"],
      ["Copy the policy of one bucket to another.", "$0 anonymous get-json myalias/mybucket > policy.json && $0 anonymous set-json policy.json myalias/otherbucket"],
    ],
  });
  file = Option.String({ name: "FILE", required: false });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    if (this.file === undefined || this.target === undefined) throw usageError("anonymous set-json needs FILE and TARGET.");
    const t = s3Target(ctx, this.target, "anonymous set-json");
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (err) {
      throw mcError(`Unable to read policy file \`${this.file}\`.`, err, "invalid_argument");
    }
    if (Buffer.byteLength(text) > maxPolicyBytes) throw mcError(`Policy file \`${this.file}\` is larger than 120 KiB.`, undefined, "invalid_argument");
    try {
      JSON.parse(text);
    } catch (err) {
      throw mcError(`Policy file \`${this.file}\` is not valid JSON.`, err, "invalid_argument");
    }
    try {
      await writePolicy(t, text.trim());
    } catch (err) {
      throw featureError(`set anonymous policy from \`${this.file}\` for \`${t.url}\``, "bucket policies", err);
    }
    ctx.output.result({ operation: "set-json", status: "success", bucket: t.url, permission: this.file }, `Access permission for \`${t.url}\` is set from \`${this.file}\``);
  }
}
