import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { withRewind } from "../runtime/rewind-context.js";
import { requireStore, type Location } from "../storage/location.js";
import { dirPrefix } from "../transfer/plan.js";
import { iBytesCompact } from "../util/humanize.js";

interface Usage {
  size: number;
  objects: number;
}

export class DuCommand extends BaseCommand {
  static override paths = [["du"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "summarize disk usage recursively",
    examples: [
      ["Show the size of a bucket.", "$0 du myalias/mybucket"],
      ["Show the size of each folder one level down.", "$0 du --depth 2 myalias/mybucket"],
      ["Show the size of every folder, at every depth.", "$0 du --recursive myalias/mybucket"],
      ["Include all versions in the total.", "$0 du --versions myalias/mybucket"],
      ["Show the size a folder had 30 days ago.", "$0 du --rewind 30d myalias/mybucket/data/"],
    ],
  });
  depth = Option.String("-d,--depth", "0", { description: "print the total for a folder only if it is N or fewer levels below" });
  recursive = Option.Boolean("-r,--recursive", false, { description: "recursively print the total for a folder" });
  versions = Option.Boolean("--versions", false, { description: "include all object versions" });
  rewind = Option.String("--rewind", { description: "show objects as they were at a time: a duration back (7d, 1h30m) or a time (2026.01.02T15:04 UTC)" });
  targets = Option.Rest({ name: "TARGET [TARGET...]" });

  async run(ctx: McContext): Promise<number> {
    ctx = withRewind(ctx, this.rewind);
    if (this.targets.length === 0) throw usageError("du needs at least one TARGET.");
    const depth = this.recursive ? Infinity : Number(this.depth);
    if (!Number.isInteger(depth) && depth !== Infinity) throw usageError(`invalid --depth \`${this.depth}\`.`);
    let failed = 0;
    for (const arg of this.targets) {
      try {
        await this.duOne(ctx, ctx.locate(arg), depth);
      } catch (err) {
        ctx.output.error(err, this.targets.length === 1 ? "fatal" : "error");
        failed++;
      }
    }
    return failed ? 1 : 0;
  }

  private async duOne(ctx: McContext, loc: Location, depth: number): Promise<void> {
    const store = requireStore(loc);
    const exact = loc.key !== "" && !loc.key.endsWith("/") ? await store.stat(loc.key) : undefined;
    const prefix = exact ? loc.key : dirPrefix(loc.key);
    const shownRoot = loc.kind === "s3" ? `${loc.bucket}/${loc.key}`.replace(/\/$/, "") : loc.key.replace(/\/$/, "");
    const folders = new Map<string, Usage>();
    const total: Usage = { size: 0, objects: 0 };
    let found = false;
    for await (const e of store.list(prefix, { recursive: true, versions: this.versions })) {
      if (e.isDir || (exact && e.key !== loc.key)) continue;
      found = true;
      total.size += e.size;
      total.objects++;
      const parts = e.key.slice(prefix.length).split("/").slice(0, -1);
      for (let level = 1; level <= Math.min(depth, parts.length); level++) {
        const folder = parts.slice(0, level).join("/");
        const u = folders.get(folder) ?? { size: 0, objects: 0 };
        u.size += e.size;
        u.objects++;
        folders.set(folder, u);
      }
    }
    if (!found && !(await store.isDir(loc.key)) && loc.key !== "") {
      throw mcError(`Unable to get disk usage for \`${loc.arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key: loc.key }), "not_found");
    }
    // Deepest folders first, the target's total last (like du(1)).
    const keys = [...folders.keys()].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? -1 : 1));
    for (const key of keys) this.print(ctx, `${shownRoot}/${key}`, folders.get(key) ?? total);
    this.print(ctx, shownRoot, total);
  }

  private print(ctx: McContext, prefix: string, u: Usage): void {
    const noun = this.versions ? "version" : "object";
    ctx.output.result(
      { prefix, size: u.size, objects: u.objects, status: "success", isVersions: this.versions },
      `${iBytesCompact(u.size)}\t${u.objects} ${noun}${u.objects === 1 ? "" : "s"}\t${prefix}`,
    );
  }
}
