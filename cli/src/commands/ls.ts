import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { withRewind } from "../runtime/rewind-context.js";
import { withZip } from "../runtime/zip-context.js";
import { displayUrl, listingUrl, type Location } from "../storage/location.js";
import type { Entry } from "../storage/types.js";
import { formatDate, iBytes, iBytesCompact, rfc3339Local } from "../util/humanize.js";

interface Shown {
  readonly entry: Entry;
  readonly key: string;
  readonly ordinal: number;
}

export class LsCommand extends BaseCommand {
  static override paths = [["ls"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "list buckets and objects",
    examples: [
      ["List the buckets of a server.", "$0 ls myalias"],
      ["List the top level of a bucket.", "$0 ls myalias/mybucket"],
      ["List a folder recursively.", "$0 ls --recursive myalias/mybucket/photos/"],
      ["List everything whose name starts with a prefix (no trailing slash).", "$0 ls myalias/mybucket/report-2025"],
      ["Show the total size and number of objects under a prefix.", "$0 ls --recursive --summarize myalias/mybucket/logs/"],
      ["List every version of the objects in a folder, delete markers included.", "$0 ls --versions myalias/mybucket/config/"],
      ["List a folder as it was 3 days ago.", "$0 ls --rewind 3d myalias/mybucket/config/"],
      ["List a folder as it was at a given time.", "$0 ls --rewind \"2025.06.01T12:00\" myalias/mybucket/config/"],
      ["List unfinished multipart uploads.", "$0 ls --incomplete myalias/mybucket"],
      ["List only objects in a given storage class.", "$0 ls --recursive --storage-class STANDARD_IA myalias/archive"],
      ["List a local folder and a bucket in one call, as JSON lines.", "$0 ls --json ./exports myalias/exports"],
    ],
  });
  recursive = Option.Boolean("-r,--recursive", false, { description: "list recursively" });
  versions = Option.Boolean("--versions", false, { description: "list all versions" });
  summarize = Option.Boolean("--summarize", false, { description: "display summary information (number of objects, total size)" });
  incomplete = Option.Boolean("-I,--incomplete", false, { description: "list incomplete uploads" });
  storageClass = Option.String("--storage-class,--sc", { description: "filter to specified storage class" });
  zip = Option.Boolean("--zip", false, { description: "list files inside zip archive (MinIO servers only)" });
  rewind = Option.String("--rewind", { description: "show objects as they were at a time: a duration back (7d, 1h30m) or a time (2026.01.02T15:04 UTC)" });
  targets = Option.Rest({ name: "TARGET [TARGET...]" });

  async run(ctx: McContext): Promise<number> {
    if (this.zip && (this.rewind !== undefined || this.versions || this.incomplete)) throw usageError("--zip cannot be used with --rewind, --versions or --incomplete.");
    ctx = withZip(withRewind(ctx, this.rewind), this.zip);
    let failed = 0;
    let count = 0;
    let total = 0;
    for (const arg of this.targets.length ? this.targets : ["."]) {
      try {
        // An archive named without the slash is listed as the folder it is with --zip.
        for await (const shown of this.listOne(ctx, ctx.locate(this.zip && /\.zip$/i.test(arg) ? `${arg}/` : arg))) {
          count += shown.entry.isDir ? 0 : 1;
          total += shown.entry.size;
        }
      } catch (err) {
        ctx.output.error(isAppError(err) ? err : mcError(`Unable to list \`${arg}\`.`, err), this.targets.length > 1 ? "error" : "fatal");
        failed++;
      }
    }
    if (this.summarize) {
      if (ctx.output.json) ctx.output.printJson({ totalObjects: count, totalSize: total });
      else ctx.output.line(`\nTotal Size: ${iBytes(total)}\nTotal Objects: ${count}`);
    }
    return failed > 0 ? 1 : 0;
  }

  private async *listOne(ctx: McContext, loc: Location): AsyncGenerator<Shown> {
    if (loc.kind === "s3" && !loc.store) {
      const buckets = await loc.client.listBuckets();
      buckets.sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const b of buckets) {
        const entry: Entry = { key: `${b.name}/`, size: 0, lastModified: b.creationDate, etag: "", isDir: true };
        this.print(ctx, entry, entry.key, listingUrl(loc, ""), 1);
        yield { entry, key: entry.key, ordinal: 1 };
      }
      return;
    }
    if (this.incomplete && loc.kind === "s3") {
      const stream = loc.client.listIncompleteUploads(loc.bucket, loc.key, true);
      for await (const up of stream as AsyncIterable<{ key: string; uploadId: string; size: number; initiated?: Date }>) {
        const entry: Entry = { key: up.key, size: up.size, lastModified: up.initiated ?? new Date(), etag: "", isDir: false };
        this.print(ctx, entry, up.key.slice(loc.key.length) || up.key, listingUrl(loc, loc.key), 1);
        yield { entry, key: up.key, ordinal: 1 };
      }
      return;
    }
    const store = loc.store;
    if (!store) return;
    // Without a trailing slash a folder is listed as with it; anything else lists
    // every key and folder that starts with the path (cmd/ls.go, Stat then List).
    // Local paths are not prefixes: a file lists itself, a missing path nothing.
    let prefix = loc.key;
    let only: string | undefined;
    if (prefix !== "" && !prefix.endsWith("/")) {
      // A HEAD that fails (an SSE-C object without its key) only means "not a plain object here".
      const isObject = (await store.stat(prefix).catch(() => undefined)) !== undefined;
      if (!isObject && (await store.isDir(prefix))) prefix = `${prefix}/`;
      else if (loc.kind === "local") only = isObject ? prefix : "";
    }
    const url = listingUrl(loc, prefix);
    const base = prefix.slice(0, prefix.lastIndexOf("/") + 1);
    let group: Entry[] = [];
    let any = false;
    const unreadable = ctx.unreadable();
    const flush = function* (this: LsCommand): Generator<Shown> {
      group.forEach((entry, i) => this.print(ctx, entry, entry.key.slice(base.length), url, group.length - i));
      yield* group.map((entry, i) => ({ entry, key: entry.key.slice(base.length), ordinal: group.length - i }));
      group = [];
    };
    for await (const entry of store.list(prefix, { recursive: this.recursive, versions: this.versions })) {
      if (only !== undefined && entry.key !== only) continue;
      // Folders and delete markers have no class: only objects of the class are listed.
      if (this.storageClass !== undefined && (entry.isDir || entry.storageClass?.toUpperCase() !== this.storageClass.toUpperCase())) continue;
      any = true;
      if (group.length > 0 && group[0]?.key !== entry.key) yield* flush.call(this);
      group.push(entry);
    }
    yield* flush.call(this);
    // With --versions an empty answer stays empty, as before: every version may be gone.
    // A folder that could not be read has been reported already: "does not exist" would be wrong.
    if (!any && !this.versions && prefix !== "" && !prefix.endsWith("/") && ctx.unreadable() === unreadable) {
      throw mcError(`Unable to list \`${displayUrl(loc, loc.key)}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
    }
  }

  private print(ctx: McContext, e: Entry, key: string, url: string, ordinal: number): void {
    if (ctx.output.json) {
      const obj: Record<string, unknown> = {
        status: "success",
        type: e.isDir ? "folder" : "file",
        lastModified: rfc3339Local(e.lastModified),
        size: e.size,
        key,
        etag: e.etag,
        url,
      };
      if (e.versionId !== undefined) obj["versionId"] = e.versionId;
      obj["versionOrdinal"] = ordinal;
      if (e.isDeleteMarker) obj["isDeleteMarker"] = true;
      if (e.storageClass && !e.isDir) obj["storageClass"] = e.storageClass;
      ctx.output.printJson(obj);
      return;
    }
    const size = iBytesCompact(e.size).padStart(7);
    const sc = e.storageClass && !e.isDir ? ` ${e.storageClass}` : "";
    const version = this.versions && !e.isDir ? ` ${e.versionId ?? "null"} v${ordinal} ${e.isDeleteMarker ? "DEL" : "PUT"}` : "";
    ctx.output.line(`[${formatDate(e.lastModified)}] ${size}${sc}${version} ${key}`);
  }
}
