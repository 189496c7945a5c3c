import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { saveShares, type ShareRecord } from "../../helpers/share-store.js";
import { dirPrefix } from "../../transfer/plan.js";
import { expiryText } from "../../util/humanize.js";
import { parseExpiry } from "../../helpers/share-expiry.js";

export class ShareDownloadCommand extends BaseCommand {
  static override paths = [["share", "download"]];
  static override usage = Command.Usage({
    category: "Share commands",
    description: "generate URLs for download access",
    examples: [
      ["Share an object for 7 days (the default).", "$0 share download myalias/mybucket/report.pdf"],
      ["Share an object for 1 hour.", "$0 share download --expire 1h myalias/mybucket/report.pdf"],
      ["Share one version of an object.", "$0 share download --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/report.pdf"],
      ["Share every object under a folder for 2 days.", "$0 share download --recursive --expire 48h myalias/mybucket/photos/"],
      ["Print the links as JSON lines, for a script.", "$0 share download --json --expire 12h myalias/mybucket/report.pdf"],
    ],
  });
  recursive = Option.Boolean("-r,--recursive", false, { description: "share all objects recursively" });
  versionId = Option.String("--version-id,--vid", { description: "share a particular object version" });
  expire = Option.String("-E,--expire", { description: "set expiry in NN[h|m|s] (default 168h)" });
  targets = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.targets.length !== 1) throw usageError("share download needs one TARGET.");
    const ms = parseExpiry(this.expire);
    const loc = ctx.locate(this.targets[0] ?? "");
    if (loc.kind !== "s3" || !loc.store) throw usageError("share download needs an object on an alias (alias/bucket/object).");
    const keys: string[] = [];
    if (this.recursive) {
      for await (const e of loc.store.list(dirPrefix(loc.key), { recursive: true })) if (!e.isDir) keys.push(e.key);
    } else {
      if (!(await loc.store.stat(loc.key, this.versionId))) {
        throw mcError(`Unable to share \`${loc.arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key: loc.key }), "not_found");
      }
      keys.push(loc.key);
    }
    const saved: Record<string, ShareRecord> = {};
    for (const key of keys) {
      const params = this.versionId ? { versionId: this.versionId } : {};
      const share = await loc.client.presignedUrl("GET", loc.bucket, key, Math.floor(ms / 1000), params);
      const url = `${loc.alias.url}/${loc.bucket}/${key}`;
      saved[share] = { share: url, versionID: this.versionId ?? "", date: new Date().toISOString(), expiry: ms * 1e6 };
      ctx.output.result({ status: "success", url, share, timeLeft: ms * 1e6 }, `URL: ${url}\nExpire: ${expiryText(ms)}\nShare: ${share}`);
    }
    await saveShares(ctx.config.dir, "download", saved);
  }
}
