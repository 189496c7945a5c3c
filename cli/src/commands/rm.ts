import { realpath } from "node:fs/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { explainedError, mcError, usageError } from "../core/errors.js";
import { withRewind } from "../runtime/rewind-context.js";
import { removeBypassingGovernance } from "../storage/s3/versions/versions-bypass.js";
import { isLockBlocked } from "../storage/s3/versions/versions-errors.js";
import { deleteBlockedByLock } from "../storage/s3/versions/versions-lock-state.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import { statOrListed } from "../storage/stat-or-listed.js";
import { s3Call } from "../storage/s3/s3-request.js";
import { dirPrefix, passesAge, type AgeFilter } from "../transfer/plan.js";
import { ageFilter } from "../helpers/flags.js";
import { createDeleteQueue } from "../helpers/delete-queue.js";
import { readStdinText } from "../core/stdin.js";

/** `rm --stdin`: one TARGET per line; blank lines are skipped. */
async function stdinLines(): Promise<string[]> {
  const text = await readStdinText();
  return text.split(/\r?\n/).filter((line) => line.trim() !== "");
}

export class RmCommand extends BaseCommand {
  static override paths = [["rm"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "remove object(s)",
    examples: [
      ["Remove an object.", "$0 rm myalias/mybucket/old-report.pdf"],
      ["Remove several objects.", "$0 rm myalias/mybucket/a.txt myalias/mybucket/b.txt myalias/mybucket/c.txt"],
      ["Remove a folder and everything under it.", "$0 rm --recursive --force myalias/mybucket/tmp/"],
      ["Show what would be removed, without removing anything.", "$0 rm --recursive --force --dry-run myalias/mybucket/tmp/"],
      ["Remove objects older than 90 days.", "$0 rm --recursive --force --older-than 90d myalias/logs/"],
      ["Remove objects uploaded in the last hour.", "$0 rm --recursive --force --newer-than 1h myalias/uploads/"],
      ["Remove one version of an object.", "$0 rm --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/app.conf"],
      ["Remove every version of every object under a prefix.", "$0 rm --recursive --versions --force myalias/mybucket/config/"],
      ["Remove only the old (non-current) versions, keeping the latest of each object.", "$0 rm --recursive --versions --non-current --force myalias/mybucket/"],
      ["Remove the versions that were current 7 days ago.", "$0 rm --recursive --versions --rewind 7d --force myalias/mybucket/config/"],
      ["Remove unfinished multipart uploads.", "$0 rm --incomplete --recursive --force myalias/mybucket/"],
      ["Remove objects named on standard input, one per line.", "$0 ls --recursive --json myalias/mybucket/tmp/ | jq -r '\"myalias/mybucket/tmp/\" + .key' | $0 rm --stdin --force"],
      ["Remove an object under governance retention.", "$0 rm --bypass --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/locked-bucket/invoice.pdf"],
      ["Empty every bucket of an alias (asks for both flags on purpose).", "$0 rm --recursive --force --dangerous myalias"],
    ],
  });
  recursive = Option.Boolean("-r,--recursive", false, { description: "remove recursively" });
  force = Option.Boolean("--force", false, { description: "allow a recursive remove operation" });
  dangerous = Option.Boolean("--dangerous", false, { description: "allow site-wide removal of objects" });
  versions = Option.Boolean("--versions", false, { description: "remove object(s) and all its versions" });
  nonCurrent = Option.Boolean("--non-current", false, { description: "remove object(s) versions that are non-current" });
  stdin = Option.Boolean("--stdin", false, { description: "read object names from STDIN, one per line" });
  versionId = Option.String("--version-id,--vid", { description: "delete a specific version of an object" });
  rewind = Option.String("--rewind", { description: "remove the version(s) that existed at a time: a duration back (7d) or a time (2026.01.02T15:04 UTC)" });
  incomplete = Option.Boolean("-I,--incomplete", false, { description: "remove incomplete uploads" });
  bypass = Option.Boolean("--bypass", false, { description: "bypass governance retention" });
  dryRun = Option.Boolean("--dry-run", false, { description: "perform a fake remove operation" });
  olderThan = Option.String("--older-than", { description: "remove objects older than value in duration string (e.g. 7d10h31s)" });
  newerThan = Option.String("--newer-than", { description: "remove objects newer than value in duration string (e.g. 7d10h31s)" });
  purge = Option.Boolean("--purge", false, { description: "attempt a prefix purge, requires confirmation please use with caution - only works with '--force' (MinIO only)", hidden: true });
  targets = Option.Rest({ name: "TARGET [TARGET...]" });

  async run(ctx: McContext): Promise<number> {
    if (this.nonCurrent && !this.versions) throw usageError("--non-current needs --versions.");
    if (this.stdin) this.targets = [...this.targets, ...(await stdinLines())];
    if (this.targets.length === 0) throw usageError(this.stdin ? "rm --stdin read no TARGET from standard input." : "rm needs at least one TARGET.");
    if ((this.recursive || this.versions || this.stdin) && !this.force && !this.dryRun) {
      throw usageError("removal requires --force flag. This operation is *IRREVERSIBLE*. Please review carefully before performing this *DANGEROUS* operation.");
    }
    if (this.rewind !== undefined && this.versionId !== undefined) throw usageError("--rewind and --version-id cannot be used together.");
    if (this.purge) return this.purgeTargets(ctx);
    ctx = withRewind(ctx, this.rewind);
    const filter = ageFilter(this.olderThan, this.newerThan);
    let failed = 0;
    for (const arg of this.targets) {
      try {
        const loc = ctx.locate(arg);
        if (loc.kind === "s3" && loc.key === "" && !this.dangerous && this.recursive && loc.bucket === "") throw usageError("removing all buckets needs --dangerous.");
        if (this.incomplete) failed += await this.removeIncomplete(ctx, loc);
        else failed += await this.removeTarget(ctx, loc, filter, arg);
      } catch (err) {
        ctx.output.error(err, this.targets.length === 1 ? "fatal" : "error");
        failed++;
      }
    }
    return failed ? 1 : 0;
  }

  /**
   * `--purge --force` (upstream cmd/rm-main.go): one DELETE of the object or
   * prefix with MinIO's `x-minio-force-delete: true`, no HEAD first; the
   * server removes everything under it.
   */
  private async purgeTargets(ctx: McContext): Promise<number> {
    if (!this.force) throw mcError("You cannot specify --purge without --force.", undefined, "invalid_argument");
    if (this.recursive) throw mcError("You cannot specify --purge with --recursive.", undefined, "invalid_argument");
    if (this.versions || this.versionId !== undefined || this.olderThan !== undefined || this.newerThan !== undefined || this.rewind !== undefined || this.incomplete || this.dryRun) {
      throw mcError("You cannot specify --purge flag with any flag(s) other than --force.", undefined, "invalid_argument");
    }
    let failed = 0;
    for (const arg of this.targets) {
      try {
        const loc = ctx.locate(arg);
        if (loc.kind !== "s3" || loc.bucket === "" || loc.key === "") throw usageError(`\`${arg}\`: --purge needs an object or prefix of a MinIO bucket.`);
        await s3Call(loc.client, { method: "DELETE", bucket: loc.bucket, key: loc.key, headers: { "x-minio-force-delete": "true" }, expect: [200, 204] }).catch((err: unknown) => {
          throw mcError(`Failed to remove \`${arg}\`.`, err);
        });
        this.report(ctx, displayUrl(loc, loc.key), false, "");
      } catch (err) {
        ctx.output.error(err, this.targets.length === 1 ? "fatal" : "error");
        failed++;
      }
    }
    return failed ? 1 : 0;
  }

  private report(ctx: McContext, url: string, deleteMarker: boolean, versionId: string): void {
    const obj = { status: "success", key: url, deleteMarker, versionID: versionId, modTime: null, dryRun: this.dryRun };
    let text = this.dryRun ? `DRYRUN: Removing \`${url}\`.` : `Removed \`${url}\`.`;
    if (deleteMarker && !this.dryRun) text = `Created delete marker \`${url}\` (versionId=${versionId})`;
    else if (versionId && !this.dryRun) text = `Removed \`${url}\` (versionId=${versionId}).`;
    ctx.output.result(obj, text);
  }

  private async removeIncomplete(ctx: McContext, loc: Location): Promise<number> {
    if (loc.kind !== "s3" || loc.bucket === "") throw usageError("--incomplete needs an S3 bucket or prefix.");
    const uploads = loc.client.listIncompleteUploads(loc.bucket, loc.key, this.recursive);
    for await (const up of uploads as AsyncIterable<{ key: string; uploadId: string }>) {
      if (!this.dryRun) await loc.client.abortMultipartUpload(loc.bucket, up.key, up.uploadId);
      this.report(ctx, displayUrl(loc, up.key), false, "");
    }
    return 0;
  }

  private async removeTarget(ctx: McContext, loc: Location, filter: AgeFilter, arg: string): Promise<number> {
    const store = requireStore(loc);
    const removeOne = (key: string, versionId?: string): Promise<{ deleteMarker: boolean; versionId: string }> =>
      this.bypass && loc.kind === "s3" ? removeBypassingGovernance(loc.client, loc.bucket, key, versionId) : store.remove(key, versionId);
    // RGW says only "AccessDenied" for a version protected by retention or legal hold: name the lock.
    const explain = async (key: string, versionId: string | undefined, err: unknown): Promise<unknown> => {
      const locked = loc.kind === "s3" ? await deleteBlockedByLock(loc.client, loc.bucket, key, versionId, err) : isLockBlocked(err);
      if (!locked) return err;
      return explainedError(`Unable to remove \`${displayUrl(loc, key)}\`${versionId ? ` (versionId=${versionId})` : ""}: object is WORM protected by a retention period or legal hold.`, err, "permission_denied");
    };
    const one = async (key: string, versionId?: string): Promise<void> => {
      const url = displayUrl(loc, key);
      if (this.dryRun) return this.report(ctx, url, false, versionId ?? "");
      const res = await removeOne(key, versionId).catch(async (err: unknown) => {
        throw await explain(key, versionId, err);
      });
      this.report(ctx, url, res.deleteMarker, versionId ?? res.versionId);
    };
    if (!this.recursive) {
      if (this.versionId) return one(loc.key, this.versionId).then(() => 0);
      // A delete needs no key: a HEAD refused for want of one must not stop it.
      const info = await statOrListed(store, loc.key);
      if (!info) {
        const cause = (await store.isDir(loc.key)) ? new Error("Use --recursive --force to remove a folder") : Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key: loc.key });
        throw mcError(`Failed to remove \`${arg}\`.`, cause, "not_found");
      }
      if (this.versions) {
        for await (const e of store.list(loc.key, { recursive: true, versions: true })) if (e.key === loc.key && !(this.nonCurrent && e.isLatest)) await one(e.key, e.versionId);
        return 0;
      }
      // Rewound, the object is the version that existed then: remove that one, never today's.
      if (passesAge(info, filter)) await one(loc.key, this.rewind !== undefined ? (info.versionId ?? "null") : undefined);
      return 0;
    }
    let failed = 0;
    const prefix = loc.kind === "local" ? dirPrefix(loc.key) : loc.key;
    // As rm(1)'s --preserve-root: a stray space (`mc rm -r --force / tmp/x`) must not empty the machine.
    if (loc.kind === "local" && (await realpath(prefix).catch(() => prefix)) === "/") throw usageError(`removing the root folder \`${arg}\` is not allowed.`);
    const dirs = new Set<string>();
    // Objects go in DeleteObjects batches of up to 1,000; outcomes print in listing order, as one by one.
    const queue =
      loc.kind === "s3" && !this.dryRun
        ? createDeleteQueue(loc.client, loc.bucket, {
            bypassGovernance: this.bypass,
            single: (t) => removeOne(t.key, t.versionId),
            settle: async (t, outcome) => {
              if (outcome.ok) return this.report(ctx, displayUrl(loc, t.key), outcome.deleteMarker, t.versionId ?? outcome.versionId);
              ctx.output.error(mcError(`Failed to remove \`${displayUrl(loc, t.key)}\`.`, await explain(t.key, t.versionId, outcome.error)));
              failed++;
            },
          })
        : undefined;
    for await (const e of store.list(prefix, { recursive: true, versions: this.versions })) {
      if (e.isDir || !passesAge(e, filter) || (this.nonCurrent && e.isLatest)) continue;
      const versionId = this.versions || this.rewind !== undefined ? e.versionId : undefined;
      if (queue) {
        await queue.add(versionId === undefined ? { key: e.key } : { key: e.key, versionId });
        continue;
      }
      try {
        await one(e.key, versionId);
        for (let parent = e.key.slice(0, e.key.lastIndexOf("/") + 1); loc.kind === "local" && parent.length > prefix.length; parent = parent.slice(0, parent.slice(0, -1).lastIndexOf("/") + 1)) {
          dirs.add(parent);
        }
      } catch (err) {
        ctx.output.error(mcError(`Failed to remove \`${displayUrl(loc, e.key)}\`.`, err));
        failed++;
      }
    }
    await queue?.finish();
    // Local folders emptied by the removal go too, deepest first.
    if (loc.kind === "local" && !this.dryRun && filter.olderThan === undefined && filter.newerThan === undefined) {
      for (const dir of [...dirs].sort((a, b) => b.length - a.length)) await store.remove(dir).catch(() => undefined);
      await store.remove(prefix).catch(() => undefined);
    }
    return failed;
  }
}
