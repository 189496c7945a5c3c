import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import { bucketStat, bucketStatLines } from "../storage/s3/bucket/bucket-stat.js";
import { s3Target } from "../storage/s3/versions-target.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import type { ObjectInfo } from "../storage/types.js";
import { dirPrefix } from "../transfer/plan.js";
import { rfc3339Local } from "../util/humanize.js";
import { statJson, statLines } from "../helpers/stat-record.js";
import { explainReadError } from "../storage/s3/sse/sse-errors.js";
import { withEncryption } from "../runtime/sse-context.js";

export class StatCommand extends BaseCommand {
  static override paths = [["stat"]];
  static override usage = Command.Usage({ category: "Object commands", description: "show object metadata" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "stat all objects recursively" });
  versionId = Option.String("--version-id,--vid", { description: "stat a specific object version" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  targets = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<number> {
    ctx = withEncryption(ctx, this.encC, this.encKms);
    if (this.targets.length === 0) throw usageError("stat needs at least one TARGET.");
    let failed = 0;
    let first = true;
    const show = (loc: Location, info: ObjectInfo): void => {
      if (!first && !ctx.output.json) ctx.output.line("");
      first = false;
      this.print(ctx, loc, info);
    };
    for (const arg of this.targets) {
      try {
        const loc = ctx.locate(arg);
        if (loc.kind === "s3" && loc.key === "" && loc.bucket !== "") {
          const info = await this.bucketInfo(ctx, loc);
          const props = await bucketStat(s3Target(ctx, arg, "stat"));
          if (!first && !ctx.output.json) ctx.output.line("");
          first = false;
          if (ctx.output.json) {
            ctx.output.printJson({ status: "success", name: displayUrl(loc, "").replace(/\/$/, ""), lastModified: rfc3339Local(info.lastModified), size: 0, ...props });
          } else {
            this.print(ctx, loc, info);
            ctx.output.line(["", ...bucketStatLines(props)].join("\n"));
          }
          continue;
        }
        const store = requireStore(loc);
        if (this.recursive) {
          for await (const e of store.list(dirPrefix(loc.key), { recursive: true })) {
            const info = await store.stat(e.key);
            if (info) show(loc, info);
          }
          continue;
        }
        const info = await store.stat(loc.key, this.versionId);
        if (!info) {
          if (await store.isDir(loc.key)) {
            show(loc, { key: loc.key, size: 0, lastModified: new Date(), etag: "", isDir: true, metadata: {} });
            continue;
          }
          throw mcError(`Unable to stat \`${arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key: loc.key }), "not_found");
        }
        show(loc, info);
      } catch (err) {
        ctx.output.error(explainReadError(arg, err), this.targets.length === 1 ? "fatal" : "error");
        failed++;
      }
    }
    return failed ? 1 : 0;
  }

  private async bucketInfo(_ctx: McContext, loc: Extract<Location, { kind: "s3" }>): Promise<ObjectInfo> {
    if (!(await loc.client.bucketExists(loc.bucket))) {
      throw mcError(`Unable to stat \`${loc.arg}\`.`, Object.assign(new Error("Bucket does not exist"), { code: "NoSuchBucket", bucketname: loc.bucket }), "not_found");
    }
    const buckets = await loc.client.listBuckets();
    const created = buckets.find((b) => b.name === loc.bucket)?.creationDate ?? new Date();
    return { key: loc.bucket, size: 0, lastModified: created, etag: "", isDir: true, metadata: {} };
  }

  private print(ctx: McContext, loc: Location, info: ObjectInfo): void {
    const trimmed = info.key.replace(/\/$/, "");
    const name = this.recursive ? trimmed : trimmed.slice(trimmed.lastIndexOf("/") + 1);
    if (ctx.output.json) ctx.output.printJson(statJson(info, loc.kind === "s3" && loc.key === "" ? displayUrl(loc, "").replace(/\/$/, "") : name));
    else ctx.output.line(statLines(info, name).join("\n"));
  }
}
