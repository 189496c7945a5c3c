import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { runCopyCommand } from "../helpers/copy-run.js";
import { uploadHeaders } from "../transfer/upload-attrs.js";
import { ageFilter } from "../helpers/flags.js";
import { withEncryption } from "../runtime/sse-context.js";
import { withRewind } from "../runtime/rewind-context.js";
import { withZip } from "../runtime/zip-context.js";
import { parseChecksum } from "../storage/s3/checksum.js";

/** `--version-id` names one version of one object (cmd/cp-main.go). */
function checkVersionFlags(isMove: boolean, recursive: boolean, rewind: boolean, sources: number): void {
  if (isMove) throw usageError("mv does not take --version-id; copy the version with cp --version-id.");
  if (recursive || rewind || sources > 1) throw usageError("--version-id cannot be used with --recursive, --rewind or more than one SOURCE.");
}

export class CpCommand extends BaseCommand {
  static override paths = [["cp"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "copy objects",
    examples: [
      ["Copy a local file into a bucket.", "$0 cp ./report.pdf myalias/mybucket/"],
      ["Copy several local files into one folder of a bucket.", "$0 cp notes.txt todo.txt photo.jpg myalias/mybucket/inbox/"],
      ["Download an object to a local file under another name.", "$0 cp myalias/mybucket/reports/2025.pdf ~/Downloads/annual-report.pdf"],
      ["Copy a local folder recursively; with a trailing slash its contents go into the target, without one the folder itself is created there.", "$0 cp --recursive ./website/ myalias/www/"],
      ["Copy a whole bucket from one server to another.", "$0 cp --recursive play/public-data/ myalias/mirror-of-public-data/"],
      ["Copy only objects modified more than 30 days ago.", "$0 cp --recursive --older-than 30d myalias/logs/ ./archive/logs/"],
      ["Copy only objects modified in the last 2 hours and 30 minutes.", "$0 cp --recursive --newer-than 2h30m myalias/uploads/ ./recent/"],
      ["Copy a folder as it was 7 days ago (versioned bucket).", "$0 cp --recursive --rewind 7d myalias/mybucket/config/ ./config-last-week/"],
      ["Copy one specific version of an object.", "$0 cp --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/app.conf ./app.conf.old"],
      ["Upload with custom metadata, a Cache-Control header and tags.", "$0 cp --attr \"Cache-Control=max-age=3600;owner=web-team\" --tags \"env=prod&team=web\" ./index.html myalias/www/"],
      ["Upload into a cheaper storage class.", "$0 cp --storage-class STANDARD_IA ./backup-2025.tar.gz myalias/backups/"],
      ["Keep the file times and mode, to restore them on the way back.", "$0 cp --preserve ./deploy.sh myalias/scripts/"],
      ["Upload an object locked in governance mode for 30 days.", "$0 cp --retention-mode governance --retention-duration 30d ./invoice.pdf myalias/locked-bucket/"],
      ["Upload an object under legal hold.", "$0 cp --legal-hold on ./evidence.zip myalias/locked-bucket/"],
      ["Upload with a SHA256 checksum the server can verify.", "$0 cp --checksum SHA256 ./disk.img myalias/images/"],
      ["Upload a file in one request instead of a multipart upload.", "$0 cp --disable-multipart ./small-video.mp4 myalias/media/"],
      ["Encrypt the upload with a key you provide (SSE-C, 32 bytes in base64).", "$0 cp --enc-c \"myalias/secure/=MzJieXRlc2xvbmdzZWNyZWFiY2RlZmcJZ2l2ZW5uMjE=\" ./payroll.csv myalias/secure/"],
      ["Encrypt uploads under a prefix with a KMS key of the server (SSE-KMS).", "$0 cp --recursive --enc-kms \"myalias/finance/=finance-key\" ./ledgers/ myalias/finance/"],
      ["Encrypt uploads with the server's own keys (SSE-S3).", "$0 cp --enc-s3 \"myalias/mybucket\" ./notes.txt myalias/mybucket/"],
      ["Copy a file whose name has spaces and non-ASCII characters.", "$0 cp \"./Résumé 2025 (final).pdf\" myalias/mybucket/"],
      ["Copy with up to 16 objects in flight.", "$0 cp --recursive --max-workers 16 ./dataset/ myalias/ml-data/"],
    ],
  });
  /** `mv` is `cp` that removes each source once its copy is complete. */
  protected readonly removeSource: boolean = false;
  recursive = Option.Boolean("-r,--recursive", false, { description: "copy or move recursively" });
  olderThan = Option.String("--older-than", { description: "copy objects older than value in duration string (e.g. 7d10h31s)" });
  newerThan = Option.String("--newer-than", { description: "copy objects newer than value in duration string (e.g. 7d10h31s)" });
  rewind = Option.String("--rewind", { description: "copy objects as they were at a time: a duration back (7d, 1h30m) or a time (2026.01.02T15:04 UTC)" });
  versionId = Option.String("--version-id,--vid", { description: "copy a specific version of the source object" });
  maxWorkers = Option.String("--max-workers", { description: "maximum number of concurrent copies" });
  storageClass = Option.String("--storage-class,--sc", { description: "set storage class for new object(s) on target" });
  attr = Option.String("--attr", { description: "add custom metadata for all objects (\"key=value;key2=value2\")" });
  tags = Option.String("--tags", { description: "apply one or more tags to the uploaded objects (\"key=value&key2=value2\")" });
  retentionMode = Option.String("--retention-mode", { description: "retention mode for the new object(s): governance or compliance" });
  retentionDuration = Option.String("--retention-duration", { description: "retention duration for the new object(s), such as 30d or 1y" });
  legalHold = Option.String("--legal-hold", { description: "set legal hold on the new object(s): on or off" });
  preserve = Option.Boolean("-a,--preserve", false, { description: "preserve file attributes (times and mode; the owner too when run as root) through X-Amz-Meta-Mc-Attrs" });
  checksum = Option.String("--checksum", { description: "add a checksum to uploaded objects: CRC32, CRC32C, SHA1, SHA256 or CRC64NVME" });
  disableMultipart = Option.Boolean("--disable-multipart", false, { description: "disable multipart upload feature" });
  zip = Option.Boolean("--zip", false, { description: "extract from remote zip file (MinIO server source only)" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  encS3 = Option.Array("--enc-s3", { description: "encrypt objects using the server's own keys (\"alias/prefix\")" });
  targets = Option.Rest({ name: "SOURCE [SOURCE...] TARGET" });

  async run(ctx: McContext): Promise<number> {
    // mv would delete the objects of today after copying those of the past.
    if (this.rewind !== undefined && this.removeSource) throw usageError("mv does not take --rewind; copy the past with cp --rewind.");
    if (this.zip && (this.rewind !== undefined || this.versionId !== undefined || this.removeSource)) throw usageError("--zip cannot be used with --rewind, --version-id or mv.");
    ctx = withZip(withRewind(withEncryption(ctx, this.encC, this.encKms, this.encS3), this.rewind), this.zip);
    if (this.targets.length < 2) throw usageError(`${this.removeSource ? "mv" : "cp"} needs SOURCE and TARGET.`);
    if (this.versionId !== undefined) checkVersionFlags(this.removeSource, this.recursive, this.rewind !== undefined, this.targets.length - 1);
    const checksum = parseChecksum(this.checksum);
    // Up to 5 GiB in one PUT, S3's limit for a single request.
    if (this.disableMultipart) ctx = ctx.withUpload({ ...ctx.upload, partSize: 5 * 1024 ** 3 });
    const sources = this.targets.slice(0, -1);
    const target = this.targets.at(-1) ?? "";
    return runCopyCommand(ctx, {
      sources,
      target,
      recursive: this.recursive,
      ...(this.removeSource ? { removeSource: true } : {}),
      filter: ageFilter(this.olderThan, this.newerThan),
      headers: uploadHeaders({ attr: this.attr, tags: this.tags, storageClass: this.storageClass, retentionMode: this.retentionMode, retentionDuration: this.retentionDuration, legalHold: this.legalHold }),
      ...(this.maxWorkers ? { maxWorkers: Number(this.maxWorkers) } : {}),
      ...(this.preserve ? { preserve: true } : {}),
      ...(this.versionId !== undefined ? { versionId: this.versionId } : {}),
      checksum,
    });
  }
}
