import { isAppError } from "@mc/shared/errors";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import type { WatchEvent, WatchOptions } from "../storage/watch-event.js";
import { watchLocal } from "../storage/local/watch-local.js";
import { watchRemote } from "../storage/s3/watch-remote.js";
import { iBytes } from "../util/humanize.js";

export class WatchCommand extends BaseCommand {
  static override paths = [["watch"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "listen for object notification events",
    examples: [
      ["Watch a local folder for changes.", "$0 watch ~/photos"],
      ["Watch a bucket for new .jpg objects.", "$0 watch --events put --suffix .jpg myalias/mybucket"],
      ["Watch removals under a prefix.", "$0 watch --events delete --prefix \"logs/\" myalias/mybucket"],
      ["Watch a bucket and everything under it, as JSON lines.", "$0 watch --recursive --json myalias/mybucket"],
    ],
  });
  events = Option.String("--events", "put,delete,get", { description: "filter specific types of events (put, delete, get)" });
  prefix = Option.String("--prefix", "", { description: "filter events for a prefix" });
  suffix = Option.String("--suffix", "", { description: "filter events for a suffix" });
  recursive = Option.Boolean("--recursive", false, { description: "recursively watch (local paths are always watched recursively)" });
  args = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("watch needs one TARGET.");
    const names = this.events.split(",").map((s) => s.trim().toLowerCase()).filter((s) => s !== "");
    const bad = names.find((n) => !["put", "delete", "get"].includes(n));
    if (names.length === 0 || bad !== undefined) throw usageError(`invalid --events \`${this.events}\`; use put, delete, get.`);
    const options: WatchOptions = { events: new Set(names), prefix: this.prefix, suffix: this.suffix, signal: ctx.signal };
    const print = (e: WatchEvent): void => {
      if (ctx.output.json) {
        ctx.output.printJson({ status: "success", events: { time: e.time, size: e.size, path: e.path, type: e.type }, source: e.source });
        return;
      }
      const size = e.type.startsWith("s3:ObjectCreated") ? iBytes(e.size) : "";
      ctx.output.line(`[${e.time}] ${size.padStart(6)} ${e.type} ${e.path}`);
    };
    const arg = this.args[0] ?? "";
    const loc = ctx.locate(arg);
    if (loc.kind === "local") {
      await watchLocal(loc.key.replace(/\/$/, "") || "/", options, print);
      return;
    }
    if (loc.bucket === "") throw usageError("watch needs a bucket (alias/bucket[/prefix]) or a local path.");
    // A key below the bucket narrows the prefix, as upstream does.
    const prefix = loc.key + this.prefix;
    await watchRemote(loc.client, loc.alias.name, loc.bucket, { ...options, prefix }, print).catch((err: unknown) => {
      if (isAppError(err)) throw err;
      throw mcError(`Unable to watch \`${arg}\`.`, err);
    });
  }
}
