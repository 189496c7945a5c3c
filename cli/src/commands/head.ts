import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { requireStore } from "../storage/location.js";
import { explainReadError } from "../storage/s3/sse/sse-errors.js";
import { withEncryption } from "../runtime/sse-context.js";
import { withRewind } from "../runtime/rewind-context.js";
import { withZip } from "../runtime/zip-context.js";

export class HeadCommand extends BaseCommand {
  static override paths = [["head"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "display first 'n' lines of an object",
    examples: [
      ["Print the first 10 lines of an object.", "$0 head myalias/mybucket/app.log"],
      ["Print the first 50 lines.", "$0 head --lines 50 myalias/mybucket/data.csv"],
      ["Print the first lines of the version current a day ago.", "$0 head --rewind 1d myalias/mybucket/app.log"],
      ["Print the first lines of one version.", "$0 head --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/app.log"],
      ["Print the first lines of an object encrypted with your own key.", "$0 head --enc-c \"myalias/secure/=MzJieXRlc2xvbmdzZWNyZWFiY2RlZmcJZ2l2ZW5uMjE=\" myalias/secure/payroll.csv"],
    ],
  });
  lines = Option.String("-n,--lines", "10", { description: "print the first 'n' lines" });
  versionId = Option.String("--version-id,--vid", { description: "display a specific version of an object" });
  rewind = Option.String("--rewind", { description: "show objects as they were at a time: a duration back (7d, 1h30m) or a time (2026.01.02T15:04 UTC)" });
  zip = Option.Boolean("--zip", false, { description: "extract from remote zip file (MinIO server source only)" });
  encC = Option.Array("--enc-c", { description: "decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  targets = Option.Rest({ name: "SOURCE [SOURCE...]" });

  async run(ctx: McContext): Promise<void> {
    if (this.targets.length === 0) throw usageError("head needs at least one TARGET.");
    if (this.rewind !== undefined && this.versionId !== undefined) throw usageError("--rewind and --version-id cannot be used together.");
    if (this.zip && (this.rewind !== undefined || this.versionId !== undefined)) throw usageError("--zip cannot be used with --rewind or --version-id.");
    ctx = withZip(withRewind(withEncryption(ctx, this.encC, undefined), this.rewind), this.zip);
    const wanted = Number(this.lines);
    if (!Number.isInteger(wanted) || wanted < 0) throw usageError(`invalid number of lines \`${this.lines}\`.`);
    for (const arg of this.targets) {
      const loc = ctx.locate(arg);
      const store = requireStore(loc);
      const info = await store.stat(loc.key, this.versionId).catch((err: unknown) => {
        throw explainReadError(arg, err);
      });
      if (!info) {
        throw mcError(`Unable to read from \`${arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key: loc.key }), "not_found");
      }
      const source = await store.read(loc.key, { anyFile: true, ...(this.versionId ? { versionId: this.versionId } : {}) });
      let seen = 0;
      for await (const data of source) {
        const chunk = data as Buffer;
        let end = chunk.length;
        for (let i = 0; i < chunk.length && seen < wanted; i++) {
          if (chunk[i] === 0x0a && ++seen === wanted) end = i + 1;
        }
        if (wanted === 0) end = 0;
        ctx.output.stdout.write(chunk.subarray(0, end));
        if (seen >= wanted) break;
      }
      source.destroy();
    }
  }
}
