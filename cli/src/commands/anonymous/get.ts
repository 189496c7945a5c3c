import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { permOf } from "../../storage/s3/versions/versions-policy.js";
import { readPolicy } from "../../storage/s3/versions/versions-policy-io.js";
import { s3Target } from "../../storage/s3/versions-target.js";

export class AnonymousGetCommand extends BaseCommand {
  static override paths = [["anonymous", "get"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "show anonymous access to a bucket or prefix",
    examples: [
      ["Show anonymous access to a bucket.", "$0 anonymous get myalias/mybucket"],
      ["Show anonymous access to a prefix.", "$0 anonymous get myalias/mybucket/public"],
    ],
  });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    const t = s3Target(ctx, this.target, "anonymous get");
    let perm: string;
    try {
      perm = permOf(await readPolicy(t), t.bucket, t.key);
    } catch (err) {
      throw featureError(`get anonymous access for \`${t.url}\``, "bucket policies", err);
    }
    ctx.output.result({ operation: "get", status: "success", bucket: t.url, permission: perm }, `Access permission for \`${t.url}\` is \`${perm}\``);
  }
}
