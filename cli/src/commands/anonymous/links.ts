import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { featureError } from "../../storage/s3/versions/versions-errors.js";
import { rulesOf } from "../../storage/s3/versions/versions-policy.js";
import { readPolicy } from "../../storage/s3/versions/versions-policy-io.js";
import { s3Target } from "../../storage/s3/versions-target.js";

export class AnonymousLinksCommand extends BaseCommand {
  static override paths = [["anonymous", "links"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "list URLs of objects anonymous users can download",
    examples: [
      ["List the URLs anonymous users can download from a prefix.", "$0 anonymous links myalias/mybucket/public/"],
      ["List them for every object under the bucket.", "$0 anonymous links --recursive myalias/mybucket/"],
    ],
  });
  recursive = Option.Boolean("-r,--recursive", false, { description: "list recursively" });
  target = Option.String({ name: "TARGET", required: false });

  async run(ctx: McContext): Promise<void> {
    const t = s3Target(ctx, this.target, "anonymous links");
    let rules: { resource: string; allow: string }[];
    try {
      rules = rulesOf(await readPolicy(t));
    } catch (err) {
      throw featureError(`list anonymous rules of \`${t.url}\``, "bucket policies", err);
    }
    const base = t.aliasUrl.replace(/\/+$/, "");
    const seen = new Set<string>();
    for (const rule of rules) {
      if (rule.allow === "writeonly") continue;
      const path = rule.resource.replace(/\*$/, "");
      if (!path.startsWith(`${t.bucket}/${t.key}`)) continue;
      const prefix = path.slice(t.bucket.length + 1);
      for await (const e of t.store.list(prefix, { recursive: this.recursive })) {
        if ((e.isDir && this.recursive) || seen.has(e.key)) continue;
        seen.add(e.key);
        const url = `${base}/${t.bucket}/${e.key.split("/").map(encodeURIComponent).join("/")}`;
        ctx.output.result({ status: "success", url }, url);
      }
    }
  }
}
