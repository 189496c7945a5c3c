import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { replicateFailure } from "../../minio-admin/replicate-common.js";
import { configFromJson, type ReplConfig } from "../../minio-admin/replication-config.js";
import { putReplication } from "../../minio-admin/replication-s3.js";
import { readStdinText } from "../../core/stdin.js";

/** `mc replicate import ALIAS/BUCKET < config.json` (upstream cmd/replicate-import.go): the JSON `export` wrote, set as is. */
export class ReplicateImportCommand extends BaseCommand {
  static override paths = [["replicate", "import"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "import server side replication configuration in JSON format",
    examples: [
      ["Set a bucket's replication configuration from a file.", "$0 replicate import myminio/mybucket < replication.json"],
      ["Copy it from another bucket.", "$0 replicate export myminio/mybucket | $0 replicate import myminio/otherbucket"],
    ],
  });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate import needs one ALIAS/BUCKET.");
    const target = adminTarget(ctx, this.args[0], true);
    let cfg: ReplConfig;
    try {
      const text = await readStdinText();
      // Go's json.Decoder reads the first value; anything after it is not looked at.
      cfg = configFromJson(JSON.parse(text.trim() === "" ? "x" : text) as unknown);
    } catch (err) {
      throw mcError("Unable to read replication configuration.", err, "invalid_argument");
    }
    await putReplication(target.client, target.path, cfg).catch((err: unknown) => {
      throw replicateFailure("Unable to set replication configuration", err);
    });
    const url = this.args[0] ?? "";
    ctx.output.result({ op: "import", status: "success", url, config: { Rules: null, Role: "" } }, `Replication configuration successfully set on \`${url}\`.`);
  }
}

