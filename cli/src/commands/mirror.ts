import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import type { ChecksumAlgorithm, Entry } from "../storage/types.js";
import { parseChecksum } from "../storage/s3/checksum.js";
import { runCopies, type CopyJob } from "../transfer/copy.js";
import { uploadHeaders } from "../transfer/upload-attrs.js";
import { summaryTable } from "../helpers/copy-run.js";
import { withEncryption } from "../runtime/sse-context.js";
import { dirPrefix, passesAge, type AgeFilter } from "../transfer/plan.js";
import { createProgress } from "../transfer/progress.js";
import { compareListings } from "../transfer/listing-merge.js";
import { removeInOrder } from "../helpers/delete-queue.js";
import { flatMatch } from "../util/wildcard.js";
import { ageFilter } from "../helpers/flags.js";
import { watchChanges, type Changes } from "../helpers/mirror-changes.js";

export class MirrorCommand extends BaseCommand {
  static override paths = [["mirror"]];
  static override usage = Command.Usage({ category: "Object commands", description: "synchronize object(s) to a remote site", examples: [["Mirror a folder", "$0 mirror ./photos myminio/bucket/photos"]] });
  overwrite = Option.Boolean("--overwrite", false, { description: "overwrite object(s) on target if it differs from source" });
  remove = Option.Boolean("--remove", false, { description: "remove extraneous object(s) on target" });
  watchMode = Option.Boolean("-w,--watch", false, { description: "continuously watch for new objects" });
  dryRun = Option.Boolean("--dry-run", false, { description: "perform a fake mirror operation" });
  exclude = Option.Array("--exclude", [], { description: "exclude object(s) that match specified object name pattern" });
  olderThan = Option.String("--older-than", { description: "filter object(s) older than value in duration string" });
  newerThan = Option.String("--newer-than", { description: "filter object(s) newer than value in duration string" });
  maxWorkers = Option.String("--max-workers", { description: "maximum number of concurrent copies" });
  storageClass = Option.String("--storage-class,--sc", { description: "specify storage class for new object(s) on target" });
  attr = Option.String("--attr", { description: "add custom metadata for all objects (\"key=value;key2=value2\")" });
  excludeBucket = Option.Array("--exclude-bucket", [], { description: "exclude bucket(s) that match the pattern when mirroring a whole alias (repeatable)" });
  excludeStorageClass = Option.Array("--exclude-storageclass", [], { description: "exclude object(s) with the given storage class (repeatable)" });
  disableMultipart = Option.Boolean("--disable-multipart", false, { description: "disable multipart upload feature" });
  summary = Option.Boolean("--summary", false, { description: "print a summary of the mirror session" });
  retry = Option.Boolean("--retry", false, { description: "retry each object that failed once more at the end of a pass" });
  skipErrors = Option.Boolean("--skip-errors", false, { description: "report objects that fail but exit 0" });
  checksum = Option.String("--checksum", { description: "add a checksum to uploaded objects: CRC32, CRC32C, SHA1, SHA256 or CRC64NVME" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  encS3 = Option.Array("--enc-s3", { description: "encrypt objects using the server's own keys (\"alias/prefix\")" });
  private headers: Readonly<Record<string, string>> | undefined;
  private checksumAlgorithm: ChecksumAlgorithm | undefined;
  targets = Option.Rest({ name: "SOURCE TARGET" });

  async run(ctx: McContext): Promise<number> {
    if (this.targets.length !== 2) throw usageError("mirror needs SOURCE and TARGET.");
    this.headers = uploadHeaders({ attr: this.attr, storageClass: this.storageClass });
    this.checksumAlgorithm = parseChecksum(this.checksum);
    ctx = withEncryption(ctx, this.encC, this.encKms, this.encS3);
    // Up to 5 GiB in one PUT, S3's limit for a single request.
    if (this.disableMultipart) ctx = ctx.withUpload({ ...ctx.upload, partSize: 5 * 1024 ** 3 });
    const [srcArg = "", dstArg = ""] = this.targets;
    const filter = ageFilter(this.olderThan, this.newerThan);
    const started = process.hrtime.bigint();
    const totals = { total: 0, transferred: 0, failed: 0 };
    const src = ctx.locate(srcArg);
    if (src.kind === "s3" && src.bucket === "") {
      if (this.watchMode) throw usageError("mirror --watch needs a bucket or folder as SOURCE, not a whole alias.");
      for (const [from, to] of await this.bucketPairs(ctx, src, srcArg, dstArg)) await this.syncOnce(ctx, from, to, filter, totals, "");
    } else {
      const dst = ctx.locate(dstArg);
      requireStore(src);
      requireStore(dst);
      if (src.kind === "s3" && !(await src.client.bucketExists(src.bucket))) {
        throw mcError(`Unable to mirror \`${srcArg}\`.`, Object.assign(new Error("Bucket does not exist"), { code: "NoSuchBucket", bucketname: src.bucket }), "not_found");
      }
      // Watch from before the first pass: a file that appears while it runs
      // (or right after it prints) must not slip between pass and watcher.
      const changes = this.watchMode ? watchChanges(src) : undefined;
      try {
        await this.syncOnce(ctx, src, dst, filter, totals, "");
        if (changes) await this.watchLoop(ctx, src, dst, filter, totals, changes);
      } finally {
        changes?.close();
      }
    }
    const ns = Number(process.hrtime.bigint() - started);
    const speed = totals.transferred / Math.max(ns / 1e9, 1e-9);
    if (ctx.output.json) ctx.output.printJson({ status: "success", total: totals.total, transferred: totals.transferred, duration: ns, speed });
    else if (this.summary) ctx.output.line(summaryTable(totals.total, totals.transferred, ns, speed));
    return totals.failed && !this.skipErrors ? 1 : 0;
  }

  /**
   * A whole alias as SOURCE: each bucket not matched by --exclude-bucket,
   * mirrored to TARGET/<bucket> (a folder, or a bucket made when missing on
   * an alias target).
   */
  private async bucketPairs(ctx: McContext, src: Extract<Location, { kind: "s3" }>, srcArg: string, dstArg: string): Promise<Array<[Location, Location]>> {
    const target = ctx.locate(dstArg);
    const pairs: Array<[Location, Location]> = [];
    for (const { name } of (await src.client.listBuckets()).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (this.excludeBucket.some((p) => flatMatch(p, name))) continue;
      const to = ctx.locate(`${dstArg.replace(/\/+$/, "")}/${name}`);
      if (target.kind === "s3" && target.bucket === "" && to.kind === "s3" && !this.dryRun && !(await to.client.bucketExists(name))) await to.client.makeBucket(name);
      pairs.push([ctx.locate(`${srcArg.replace(/\/+$/, "")}/${name}`), to]);
    }
    return pairs;
  }

  private excludedClass(e: Entry): boolean {
    // Local files have no storage class: only objects can be excluded by one.
    return e.storageClass !== undefined && this.excludeStorageClass.some((sc) => sc.toUpperCase() === e.storageClass?.toUpperCase());
  }

  private excluded(rel: string): boolean {
    return this.exclude.some((p) => flatMatch(p, rel));
  }

  private async syncOnce(ctx: McContext, src: Location, dst: Location, filter: AgeFilter, totals: { total: number; transferred: number; failed: number }, eventType: string): Promise<void> {
    const srcPrefix = dirPrefix(src.key);
    const dstPrefix = dirPrefix(dst.key);
    const srcStore = requireStore(src);
    const dstStore = requireStore(dst);
    const jobs: (CopyJob & { rel: string })[] = [];
    // The two listings are compared as sorted streams: only the copies to make
    // and the target's extra objects (for --remove) are held, never every key.
    const extra: { rel: string; size: number }[] = [];
    for await (const { rel, first: e, second: existing } of compareListings(src, dst)) {
      if (!e) {
        if (existing && this.remove && !this.excluded(rel)) extra.push({ rel, size: existing.size });
        continue;
      }
      if (this.excluded(rel) || !passesAge(e, filter) || this.excludedClass(e)) continue;
      if (existing) {
        const differs = existing.size !== e.size || e.lastModified.getTime() > existing.lastModified.getTime();
        if (!differs) continue;
        // Watch events are edits of files already mirrored: they overwrite.
        if (!this.overwrite && eventType === "") {
          // Reported, but does not change the exit code (cmd/mirror-main.go).
          ctx.output.error(mcError(`Failed to copy \`${displayUrl(src, srcPrefix + rel)}\`.`, new Error(`Overwrite not allowed for \`${displayUrl(dst, dstPrefix + rel)}\`. Use \`--overwrite\` to override this behavior`)));
          continue;
        }
      }
      jobs.push({ src: srcStore, srcKey: srcPrefix + rel, dst: dstStore, dstKey: dstPrefix + rel, size: e.size, etag: e.etag, rel, ...(this.headers ? { headers: this.headers } : {}), ...(this.checksumAlgorithm ? { checksum: this.checksumAlgorithm } : {}) });
    }
    const totalSize = jobs.reduce((s, j) => s + j.size, 0);
    totals.total += totalSize;
    const report = (job: CopyJob & { rel: string }, source: string): void => {
      const target = displayUrl(dst, job.dstKey);
      if (ctx.output.json) {
        ctx.output.printJson({ status: "success", source, target, size: job.size, totalCount: jobs.length, totalSize, eventTime: eventType ? new Date().toISOString() : "", eventType });
      } else ctx.output.line(source ? `\`${source}\` -> \`${target}\`` : `Removed \`${target}\`.`);
    };
    if (this.dryRun) for (const job of jobs) report(job, displayUrl(src, job.srcKey));
    else {
      // With --retry a failure is held back and the object copied once more after the pass.
      const again: CopyJob[] = [];
      const run = (batch: readonly CopyJob[], last: boolean): Promise<void> =>
        runCopies(batch, {
          signal: ctx.signal,
          progress: createProgress(!ctx.output.quiet && !this.watchMode),
          partSize: ctx.upload.partSize,
          limits: ctx.limits,
          ...(this.maxWorkers ? { maxWorkers: Number(this.maxWorkers) } : {}),
          onCopied: (job) => {
            totals.transferred += job.size;
            report(job as CopyJob & { rel: string }, displayUrl(src, job.srcKey));
          },
          onFailed: (job, err) => {
            if (!last) return void again.push(job);
            totals.failed++;
            ctx.output.error(mcError(`Failed to copy \`${displayUrl(src, job.srcKey)}\`.`, err));
          },
        });
      await run(jobs, !this.retry);
      if (again.length > 0) await run(again, true);
    }
    if (!this.remove) return;
    const removals = extra.map(({ rel, size }) => ({ src: srcStore, srcKey: "", dst: dstStore, key: dstPrefix + rel, dstKey: dstPrefix + rel, size, etag: "", rel }));
    // On S3 in DeleteObjects batches, reported in order as they are confirmed.
    if (this.dryRun) for (const job of removals) report(job, "");
    else await removeInOrder(dst, removals, (job) => report(job, ""));
  }

  /** New and changed source objects are mirrored as they appear. */
  private async watchLoop(ctx: McContext, src: Location, dst: Location, filter: AgeFilter, totals: { total: number; transferred: number; failed: number }, changes: Changes): Promise<void> {
    while (!ctx.signal.aborted) {
      if (!changes.take()) {
        await changes.next(ctx.signal);
        continue;
      }
      // Let a burst of events (a file still being written) settle into one pass.
      await new Promise((resolve) => setTimeout(resolve, 100));
      changes.take();
      await this.syncOnce(ctx, src, dst, filter, totals, "s3:ObjectCreated:Put").catch((err: unknown) => {
        if (!ctx.signal.aborted) ctx.output.error(err);
      });
    }
  }
}
