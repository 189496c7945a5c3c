import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { requireStore } from "../storage/location.js";
import { runCopyCommand } from "../helpers/copy-run.js";
import { withEncryption } from "../runtime/sse-context.js";

export class GetCommand extends BaseCommand {
  static override paths = [["get"]];
  static override usage = Command.Usage({ category: "Object commands", description: "download an object to the local filesystem", examples: [["Download", "$0 get myminio/bucket/file.txt ./file.txt"]] });
  versionId = Option.String("--version-id,--vid", { description: "download a specific version" });
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  targets = Option.Rest({ name: "SOURCE TARGET" });

  async run(ctx: McContext): Promise<number> {
    ctx = withEncryption(ctx, this.encC, this.encKms);
    if (this.targets.length !== 2) throw usageError("get needs SOURCE and TARGET.");
    const [source = "", target = ""] = this.targets;
    if (ctx.locate(source).kind !== "s3") throw usageError("get needs a remote SOURCE (alias/bucket/object).");
    if (target === "-") {
      const loc = ctx.locate(source);
      const stream = await requireStore(loc).read(loc.key, this.versionId ? { versionId: this.versionId } : {});
      for await (const chunk of stream) ctx.output.stdout.write(chunk as Buffer);
      return 0;
    }
    return runCopyCommand(ctx, { sources: [source], target, recursive: false, filter: {} });
  }
}
