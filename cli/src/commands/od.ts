import { Readable } from "node:stream";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { requireStore } from "../storage/location.js";
import { iBytes, parseSize } from "../util/humanize.js";

/** `size` bytes of a repeating pattern: a source that costs no disk and no CPU. */
function generated(size: number): Readable {
  const block = Buffer.alloc(1024 * 1024, "mc-od-data-");
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, block.length);
      left -= n;
      this.push(n === block.length ? block : block.subarray(0, n));
    },
  });
}

export class OdCommand extends BaseCommand {
  static override paths = [["od"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "measure single stream upload and download",
    examples: [
      ["Upload 1 GiB of generated data in 64 parts and report the speed.", "$0 od of=myalias/mybucket/od-test size=1GiB parts=64"],
      ["Download an object to a local file and report the speed.", "$0 od if=myalias/mybucket/od-test of=./od-test.bin"],
      ["Copy a local file to a bucket in 16 parts.", "$0 od if=./big.iso of=myalias/images/big.iso parts=16"],
    ],
  });
  operands = Option.Rest({ name: "if=SOURCE of=TARGET size=N parts=N skip=N" });

  async run(ctx: McContext): Promise<void> {
    const ops = new Map<string, string>();
    for (const op of this.operands) {
      const m = /^(if|of|size|parts|skip)=(.*)$/.exec(op);
      if (!m?.[1]) throw usageError(`unknown operand \`${op}\`.`);
      ops.set(m[1], m[2] ?? "");
    }
    const target = ops.get("of");
    if (!target) throw usageError("od needs of=TARGET.");
    const dst = ctx.locate(target);
    const src = ops.has("if") ? ctx.locate(ops.get("if") ?? "") : undefined;
    let totalSize: number;
    if (ops.has("size")) {
      const parsed = parseSize(ops.get("size") ?? "");
      if (parsed === undefined) throw usageError(`invalid size \`${ops.get("size") ?? ""}\`.`);
      totalSize = parsed;
    } else if (src) {
      const info = await requireStore(src).stat(src.key);
      if (!info) throw mcError(`Unable to stat \`${src.arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
      totalSize = info.size;
    } else throw usageError("od needs size= without if=.");
    const parts = Number(ops.get("parts") ?? "0");
    const skip = Number(ops.get("skip") ?? "0");
    const partSize = parts > 0 ? Math.max(5 * 1024 * 1024, Math.ceil(totalSize / parts)) : ctx.upload.partSize;
    const upload = { partSize, parallel: ctx.upload.parallel };
    const store = dst.kind === "s3" && dst.bucket !== "" ? ctx.bucketStore(dst.alias, dst.bucket, upload) : requireStore(dst);
    const started = Date.now();
    const source = src ? await requireStore(src).read(src.key, { offset: skip * partSize, length: totalSize }) : generated(totalSize);
    await store.write(dst.key, source, totalSize, { signal: ctx.signal });
    const elapsed = Date.now() - started;
    const type = `${src?.kind === "s3" ? "S3" : "FS"}to${dst.kind === "s3" ? "S3" : "FS"}`;
    const partCount = Math.max(1, Math.ceil(totalSize / partSize));
    const speed = totalSize / Math.max(elapsed / 1000, 0.001);
    ctx.output.result(
      { status: "success", type, source: src?.arg ?? "", target, partSize, totalSize, parts: partCount, skip, elapsed },
      `Transferred: ${iBytes(totalSize)}, Parts: ${partCount}, Time: ${(elapsed / 1000).toFixed(3)}s, Speed: ${iBytes(Math.round(speed))}/s`,
    );
  }
}
