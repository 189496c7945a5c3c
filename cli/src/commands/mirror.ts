import { readdir } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import type { ChecksumAlgorithm, Entry, Store } from "../storage/types.js";
import { iBytes } from "../util/humanize.js";
import { parseChecksum } from "../storage/s3/checksum.js";
import { runCopies, type CopyJob } from "../transfer/copy.js";
import { uploadHeaders } from "../transfer/upload-attrs.js";
import { summaryTable } from "../helpers/copy-run.js";
import { withEncryption } from "../runtime/sse-context.js";
import { dirPrefix, passesAge, type AgeFilter } from "../transfer/plan.js";
import { createProgress } from "../transfer/progress.js";
import { compareListings } from "../transfer/listing-merge.js";
import { removeInOrder } from "../helpers/delete-queue.js";
import { refuseOverlap } from "../helpers/mirror-overlap.js";
import { flatMatch } from "../util/wildcard.js";
import { ageFilter } from "../helpers/flags.js";
import { watchChanges, type Changes } from "../helpers/mirror-changes.js";
import { releaseTag } from "../core/version.js";
import { isCyclicRemoval, isMirrorEcho, listenSource, markFor, sourceMtimeHeader, type SourceEvents } from "../helpers/mirror-active.js";
import { startMirrorMetrics, type MirrorMetrics } from "../helpers/mirror-metrics.js";
import { preservedCopy, preservedUnchanged } from "../helpers/mirror-preserve.js";
import { createBucket } from "../storage/s3/bucket/create-bucket.js";

export class MirrorCommand extends BaseCommand {
  static override paths = [["mirror"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "synchronize object(s) to a remote site",
    examples: [
      ["Mirror a local folder to a bucket.", "$0 mirror ./photos myalias/photos"],
      ["Mirror one bucket to a bucket on another server.", "$0 mirror myalias/mybucket play/mybucket-copy"],
      ["Keep watching the folder and upload every change as it happens.", "$0 mirror --watch ./photos myalias/photos"],
      ["Overwrite objects on the target that differ from the source.", "$0 mirror --overwrite ./site myalias/www"],
      ["Make the target an exact copy: also remove what is only on the target.", "$0 mirror --overwrite --remove ./site myalias/www"],
      ["See what would be copied and removed, without changing anything.", "$0 mirror --dry-run --remove ./site myalias/www"],
      ["Leave out temporary files and a cache folder.", "$0 mirror --exclude \"*.tmp\" --exclude \"cache/*\" ./project myalias/backups/project"],
      ["Mirror every bucket of a server except the scratch ones.", "$0 mirror --exclude-bucket \"scratch*\" myalias play/backup-of-myalias"],
      ["Mirror only files changed in the last day.", "$0 mirror --newer-than 1d ./reports myalias/reports"],
      ["Mirror files older than a week to an archive storage class.", "$0 mirror --older-than 7d --storage-class GLACIER ./logs myalias/archive-logs"],
      ["Skip objects stored in a cold class when mirroring a bucket down.", "$0 mirror --exclude-storageclass GLACIER myalias/data ./data"],
      ["Add metadata to every uploaded object.", "$0 mirror --attr \"Cache-Control=max-age=600\" ./public myalias/www"],
      ["Print a summary at the end and keep going after errors.", "$0 mirror --summary --skip-errors ./data myalias/data"],
      ["Retry failed objects before giving up.", "$0 mirror --retry ./data myalias/data"],
      ["Upload with CRC32C checksums and 8 objects in flight.", "$0 mirror --checksum CRC32C --max-workers 8 ./data myalias/data"],
      ["Mirror into a prefix encrypted with a server KMS key.", "$0 mirror --enc-kms \"myalias/secure/=backup-key\" ./secrets myalias/secure/backup"],
      ["Upload each file in one request (no multipart uploads).", "$0 mirror --disable-multipart ./docs myalias/docs"],
    ],
  });
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
  region = Option.String("--region", "us-east-1", { description: "specify region when creating new bucket(s) on target" });
  preserve = Option.Boolean("-a,--preserve", false, { description: "preserve file(s)/object(s) attributes (X-Amz-Meta-Mc-Attrs); unchanged files are not copied again" });
  activeActive = Option.Boolean("--active-active", false, { description: "enable active-active multi-site setup (MinIO bucket notifications on the source)" });
  monitoringAddress = Option.String("--monitoring-address", { description: "if specified, a new prometheus endpoint will be created to report mirroring activity. (eg: localhost:8081)" });
  private metrics: MirrorMetrics | undefined;
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
    if (!/^[A-Za-z0-9._-]*$/.test(this.region)) throw usageError(`invalid --region \`${this.region}\`.`);
    if (this.monitoringAddress !== undefined) this.metrics = await startMirrorMetrics(this.monitoringAddress);
    try {
      return await this.mirror(ctx, srcArg, dstArg, filter);
    } finally {
      await this.metrics?.close();
    }
  }

  private async mirror(ctx: McContext, srcArg: string, dstArg: string, filter: AgeFilter): Promise<number> {
    const watching = this.watchMode || this.activeActive;
    const started = process.hrtime.bigint();
    const totals = { total: 0, transferred: 0, failed: 0 };
    const src = ctx.locate(srcArg);
    const dstRoot = ctx.locate(dstArg);
    if ((src.kind === "s3" && src.bucket === "") || (src.kind === "local" && dstRoot.kind === "s3" && dstRoot.bucket === "")) {
      if (watching) throw usageError(`mirror ${this.watchMode ? "--watch" : "--active-active"} needs a bucket or folder as SOURCE, not a whole alias.`);
      for (const [from, to] of await this.bucketPairs(ctx, src, srcArg, dstArg)) await this.syncOnce(ctx, from, to, filter, totals, "");
    } else {
      const dst = ctx.locate(dstArg);
      requireStore(src);
      requireStore(dst);
      await refuseOverlap(src, dst);
      if (src.kind === "s3" && !(await src.client.bucketExists(src.bucket))) {
        throw mcError(`Unable to mirror \`${srcArg}\`.`, Object.assign(new Error("Bucket does not exist"), { code: "NoSuchBucket", bucketname: src.bucket }), "not_found");
      }
      // Our writes and removals say who made them, so the other site's active-active mirror can tell (upstream uaMirrorAppName).
      if (this.activeActive && dst.kind === "s3") dst.client.setAppInfo(`mc-mirror${src.kind === "s3" ? `:${src.alias.name}` : ""}`, releaseTag);
      // Watch from before the first pass: a file that appears while it runs
      // (or right after it prints) must not slip between pass and watcher.
      // An active-active bucket source is followed through its notifications.
      const events = this.activeActive && src.kind === "s3" ? await listenSource(src, dirPrefix(src.key), ctx.signal) : undefined;
      const changes = watching && events === undefined ? watchChanges(src) : undefined;
      try {
        await this.syncOnce(ctx, src, dst, filter, totals, "");
        if (changes) await this.watchLoop(ctx, src, dst, filter, totals, changes);
        if (events && src.kind === "s3") await this.eventLoop(ctx, src, dst, totals, events);
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
  private async bucketPairs(ctx: McContext, src: Location, srcArg: string, dstArg: string): Promise<Array<[Location, Location]>> {
    const target = ctx.locate(dstArg);
    const pairs: Array<[Location, Location]> = [];
    // A folder mirrored to a whole alias: each of its folders is a bucket (upstream bucketDifference).
    const names = src.kind === "s3" ? (await src.client.listBuckets()).map((b) => b.name) : (await readdir(src.key, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    for (const name of names.sort((a, b) => (a < b ? -1 : 1))) {
      if (this.excludeBucket.some((p) => flatMatch(p, name))) continue;
      const to = ctx.locate(`${dstArg.replace(/\/+$/, "")}/${name}`);
      if (target.kind === "s3" && target.bucket === "" && to.kind === "s3" && !this.dryRun && !(await to.client.bucketExists(name))) {
        await createBucket(to.client, name, this.region).catch((err: unknown) => {
          throw mcError(`Unable to create bucket at \`${to.alias.name}/${name}\`.`, err);
        });
      }
      const from = ctx.locate(`${srcArg.replace(/\/+$/, "")}/${name}`);
      await refuseOverlap(from, to);
      pairs.push([from, to]);
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
        // With -a the preserved times decide: a file that only looks newer is unchanged.
        if (this.preserve && existing.size === e.size && (await preservedUnchanged(srcStore, srcPrefix + rel, e, dstStore, dstPrefix + rel, existing))) continue;
        // Watch events are edits of files already mirrored: they overwrite (and so does an active-active site).
        if (!this.overwrite && !this.activeActive && eventType === "") {
          // Reported, but does not change the exit code (cmd/mirror-main.go).
          ctx.output.error(mcError(`Failed to copy \`${displayUrl(src, srcPrefix + rel)}\`.`, new Error(`Overwrite not allowed for \`${displayUrl(dst, dstPrefix + rel)}\`. Use \`--overwrite\` to override this behavior`)));
          continue;
        }
      }
      jobs.push(await this.job(srcStore, srcPrefix + rel, e, dstStore, dstPrefix + rel, rel));
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
    else await this.copyAll(ctx, src, jobs, totals, (job) => report(job as CopyJob & { rel: string }, displayUrl(src, job.srcKey)));
    if (!this.remove) return;
    // What could not be listed would look absent from the source: its copies must not go.
    if (ctx.unreadable() > 0) {
      if (extra.length > 0) ctx.output.error(mcError(`Removed nothing from \`${displayUrl(dst, dstPrefix)}\`: parts of the source could not be read.`));
      return;
    }
    const removals = extra.map(({ rel, size }) => ({ src: srcStore, srcKey: "", dst: dstStore, key: dstPrefix + rel, dstKey: dstPrefix + rel, size, etag: "", rel }));
    // On S3 in DeleteObjects batches, reported in order as they are confirmed.
    const removed = (job: (typeof removals)[number]): void => {
      this.metrics?.op(false);
      report(job, "");
    };
    if (this.dryRun) for (const job of removals) removed(job);
    else await removeInOrder(dst, removals, removed);
  }

  /** One copy: the user's headers, the checksum, -a's attributes and the active-active mark. */
  private async job(srcStore: Store, srcKey: string, e: Entry, dstStore: Store, dstKey: string, rel: string, eventTime?: Date): Promise<CopyJob & { rel: string }> {
    let headers = this.headers;
    const kept = this.preserve ? await preservedCopy(srcStore, srcKey, e, dstStore, dstKey, headers) : {};
    if (kept.headers) headers = kept.headers;
    if (this.activeActive && dstStore.kind === "s3") {
      const meta = srcStore.kind === "s3" ? (await srcStore.stat(srcKey))?.metadata : undefined;
      headers = { ...headers, [sourceMtimeHeader]: markFor(meta, eventTime ?? e.lastModified) };
    }
    return { src: srcStore, srcKey, dst: dstStore, dstKey, size: e.size, etag: e.etag, rel, ...(headers ? { headers } : {}), ...(kept.finish ? { finish: kept.finish } : {}), ...(this.checksumAlgorithm ? { checksum: this.checksumAlgorithm } : {}) };
  }

  /** Runs the copies (with --retry, the failed ones once more), counting them for the totals and the monitoring endpoint. */
  private async copyAll(ctx: McContext, src: Location, jobs: readonly CopyJob[], totals: { transferred: number; failed: number }, copied: (job: CopyJob) => void): Promise<void> {
    const again: CopyJob[] = [];
    const started = new Map<CopyJob, number>();
    // Each job's clock starts when a worker takes it (the pool pulls jobs lazily).
    function* timed(batch: readonly CopyJob[]): Generator<CopyJob> {
      for (const job of batch) {
        started.set(job, Date.now());
        yield job;
      }
    }
    const run = (batch: readonly CopyJob[], last: boolean): Promise<void> =>
      runCopies(timed(batch), {
        signal: ctx.signal,
        progress: createProgress(!ctx.output.quiet && !this.watchMode && !this.activeActive),
        partSize: ctx.upload.partSize,
        limits: ctx.limits,
        ...(this.maxWorkers ? { maxWorkers: Number(this.maxWorkers) } : {}),
        onCopied: (job) => {
          totals.transferred += job.size;
          this.metrics?.op(false);
          this.metrics?.copied(job.size, Date.now() - (started.get(job) ?? Date.now()));
          copied(job);
        },
        onFailed: (job, err) => {
          if (!last) return void again.push(job);
          totals.failed++;
          this.metrics?.op(true);
          ctx.output.error(mcError(`Failed to copy \`${displayUrl(src, job.srcKey)}\`.`, err));
        },
      });
    await run(jobs, !this.retry);
    if (again.length > 0) await run(again, true);
  }

  /**
   * --active-active on a bucket: each notification of the source mirrored as
   * upstream's watchMirrorEvents does (see mirror-active.ts), until Ctrl-C.
   */
  private async eventLoop(ctx: McContext, src: Extract<Location, { kind: "s3" }>, dst: Location, totals: { total: number; transferred: number; failed: number }, events: SourceEvents): Promise<void> {
    const srcStore = requireStore(src);
    const dstStore = requireStore(dst);
    const base = `${src.alias.name}/${src.bucket}/`;
    const srcPrefix = dirPrefix(src.key);
    const dstPrefix = dirPrefix(dst.key);
    for (let ev = await events.next(); ev !== undefined; ev = await events.next()) {
      const key = ev.path.startsWith(base) ? ev.path.slice(base.length) : ev.path;
      const rel = key.slice(srcPrefix.length);
      if (!key.startsWith(srcPrefix) || rel === "" || this.excluded(rel)) continue;
      const target = displayUrl(dst, dstPrefix + rel);
      const say = (obj: Record<string, unknown>, text: string): void => ctx.output.result({ status: "success", ...obj, totalCount: 0, totalSize: 0, eventTime: ev?.time ?? "", eventType: ev?.type ?? "" }, `[${ev?.time ?? ""}] ${text}`);
      if (ev.type.startsWith("s3:ObjectCreated:")) {
        if (isMirrorEcho(ev)) continue;
        const info = await srcStore.stat(key).catch(() => undefined);
        if (info === undefined) continue;
        const job = await this.job(srcStore, key, info, dstStore, dstPrefix + rel, rel, new Date(ev.time));
        totals.total += job.size;
        await this.copyAll(ctx, src, [job], totals, () => say({ source: displayUrl(src, key), target, size: job.size }, `${iBytes(job.size).padStart(6)} \`${displayUrl(src, key)}\` -> \`${target}\``));
      } else if (ev.type === "s3:ObjectRemoved:Delete") {
        if (dst.kind === "s3" && isCyclicRemoval(ev, dst.alias.name)) continue;
        try {
          await dstStore.remove(dstPrefix + rel);
          this.metrics?.op(false);
          say({ source: "", target, size: 0 }, `Removed \`${target}\``);
        } catch (err) {
          this.metrics?.op(true);
          totals.failed++;
          ctx.output.error(mcError(`Failed to remove \`${target}\`.`, err));
        }
      }
    }
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
