import type { McContext } from "../runtime/context.js";
import { mcError } from "../core/errors.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import type { ChecksumAlgorithm, Store } from "../storage/types.js";
import { iBytes } from "../util/humanize.js";
import { runCopies, type CopyJob } from "../transfer/copy.js";
import { sourceItems, targetIsDir, targetKey, type AgeFilter } from "../transfer/plan.js";
import { applyMcAttrs, mcAttrsHeader, mcAttrsOf, parseMcAttrs } from "../storage/local/preserve-attrs.js";
import { createProgress } from "../transfer/progress.js";
import { sameObject } from "./same-object.js";

export interface CopyRequest {
  readonly sources: readonly string[];
  readonly target: string;
  readonly recursive: boolean;
  readonly filter: AgeFilter;
  readonly maxWorkers?: number;
  /** mv: remove each source once it is copied. */
  readonly removeSource?: boolean;
  /** Upload headers for every copy (`--attr`, `--tags`, `--storage-class`). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** -a: local file attributes travel in X-Amz-Meta-Mc-Attrs and are restored on download. */
  readonly preserve?: boolean;
  /** Copy this version of the one source instead of its latest. */
  readonly versionId?: string;
  /** --checksum: uploads carry this x-amz-checksum-*. */
  readonly checksum?: ChecksumAlgorithm | undefined;
}

interface PlannedJob extends CopyJob {
  readonly srcUrl: string;
  readonly dstUrl: string;
}

/** Plans (cmd/cp-url.go rules), copies in parallel, prints per object and a summary; 1 on partial failure. */
export async function runCopyCommand(ctx: McContext, request: CopyRequest): Promise<number> {
  const dst = ctx.locate(request.target);
  const dstStore = requireStore(dst);
  const asDir = request.sources.length > 1 || (await targetIsDir(dst)) || (request.recursive && !(await isSingleObject(ctx, request.sources)));
  const jobs: PlannedJob[] = [];
  let failed = 0;
  for (const arg of request.sources) {
    try {
      const src: Location = ctx.locate(arg);
      for await (const item of sourceItems(src, request.recursive, request.filter, request.versionId)) {
        const dstKey = targetKey(dst, item.rel, asDir);
        // Onto itself: a local copy is pointless and a move would delete the file; an object
        // copied onto itself (a metadata change) is fine, unless mv then removes it.
        if ((request.removeSource === true || src.kind === "local") && item.versionId === undefined && (await sameObject(src, item.key, dst, dstKey))) {
          ctx.output.error(mcError(`Failed to ${request.removeSource === true ? "move" : "copy"} \`${displayUrl(src, item.key)}\`: it is its own target; nothing was changed.`, undefined, "invalid_argument"));
          failed++;
          continue;
        }
        const kept = request.preserve ? await preserved(item.store, item.key, dstStore, dstKey, request.headers) : {};
        jobs.push({
          src: item.store,
          srcKey: item.key,
          dst: dstStore,
          dstKey,
          size: item.entry.size,
          etag: item.entry.etag,
          ...(item.versionId ? { versionId: item.versionId } : {}),
          ...(request.headers ? { headers: request.headers } : {}),
          ...(request.checksum ? { checksum: request.checksum } : {}),
          ...kept,
          srcUrl: displayUrl(src, item.key),
          dstUrl: displayUrl(dst, dstKey),
        });
      }
    } catch (err) {
      if (request.sources.length === 1) throw err;
      ctx.output.error(err);
      failed++;
    }
  }
  const totalSize = jobs.reduce((sum, j) => sum + j.size, 0);
  const progress = createProgress(!ctx.output.quiet);
  progress.addTotal(totalSize);
  const started = process.hrtime.bigint();
  let transferred = 0;
  const copied: CopyJob[] = [];
  await runCopies(jobs, {
    signal: ctx.signal,
    progress,
    partSize: ctx.upload.partSize,
    limits: ctx.limits,
    ...(request.maxWorkers === undefined ? {} : { maxWorkers: request.maxWorkers }),
    onCopied: (job) => {
      const planned = job as PlannedJob;
      transferred += job.size;
      copied.push(job);
      if (ctx.output.json) {
        ctx.output.printJson({ status: "success", source: planned.srcUrl, target: planned.dstUrl, size: job.size, totalCount: jobs.length, totalSize });
      } else if (ctx.output.quiet) {
        ctx.output.line(`\`${planned.srcUrl}\` -> \`${planned.dstUrl}\``);
      }
    },
    onFailed: (job, err) => {
      failed++;
      ctx.output.error(mcError(`Failed to copy \`${(job as PlannedJob).srcUrl}\`.`, err));
    },
  });
  if (request.removeSource) {
    for (const job of copied) await job.src.remove(job.srcKey).catch((err: unknown) => ctx.output.error(mcError(`Failed to remove \`${job.srcKey}\`.`, err)));
  }
  progress.done();
  const ns = Number(process.hrtime.bigint() - started);
  const speed = transferred / Math.max(ns / 1e9, 1e-9);
  if (ctx.output.json) ctx.output.printJson({ status: "success", total: totalSize, transferred, duration: ns, speed });
  else if (!ctx.settings.quiet && jobs.length > 0) ctx.output.line(summaryTable(totalSize, transferred, ns, speed));
  return failed > 0 ? 1 : 0;
}

async function isSingleObject(ctx: McContext, sources: readonly string[]): Promise<boolean> {
  if (sources.length !== 1) return false;
  const loc = ctx.locate(sources[0] ?? "");
  if (!loc.store || loc.key === "" || loc.key.endsWith("/")) return false;
  return (await loc.store.stat(loc.key)) !== undefined;
}

/** The plain-text summary of cp and `mirror --summary`: `Total | Transferred | Duration | Speed`. */
export function summaryTable(total: number, transferred: number, ns: number, speed: number): string {
  const seconds = Math.floor(ns / 1e9);
  const cells = [iBytes(total), iBytes(transferred), `${String(Math.floor(seconds / 60)).padStart(2, "0")}m${String(seconds % 60).padStart(2, "0")}s`, `${iBytes(Math.round(speed))}/s`];
  const heads = ["Total", "Transferred", "Duration", "Speed"];
  const widths = heads.map((h, i) => Math.max(h.length, cells[i]?.length ?? 0));
  const line = (values: readonly string[]): string => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(" | ");
  return `${line(heads)}\n${line(cells)}`;
}

/**
 * What -a adds to one copy: to an object, the local file's attributes as a
 * header; to a local file, once it is in place, the attributes of its
 * source (another file's, or those the object carries).
 */
async function preserved(src: Store, srcKey: string, dst: Store, dstKey: string, headers: Readonly<Record<string, string>> | undefined): Promise<Pick<CopyJob, "headers" | "finish">> {
  if (src.kind === "local" && dst.kind === "s3") return { headers: { ...headers, [mcAttrsHeader]: await mcAttrsOf(srcKey) } };
  if (dst.kind !== "local") return {};
  return {
    async finish() {
      const text = src.kind === "local" ? await mcAttrsOf(srcKey) : (await src.stat(srcKey))?.metadata[mcAttrsHeader];
      if (text) await applyMcAttrs(dstKey, parseMcAttrs(text));
    },
  };
}
