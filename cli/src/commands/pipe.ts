import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { requireStore } from "../storage/location.js";
import { uploadHeaders } from "../transfer/upload-attrs.js";
import { parseSize } from "../util/humanize.js";
import { parseChecksum } from "../storage/s3/checksum.js";
import { withEncryption } from "../runtime/sse-context.js";
import { dataStdin } from "../core/stdin.js";

export class PipeCommand extends BaseCommand {
  static override paths = [["pipe"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "stream STDIN to an object",
    examples: [
      ["Store the output of a command as an object.", "tar czf - ./project | $0 pipe myalias/backups/project.tar.gz"],
      ["Store a database dump with metadata and tags.", "pg_dump mydb | $0 pipe --attr \"Content-Type=application/sql\" --tags \"kind=dump\" myalias/backups/mydb.sql"],
      ["Stream into a cheaper storage class, with 64 MiB parts.", "cat huge.log | $0 pipe --storage-class STANDARD_IA --part-size 64MiB myalias/logs/huge.log"],
      ["Stream with a SHA256 checksum on each part.", "cat disk.img | $0 pipe --checksum SHA256 myalias/images/disk.img"],
      ["Stream into an object encrypted with a server KMS key.", "cat secrets.tar | $0 pipe --enc-kms \"myalias/secure/=backup-key\" myalias/secure/secrets.tar"],
    ],
  });
  concurrent = Option.String("--concurrent", "1", { description: "allow N concurrent part uploads" });
  partSize = Option.String("--part-size", { description: "part size for the multipart upload of a stream of unknown size" });
  storageClass = Option.String("--storage-class,--sc", { description: "set storage class for new object" });
  attr = Option.String("--attr", { description: "add custom metadata for the object (\"key=value;key2=value2\")" });
  tags = Option.String("--tags", { description: "apply one or more tags to the uploaded object (\"key=value&key2=value2\")" });
  checksum = Option.String("--checksum", { description: "add a checksum to uploaded objects: CRC32, CRC32C, SHA1, SHA256 or CRC64NVME" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  encS3 = Option.Array("--enc-s3", { description: "encrypt objects using the server's own keys (\"alias/prefix\")" });
  targets = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.targets.length !== 1) throw usageError("pipe needs exactly one TARGET.");
    ctx = withEncryption(ctx, this.encC, this.encKms, this.encS3);
    const loc = ctx.locate(this.targets[0] ?? "");
    const parallel = Number(this.concurrent);
    if (!Number.isInteger(parallel) || parallel < 1) throw usageError(`invalid --concurrent \`${this.concurrent}\`.`);
    // Unknown size: parts of 16 MiB unless told otherwise, so memory stays bounded (see README, departures).
    const partSize = this.partSize === undefined ? ctx.upload.partSize : parseSize(this.partSize);
    if (partSize === undefined || partSize < 5 * 1024 * 1024) throw usageError(`invalid --part-size \`${this.partSize ?? ""}\`.`);
    const headers = uploadHeaders({ attr: this.attr, tags: this.tags, storageClass: this.storageClass });
    const checksum = parseChecksum(this.checksum);
    const store = loc.kind === "s3" && loc.bucket !== "" ? ctx.bucketStore(loc.alias, loc.bucket, { partSize, parallel }) : requireStore(loc);
    const input = dataStdin();
    try {
      await store.write(loc.key, input, undefined, { signal: ctx.signal, ...(headers ? { headers } : {}), ...(checksum ? { checksum } : {}) });
    } catch (err) {
      throw mcError(`Unable to write to one or more targets.`, err);
    }
  }
}
