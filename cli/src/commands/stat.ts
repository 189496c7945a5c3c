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
import { withRewind } from "../runtime/rewind-context.js";

export class StatCommand extends BaseCommand {
  static override paths = [["stat"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "show object metadata",
    examples: [
      ["Show an object's size, ETag, type and metadata.", "$0 stat myalias/mybucket/photo.jpg"],
      ["Show a bucket's properties (versioning, encryption, lock, policy, lifecycle, usage).", "$0 stat myalias/mybucket"],
      ["Show every object under a folder.", "$0 stat --recursive myalias/mybucket/photos/"],
      ["Show every version of an object.", "$0 stat --versions myalias/mybucket/config.yaml"],
      ["Show one version of an object.", "$0 stat --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/config.yaml"],
      ["Show an object as it was a week ago.", "$0 stat --rewind 7d myalias/mybucket/config.yaml"],
      ["Ask only for the object itself, never listing a folder of that name.", "$0 stat --no-list myalias/mybucket/photo.jpg"],
      ["Show an object encrypted with your own key.", "$0 stat --enc-c \"myalias/secure/=MzJieXRlc2xvbmdzZWNyZWFiY2RlZmcJZ2l2ZW5uMjE=\" myalias/secure/payroll.csv"],
      ["Show a local file, as JSON.", "$0 stat --json ./report.pdf"],
    ],
  });
  recursive = Option.Boolean("-r,--recursive", false, { description: "stat all objects recursively" });
  versionId = Option.String("--version-id,--vid", { description: "stat a specific object version" });
  rewind = Option.String("--rewind", { description: "stat objects as they were at a time: a duration back (7d, 1h30m) or a time (2026.01.02T15:04 UTC)" });
  versions = Option.Boolean("--versions", false, { description: "stat all versions" });
  verbose = Option.Boolean("--verbose", false, { description: "show extended bucket(s) stat (ours always shows every bucket property)" });
  noList = Option.Boolean("--no-list", false, { description: "disable all LIST operations for stat: one HEAD per TARGET" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  targets = Option.Rest({ name: "TARGET [TARGET...]" });

  async run(ctx: McContext): Promise<number> {
    if (this.targets.length === 0) throw usageError("stat needs at least one TARGET.");
    if (this.rewind !== undefined && this.versionId !== undefined) throw usageError("--rewind and --version-id cannot be used together.");
    if (this.versions && this.versionId !== undefined) throw usageError("--versions and --version-id cannot be used together.");
    if (this.noList && (this.recursive || this.versions)) throw usageError("--no-list cannot be used with --recursive or --versions: both list.");
    ctx = withRewind(withEncryption(ctx, this.encC, this.encKms), this.rewind);
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
        if (this.recursive || this.versions) {
          let found = 0;
          const prefix = this.recursive ? dirPrefix(loc.key) : loc.key;
          for await (const e of store.list(prefix, { recursive: true, versions: this.versions })) {
            if (e.isDir || (!this.recursive && e.key !== loc.key)) continue;
            // A delete marker has no HEAD of its own: its listing is its record.
            const info = e.isDeleteMarker ? { ...e, metadata: {} } : await store.stat(e.key, this.versions ? e.versionId : undefined);
            if (info) show(loc, info);
            found++;
          }
          if (found === 0 && !this.recursive) throw mcError(`Unable to stat \`${arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key: loc.key }), "not_found");
          continue;
        }
        const info = await store.stat(loc.key, this.versionId);
        if (!info) {
          if (!this.noList && (await store.isDir(loc.key))) {
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
