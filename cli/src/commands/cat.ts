import { pipeline } from "node:stream/promises";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { requireStore } from "../storage/location.js";
import { explainReadError } from "../storage/s3/sse/sse-errors.js";
import { withEncryption } from "../runtime/sse-context.js";
import { withRewind } from "../runtime/rewind-context.js";
import { withZip } from "../runtime/zip-context.js";

export class CatCommand extends BaseCommand {
  static override paths = [["cat"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "display object contents",
    examples: [
      ["Print an object.", "$0 cat myalias/mybucket/notes.txt"],
      ["Print several objects one after another.", "$0 cat myalias/mybucket/part-1.csv myalias/mybucket/part-2.csv > all.csv"],
      ["Print a local file.", "$0 cat ./README.md"],
      ["Print an object as it was 2 days ago.", "$0 cat --rewind 2d myalias/mybucket/config.yaml"],
      ["Print one version of an object.", "$0 cat --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/config.yaml"],
      ["Print from byte 1024 on.", "$0 cat --offset 1024 myalias/mybucket/data.bin | xxd | head"],
      ["Print the last 200 bytes.", "$0 cat --tail 200 myalias/mybucket/app.log"],
      ["Print one part of an object uploaded in parts.", "$0 cat --part-number 2 myalias/mybucket/big.iso > part-2.bin"],
      ["Print an object encrypted with your own key (SSE-C).", "$0 cat --enc-c \"myalias/secure/=MzJieXRlc2xvbmdzZWNyZWFiY2RlZmcJZ2l2ZW5uMjE=\" myalias/secure/payroll.csv"],
    ],
  });
  versionId = Option.String("--version-id,--vid", { description: "display a specific version of an object" });
  rewind = Option.String("--rewind", { description: "show objects as they were at a time: a duration back (7d, 1h30m) or a time (2026.01.02T15:04 UTC)" });
  offset = Option.String("--offset", { description: "start offset" });
  tail = Option.String("--tail", { description: "tail number of bytes at ending of file" });
  partNumber = Option.String("--part-number", { description: "download only a specific part of a multipart object" });
  zip = Option.Boolean("--zip", false, { description: "extract from remote zip file (MinIO server source only)" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  targets = Option.Rest({ name: "SOURCE [SOURCE...]" });

  async run(ctx: McContext): Promise<void> {
    if (this.rewind !== undefined && this.versionId !== undefined) throw usageError("--rewind and --version-id cannot be used together.");
    if (this.zip && (this.rewind !== undefined || this.versionId !== undefined)) throw usageError("--zip cannot be used with --rewind or --version-id.");
    ctx = withZip(withRewind(withEncryption(ctx, this.encC, this.encKms), this.rewind), this.zip);
    if (this.targets.length === 0) throw usageError("cat needs at least one TARGET.");
    const part = this.partNumber === undefined ? undefined : Number(this.partNumber);
    if (part !== undefined && (!/^\d+$/.test(this.partNumber ?? "") || part < 1 || part > 10000)) throw usageError(`invalid --part-number \`${this.partNumber ?? ""}\`; parts are numbered 1 to 10000.`);
    if (part !== undefined && (this.offset !== undefined || this.tail !== undefined)) throw usageError("--part-number cannot be used with --offset or --tail.");
    for (const arg of this.targets) {
      const loc = ctx.locate(arg);
      const store = requireStore(loc);
      const info = await store.stat(loc.key, this.versionId).catch((err: unknown) => {
        throw explainReadError(arg, err);
      });
      if (!info) throw mcError(`Unable to read from \`${arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey", key: loc.key }), "not_found");
      let offset = this.offset === undefined ? 0 : Number(this.offset);
      if (this.tail !== undefined) offset = Math.max(0, info.size - Number(this.tail));
      if (!Number.isFinite(offset) || offset < 0) throw usageError("invalid --offset or --tail.");
      if (offset >= info.size && info.size > 0) continue;
      if (part !== undefined && store.kind !== "s3") throw usageError(`--part-number needs an object, not the local file \`${arg}\`.`);
      const source = await store.read(loc.key, { anyFile: true, ...(offset > 0 ? { offset } : {}), ...(this.versionId ? { versionId: this.versionId } : {}), ...(part !== undefined ? { partNumber: part } : {}) }).catch((err: unknown) => {
        throw mcError(`Unable to read from \`${arg}\`.`, err);
      });
      await pipeline(source, ctx.output.stdout, { end: false });
    }
  }
}
