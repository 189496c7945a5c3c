import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { rulesOf } from "../../storage/s3/versions/versions-policy.js";
import { readPolicy } from "../../storage/s3/versions/versions-policy-io.js";
import { s3Target } from "../../storage/s3/versions-target.js";

export class AnonymousListCommand extends BaseCommand {
  static override paths = [["anonymous", "list"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "list anonymous access rules of a bucket",
    examples: [
      ["List the anonymous access rules of a bucket.", "$0 anonymous list myalias/mybucket"],
      ["List them as JSON lines.", "$0 anonymous list --json myalias/mybucket"],
    ],
  });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    const t = s3Target(ctx, this.target, "anonymous list");
    let rules: { resource: string; allow: string }[];
    try {
      rules = rulesOf(await readPolicy(t));
    } catch (err) {
      throw featureError(`list anonymous rules of \`${t.url}\``, "bucket policies", err);
    }
    const under = `${t.bucket}/${t.key}`;
    for (const rule of rules) {
      if (!rule.resource.startsWith(under) && !under.startsWith(rule.resource.replace(/\*$/, ""))) continue;
      ctx.output.result({ resource: rule.resource, allow: rule.allow }, `${rule.resource} => ${rule.allow}`);
    }
  }
}
