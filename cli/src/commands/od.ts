import { Readable } from "node:stream";
import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { isAppError } from "@mc/shared/errors";
import { requireStore } from "../storage/location.js";
import { iBytes, parseSize } from "../util/humanize.js";
import { planOd } from "../transfer/od-sizes.js";

const minPartSize = 5 * 1024 * 1024;

/** The first `limit` bytes of `source` (which may not end: /dev/zero), each chunk counted; the source is closed after. */
async function* upTo(source: Readable, limit: number, counted: (n: number) => void): AsyncGenerator<Buffer> {
  let left = limit;
  if (left === 0) return void source.destroy();
  // Leaving the loop early destroys the source.
  for await (const chunk of source) {
    const c = chunk as Buffer;
    const piece = c.length > left ? c.subarray(0, left) : c;
    left -= piece.length;
    counted(piece.length);
    yield piece;
    if (left === 0) break;
  }
}

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
      ["Upload 1 GiB from /dev/zero in 16 parts of 64 MiB and report the speed.", "$0 od if=/dev/zero of=myalias/mybucket/od-test size=64MiB parts=16"],
      ["Upload 200 MiB of a file in 5 parts of 40 MiB.", "$0 od if=./file.zip of=myalias/mybucket/file.zip size=40MiB parts=5"],
      ["Copy a whole local file to a bucket in 16 parts.", "$0 od if=./big.iso of=myalias/images/big.iso parts=16"],
      ["Download an object to a local file and report the speed.", "$0 od if=myalias/mybucket/od-test of=./od-test.bin"],
    ],
  });
  // As upstream's: size= is the size of each part, parts= their number, skip= the parts passed over;
  // without if=, generated data (size x parts bytes).
  operands = Option.Rest({ name: "if=SOURCE of=TARGET size=PART_SIZE parts=N skip=N" });

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
    let partSize: number | undefined;
    if (ops.has("size")) {
      partSize = parseSize(ops.get("size") ?? "");
      if (partSize === undefined) throw usageError(`invalid size \`${ops.get("size") ?? ""}\`.`);
    } else if (!src) throw usageError("od needs size= (the size of each part) without if=.");
    const count = (name: "parts" | "skip"): number => {
      const text = ops.get(name) ?? "0";
      if (!/^\d+$/.test(text)) throw usageError(`invalid ${name} \`${text}\`.`);
      return Number(text);
    };
    // As upstream's od: one object or file each way, never a folder.
    const folder = async (loc: typeof dst): Promise<boolean> => loc.key === "" || loc.key.endsWith("/") || (loc.kind === "local" && (await requireStore(loc).isDir(loc.key)));
    if (src && (await folder(src))) throw mcError(`\`${src.arg}\` is a folder; od reads one object or file.`, undefined, "invalid_argument");
    if (await folder(dst)) throw mcError(`\`${target}\` is a folder; od writes one object or file, give its name.`, undefined, "invalid_argument");
    let sourceSize = 0;
    if (src) {
      const info = await requireStore(src).stat(src.key);
      if (!info) throw mcError(`Unable to stat \`${src.arg}\`.`, Object.assign(new Error("Object does not exist"), { code: "NoSuchKey" }), "not_found");
      // A device or a FIFO (if=/dev/zero) has no size: it is read as a stream, as upstream does.
      sourceSize = info.size;
    }
    const plan = planOd({ sourceSize, ...(partSize === undefined ? {} : { partSize }), parts: count("parts"), skip: count("skip") });
    if (typeof plan === "string") throw usageError(plan);
    const upload = { partSize: plan.parts > 1 ? Math.max(minPartSize, plan.partSize) : ctx.upload.partSize, parallel: ctx.upload.parallel };
    const store = dst.kind === "s3" && dst.bucket !== "" ? ctx.bucketStore(dst.alias, dst.bucket, upload) : requireStore(dst);
    const started = Date.now();
    let read = 0;
    const input = !src ? generated(plan.total) : sourceSize === 0 ? await requireStore(src).read(src.key, { anyFile: true }) : await requireStore(src).read(src.key, { offset: plan.offset, length: plan.total });
    const source = Readable.from(upTo(input, plan.total, (n) => (read += n)), { objectMode: false });
    // Before the data is visible (the rename, the PUT, the multipart completion): a source that
    // ended early (a file cut while it was read, a FIFO closed) leaves nothing under the name.
    const verify = (): void => {
      if (read !== plan.total) throw mcError(`\`${src?.arg ?? "od"}\` ended after ${read} of ${plan.total} bytes; nothing was written.`, undefined, "aborted");
    };
    try {
      await store.write(dst.key, source, plan.total, { signal: ctx.signal, verify });
      verify();
    } catch (err) {
      throw isAppError(err) ? err : mcError(`Unable to upload to \`${target}\`.`, err);
    }
    const elapsed = Date.now() - started;
    const type = `${src?.kind === "s3" ? "S3" : "FS"}to${dst.kind === "s3" ? "S3" : "FS"}`;
    const speed = plan.total / Math.max(elapsed / 1000, 0.001);
    ctx.output.result(
      { status: "success", type, source: src?.arg ?? "", target, partSize: plan.partSize, totalSize: plan.total, parts: plan.parts, skip: plan.skip, elapsed },
      `Transferred: ${iBytes(plan.total)}, Parts: ${plan.parts}, Time: ${(elapsed / 1000).toFixed(3)}s, Speed: ${iBytes(Math.round(speed))}/s`,
    );
  }
}
