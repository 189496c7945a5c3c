import { rm, rmdir } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import type { Location } from "../storage/location.js";

export class RbCommand extends BaseCommand {
  static override paths = [["rb"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "remove a bucket",
    examples: [
      ["Remove an empty bucket.", "$0 rb myalias/mybucket"],
      ["Remove a bucket and everything in it.", "$0 rb --force myalias/scratch"],
      ["Remove every bucket of an alias (asks for both flags on purpose).", "$0 rb --force --dangerous myalias"],
    ],
  });
  force = Option.Boolean("--force", false, { description: "force a recursive remove operation on all objects and versions" });
  dangerous = Option.Boolean("--dangerous", false, { description: "allow site-wide removal of objects" });
  targets = Option.Rest({ name: "TARGET [TARGET...]" });

  async run(ctx: McContext): Promise<number> {
    if (this.targets.length === 0) throw usageError("rb needs at least one TARGET.");
    let failed = 0;
    for (const arg of this.targets) {
      try {
        const loc = ctx.locate(arg);
        await this.removeBucket(ctx, loc, arg.replace(/\/+$/, ""));
        ctx.output.result({ status: "success", bucket: arg.replace(/\/+$/, "") }, `Removed \`${arg.replace(/\/+$/, "")}\` successfully.`);
      } catch (err) {
        if (this.targets.length === 1) throw err;
        ctx.output.error(err);
        failed++;
      }
    }
    return failed ? 1 : 0;
  }

  private async removeBucket(ctx: McContext, loc: Location, name: string): Promise<void> {
    if (loc.kind === "local") {
      if (this.force) await rm(loc.key, { recursive: true });
      else await rmdir(loc.key).catch((err: unknown) => Promise.reject(mcError(`Unable to remove \`${name}\`.`, err)));
      return;
    }
    if (loc.bucket === "") {
      if (!(this.force && this.dangerous)) throw usageError(`\`${name}\` needs a bucket name (removing every bucket of an alias needs --force --dangerous).`);
      for (const bucket of await loc.client.listBuckets()) await this.removeBucket(ctx, ctx.locate(`${loc.alias.name}/${bucket.name}`), `${name}/${bucket.name}`);
      return;
    }
    if (loc.key !== "") throw usageError(`\`${name}\` is not a bucket; use \`mc rm\` for objects.`);
    if (!(await loc.client.bucketExists(loc.bucket))) {
      throw mcError(`Unable to validate target \`${name}\`.`, Object.assign(new Error("Bucket does not exist"), { code: "NoSuchBucket", bucketname: loc.bucket }), "not_found");
    }
    if (this.force) {
      const store = loc.store;
      if (store) {
        const batch: { name: string; versionId?: string }[] = [];
        const flush = async (): Promise<void> => {
          if (batch.length) await loc.client.removeObjects(loc.bucket, batch.splice(0));
        };
        for await (const e of store.list("", { recursive: true, versions: true })) {
          batch.push(e.versionId && e.versionId !== "null" ? { name: e.key, versionId: e.versionId } : { name: e.key });
          if (batch.length >= 1000) await flush();
        }
        await flush();
      }
      const uploads = loc.client.listIncompleteUploads(loc.bucket, "", true);
      for await (const up of uploads as AsyncIterable<{ key: string; uploadId: string }>) await loc.client.abortMultipartUpload(loc.bucket, up.key, up.uploadId);
    }
    try {
      await loc.client.removeBucket(loc.bucket);
    } catch (err) {
      throw mcError(`Unable to remove bucket \`${name}\`.`, err);
    }
  }
}
