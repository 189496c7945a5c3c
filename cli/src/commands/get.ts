import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { requireStore } from "../storage/location.js";
import { runCopyCommand } from "../helpers/copy-run.js";
import { withEncryption } from "../runtime/sse-context.js";

export class GetCommand extends BaseCommand {
  static override paths = [["get"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "download an object to the local filesystem",
    examples: [
      ["Download an object to a local file.", "$0 get myalias/mybucket/report.pdf ./report.pdf"],
      ["Download one version of an object.", "$0 get --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/mybucket/app.conf ./app.conf.old"],
      ["Download an object encrypted with a server KMS key.", "$0 get --enc-kms \"myalias/finance/=finance-key\" myalias/finance/ledger.csv ./ledger.csv"],
    ],
  });
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
