import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { withRewind } from "../runtime/rewind-context.js";
import { displayUrl, requireStore } from "../storage/location.js";
import { dirPrefix } from "../transfer/plan.js";
import { rfc3339Local } from "../util/humanize.js";

interface Node {
  readonly children: Map<string, Node>;
  isFile: boolean;
}

export class TreeCommand extends BaseCommand {
  static override paths = [["tree"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "list buckets and objects in a tree format",
    examples: [
      ["Show the folders of a bucket as a tree.", "$0 tree myalias/mybucket"],
      ["Show the objects too.", "$0 tree --files myalias/mybucket/photos/"],
      ["Show only two levels.", "$0 tree --depth 2 myalias/mybucket"],
      ["Show the tree as it was a week ago.", "$0 tree --files --rewind 7d myalias/mybucket/config/"],
    ],
  });
  files = Option.Boolean("-f,--files", false, { description: "include files in tree" });
  depth = Option.String("-d,--depth", { description: "sets the depth threshold" });
  rewind = Option.String("--rewind", { description: "show objects as they were at a time: a duration back (7d, 1h30m) or a time (2026.01.02T15:04 UTC)" });
  targets = Option.Rest({ name: "TARGET" });

  async run(ctx: McContext): Promise<void> {
    ctx = withRewind(ctx, this.rewind);
    if (this.targets.length !== 1) throw usageError("tree needs one TARGET.");
    const arg = this.targets[0] ?? "";
    const loc = ctx.locate(arg);
    const store = requireStore(loc);
    const prefix = dirPrefix(loc.key);
    const maxDepth = this.depth === undefined ? Infinity : Number(this.depth);
    if (Number.isNaN(maxDepth)) throw usageError(`invalid --depth \`${this.depth ?? ""}\`.`);
    const root: Node = { children: new Map(), isFile: false };
    let any = false;
    for await (const e of store.list(prefix, { recursive: true })) {
      if (e.isDir) continue;
      any = true;
      const rel = e.key.slice(prefix.length);
      if (ctx.output.json) {
        // tree --json = ls -r --json
        ctx.output.printJson({ status: "success", type: "file", lastModified: rfc3339Local(e.lastModified), size: e.size, key: rel, etag: e.etag, url: displayUrl(loc, prefix), versionOrdinal: 1, storageClass: e.storageClass ?? "STANDARD" });
        continue;
      }
      const parts = rel.split("/");
      let node = root;
      parts.forEach((part, i) => {
        const isFile = i === parts.length - 1;
        if (isFile && !this.files) return;
        let child = node.children.get(part);
        if (!child) {
          child = { children: new Map(), isFile };
          node.children.set(part, child);
        }
        node = child;
      });
    }
    if (!any && !(await store.isDir(loc.key)) && loc.key !== "") {
      throw mcError(`Unable to tree \`${arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
    }
    if (ctx.output.json) return;
    const lines = [arg];
    const walk = (node: Node, indent: string, level: number): void => {
      if (level > maxDepth) return;
      const names = [...node.children.keys()].sort();
      names.forEach((name, i) => {
        const last = i === names.length - 1;
        lines.push(`${indent}${last ? "└─ " : "├─ "}${name}`);
        const child = node.children.get(name);
        if (child) walk(child, `${indent}${last ? "   " : "│  "}`, level + 1);
      });
    };
    walk(root, "", 1);
    ctx.output.line(lines.join("\n"));
  }
}
