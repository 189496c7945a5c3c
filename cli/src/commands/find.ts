import { spawn } from "node:child_process";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { displayUrl, requireStore, type Location } from "../storage/location.js";
import type { Entry } from "../storage/types.js";
import { dirPrefix, passesAge } from "../transfer/plan.js";
import { parseSize, rfc3339Local } from "../util/humanize.js";
import { flatMatch, shellMatch } from "../util/wildcard.js";
import { readTags } from "../storage/s3/versions/versions-tags.js";
import { s3Target } from "../storage/s3/versions-target.js";
import { matchesAll, metadataOf, parseKeyPatterns, tagMap } from "../helpers/find-attrs.js";
import { ageFilter } from "../helpers/flags.js";
import { watchFound } from "../helpers/find-watch.js";

function runChild(argv: readonly string[]): Promise<number> {
  const [cmd = "", ...args] = argv;
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.once("error", () => resolve(127));
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

export class FindCommand extends BaseCommand {
  static override paths = [["find"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "search for objects",
    examples: [
      ["Find objects whose name matches a pattern.", "$0 find myalias/mybucket --name \"*.jpg\""],
      ["Find in a local folder.", "$0 find ./projects --name \"*.go\""],
      ["Find objects whose path matches a pattern (the pattern spans folders).", "$0 find myalias/mybucket --path \"*/2025/*/invoice-*.pdf\""],
      ["Find with a regular expression.", "$0 find myalias/mybucket --regex \"^logs/app-[0-9]{8}\\\\.log$\""],
      ["Find objects older than 30 days, but not under tmp/.", "$0 find myalias/mybucket --older-than 30d --ignore \"tmp/*\""],
      ["Find objects written in the last day.", "$0 find myalias/mybucket --newer-than 1d"],
      ["Find objects larger than 1 GiB.", "$0 find myalias/mybucket --larger 1GiB"],
      ["Find objects smaller than 10 KB.", "$0 find myalias/mybucket --smaller 10KB"],
      ["Search only two levels deep.", "$0 find myalias/mybucket --maxdepth 2 --name \"*.csv\""],
      ["Print only the base names.", "$0 find myalias/mybucket --name \"*.txt\" --print {base}"],
      ["Print a 7-day download link for each PDF.", "$0 find myalias/mybucket --name \"*.pdf\" --print {url}"],
      ["Copy each found object to a local folder.", "$0 find myalias/mybucket --name \"*.mp3\" --exec \"$0 cp {} ./music/\""],
      ["Find objects with a metadata value matching a pattern.", "$0 find myalias/mybucket --metadata \"Content-Type=^image/\""],
      ["Find objects with a tag.", "$0 find myalias/mybucket --tags \"project=apollo\""],
      ["Find among all versions of the objects.", "$0 find myalias/mybucket --versions --name \"*.conf\""],
    ],
  });
  name = Option.String("--name", { description: "find object names matching wildcard pattern" });
  pathPattern = Option.String("--path", { description: "match directory names matching wildcard pattern" });
  regex = Option.String("--regex", { description: "match directory and object name with RE2 regex pattern" });
  ignore = Option.String("--ignore", { description: "exclude objects matching the wildcard pattern" });
  olderThan = Option.String("--older-than", { description: "match objects older than value in duration string (e.g. 7d10h31s)" });
  newerThan = Option.String("--newer-than", { description: "match objects newer than value in duration string (e.g. 7d10h31s)" });
  larger = Option.String("--larger", { description: "match objects larger than specified size in units (see --help)" });
  smaller = Option.String("--smaller", { description: "match objects smaller than specified size in units (see --help)" });
  maxdepth = Option.String("--maxdepth", { description: "limit directory navigation to specified depth" });
  exec = Option.String("--exec", { description: "spawn an external process for each matching object (see FORMAT)" });
  print = Option.String("--print", { description: "print in custom format to STDOUT (see FORMAT)" });
  versions = Option.Boolean("--versions", false, { description: "include all object versions (delete markers are skipped)" });
  metadata = Option.Array("--metadata", [], { description: "match objects whose metadata KEY matches a regex (KEY=REGEX, repeatable)" });
  tags = Option.Array("--tags", [], { description: "match objects whose tag KEY matches a regex (KEY=REGEX, repeatable)" });
  watch = Option.Boolean("--watch", false, { description: "monitor a specified path for newly created object(s)" });
  targets = Option.Rest({ name: "PATH" });

  async run(ctx: McContext): Promise<number> {
    if (this.targets.length !== 1) throw usageError("find needs one PATH.");
    const loc = ctx.locate(this.targets[0] ?? "");
    const store = requireStore(loc);
    const age = ageFilter(this.olderThan, this.newerThan);
    const size = (flag: string, v: string | undefined): number | undefined => {
      if (v === undefined) return undefined;
      const n = parseSize(v);
      if (n === undefined) throw usageError(`invalid size \`${v}\` for ${flag}.`);
      return n;
    };
    const larger = size("--larger", this.larger);
    const smaller = size("--smaller", this.smaller);
    const maxdepth = this.maxdepth === undefined ? Infinity : Number(this.maxdepth);
    let regex: RegExp | undefined;
    try {
      regex = this.regex === undefined ? undefined : new RegExp(this.regex);
    } catch (err) {
      throw mcError(`Invalid --regex \`${this.regex ?? ""}\`.`, err, "invalid_argument");
    }
    const metadata = parseKeyPatterns("--metadata", this.metadata);
    const tags = parseKeyPatterns("--tags", this.tags);
    if (tags.length > 0 && loc.kind !== "s3") throw usageError("--tags needs an S3 target: local files have no tags.");
    const bucket = tags.length > 0 ? s3Target(ctx, this.targets[0], "find --tags") : undefined;
    const prefix = dirPrefix(loc.key);
    let status = 0;
    let seen = false;
    const consider = async (e: Entry): Promise<void> => {
      const rel = e.key.slice(prefix.length);
      const parts = rel.split("/");
      if (parts.length > maxdepth) return;
      const base = parts.at(-1) ?? "";
      if (this.name !== undefined && !shellMatch(this.name, base) && !parts.includes(this.name)) return;
      if (this.pathPattern !== undefined && !flatMatch(this.pathPattern, rel)) return;
      if (regex && !regex.test(rel)) return;
      if (this.ignore !== undefined && flatMatch(this.ignore, rel)) return;
      if (!passesAge(e, age)) return;
      if (larger !== undefined && !(e.size > larger)) return;
      if (smaller !== undefined && !(e.size < smaller)) return;
      // Metadata and tags cost a request per object: asked only when the cheap filters passed.
      if (metadata.length > 0) {
        const info = await store.stat(e.key, e.versionId);
        if (!info || !matchesAll(metadata, metadataOf(info))) return;
      }
      if (bucket && !matchesAll(tags, tagMap(await readTags({ ...bucket, key: e.key }, e.versionId)))) return;
      const url = displayUrl(loc, e.key);
      if (this.exec !== undefined) {
        // Split into words first, then fill in: a name with a space stays one argument (no shell runs it).
        const argv = await Promise.all(this.exec.trim().split(/\s+/).map((word) => this.format(word, loc, e, url)));
        const code = await runChild(argv);
        if (code !== 0) status = code;
        return;
      }
      const printed = this.print === undefined ? url : await this.format(this.print, loc, e, url);
      ctx.output.result({ status: "success", type: "file", lastModified: rfc3339Local(e.lastModified), size: e.size, key: printed, etag: e.etag, ...(this.versions ? { versionId: e.versionId ?? "" } : {}) }, printed);
    };
    for await (const e of store.list(prefix, { recursive: true, versions: this.versions })) {
      if (e.isDir || e.isDeleteMarker) continue;
      seen = true;
      await consider(e);
    }
    // Objects created from now on, until Ctrl-C (upstream watches whether or not the listing found any).
    if (this.watch) {
      await watchFound(ctx, loc, prefix, consider);
      return status;
    }
    if (!seen && loc.key !== "" && !(await store.isDir(loc.key))) {
      throw mcError(`Unable to find \`${loc.arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
    }
    return status;
  }

  /** Placeholders {} {base} {dir} {size} {time} {url} {version}, and quoted forms {""} {"base"} … */
  private async format(template: string, loc: Location, e: Entry, url: string): Promise<string> {
    const values: Record<string, () => Promise<string> | string> = {
      "": () => url,
      base: () => url.slice(url.lastIndexOf("/") + 1),
      dir: () => url.slice(0, url.lastIndexOf("/")),
      size: () => String(e.size),
      time: () => rfc3339Local(e.lastModified),
      version: () => e.versionId ?? "",
      url: () => (loc.kind === "s3" ? loc.client.presignedGetObject(loc.bucket, e.key, 7 * 24 * 3600) : url),
    };
    let out = "";
    let last = 0;
    for (const m of template.matchAll(/\{("?)(|base|dir|size|time|url|version)\1\}/g)) {
      const value = await (values[m[2] ?? ""] ?? (() => ""))();
      out += template.slice(last, m.index) + (m[1] ? `"${value}"` : value);
      last = (m.index ?? 0) + m[0].length;
    }
    return out + template.slice(last);
  }
}
