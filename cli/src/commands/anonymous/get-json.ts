import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError } from "../../core/errors.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { parsePolicy, permOf } from "../../storage/s3/versions/versions-policy.js";
import { readPolicyText } from "../../storage/s3/versions/versions-policy-io.js";
import { s3Target } from "../../storage/s3/versions-target.js";

/** Go's json.Marshal of a map: keys sorted at every level, as upstream prints the policy. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

export class AnonymousGetJsonCommand extends BaseCommand {
  static override paths = [["anonymous", "get-json"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "show the bucket policy as JSON",
    examples: [
      ["Print a bucket's policy.", "$0 anonymous get-json myalias/mybucket"],
      ["Save it, to set it again later with set-json.", "$0 anonymous get-json myalias/mybucket > policy.json"],
    ],
  });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    const t = s3Target(ctx, this.target, "anonymous get-json");
    let text: string;
    try {
      text = await readPolicyText(t);
    } catch (err) {
      throw featureError(`get-json anonymous for \`${t.url}\``, "bucket policies", err);
    }
    let policy: unknown = {};
    try {
      if (text.trim() !== "") policy = sortedKeys(JSON.parse(text));
    } catch (err) {
      throw mcError(`The bucket policy of \`${t.url}\` is not valid JSON.`, err, "internal");
    }
    const perm = permOf(parsePolicy(text), t.bucket, t.key);
    const hasRules = typeof policy === "object" && policy !== null && Object.keys(policy).length > 0;
    ctx.output.result(
      { operation: "get-json", status: "success", bucket: t.url, permission: perm, ...(hasRules ? { anonymous: policy } : {}) },
      JSON.stringify(policy, null, 1),
    );
  }
}
