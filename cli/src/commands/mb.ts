import { mkdir } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, s3Code, usageError } from "../core/errors.js";
import { isNewBucketName } from "../storage/location.js";
import { createBucket } from "../storage/s3/bucket/create-bucket.js";

export class MbCommand extends BaseCommand {
  static override paths = [["mb"]];
  static override usage = Command.Usage({
    category: "Bucket commands",
    description: "make a bucket",
    examples: [
      ["Create a bucket.", "$0 mb myalias/mybucket"],
      ["Create several buckets at once.", "$0 mb myalias/logs myalias/backups myalias/media"],
      ["Create a bucket in a region.", "$0 mb --region eu-west-1 myalias/mybucket-eu"],
      ["Create a bucket unless it exists already.", "$0 mb --ignore-existing myalias/mybucket"],
      ["Create a bucket with object locking.", "$0 mb --with-lock myalias/locked-bucket"],
      ["Create a bucket with versioning.", "$0 mb --with-versioning myalias/versioned-bucket"],
      ["Create a local folder.", "$0 mb ./new-folder"],
    ],
  });
  region = Option.String("--region", "us-east-1", { description: "specify bucket region" });
  ignoreExisting = Option.Boolean("-p,--ignore-existing", false, { description: "ignore if bucket/directory already exists" });
  withLock = Option.Boolean("-l,--with-lock", false, { description: "enable object lock" });
  withVersioning = Option.Boolean("--with-versioning", false, { description: "enable versioned bucket" });
  targets = Option.Rest({ name: "TARGET [TARGET...]" });

  async run(ctx: McContext): Promise<number> {
    if (this.targets.length === 0) throw usageError("mb needs at least one TARGET.");
    let failed = 0;
    for (const arg of this.targets) {
      try {
        const loc = ctx.locate(arg);
        const name = arg.replace(/\/+$/, "");
        if (loc.kind === "local") {
          await mkdir(loc.key, { recursive: true });
        } else {
          if (loc.bucket === "") throw usageError(`\`${arg}\` needs a bucket name.`);
          // Legacy names are read and written, never made anew (the original client's rule and text).
          if (!isNewBucketName(loc.bucket)) throw mcError(`Unable to make bucket \`${name}\`.`, new Error("Bucket name contains invalid characters"), "invalid_argument");
          try {
            // RGW answers 200 to a repeated create by the owner; report it as S3 does.
            if (await loc.client.bucketExists(loc.bucket)) throw Object.assign(new Error("Bucket already owned by you"), { code: "BucketAlreadyOwnedByYou", bucketname: loc.bucket });
            await createBucket(loc.client, loc.bucket, this.region, { objectLocking: this.withLock });
          } catch (err) {
            const exists = ["BucketAlreadyOwnedByYou", "BucketAlreadyExists"].includes(s3Code(err));
            if (!(exists && this.ignoreExisting)) throw mcError(`Unable to make bucket \`${name}\`.`, err);
          }
          if (this.withVersioning) await loc.client.setBucketVersioning(loc.bucket, { Status: "Enabled" });
        }
        ctx.output.result({ status: "success", bucket: name, region: loc.kind === "s3" ? this.region : "" }, `Bucket created successfully \`${name}\`.`);
      } catch (err) {
        if (this.targets.length === 1) throw err;
        ctx.output.error(err);
        failed++;
      }
    }
    return failed ? 1 : 0;
  }
}
