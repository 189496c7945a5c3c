import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { removeRemoteTarget } from "../../minio-admin/bucket-target.js";
import { replicateFailure } from "../../minio-admin/replicate-common.js";
import { removeRule } from "../../minio-admin/replication-rules.js";
import { getReplication, putReplication, removeReplication } from "../../minio-admin/replication-s3.js";

/** `mc replicate remove ALIAS/BUCKET --id ID | --all --force` (upstream cmd/replicate-remove.go): the rule, then its remote target. */
export class ReplicateRemoveCommand extends BaseCommand {
  static override paths = [["replicate", "remove"], ["replicate", "rm"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "remove a server side replication configuration rule",
    examples: [
      ["Remove one replication rule.", "$0 replicate remove --id docs myminio/mybucket"],
      ["Remove every replication rule of a bucket.", "$0 replicate remove --all --force myminio/mybucket"],
    ],
  });
  id = Option.String("--id", { description: "id for the rule, should be a unique value" });
  force = Option.Boolean("--force", { description: "force remove all the replication configuration rules on the bucket" });
  all = Option.Boolean("--all", { description: "remove all replication configuration rules of the bucket, force flag enforced" });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate remove needs one ALIAS/BUCKET.");
    const all = this.all === true;
    if (all !== (this.force === true)) throw mcError("It is mandatory to specify --all and --force flag together for mc replicate remove.", undefined, "invalid_argument");
    const id = this.id ?? "";
    if (!all && id === "") throw mcError("rule ID cannot be empty.", undefined, "invalid_argument");
    const target = adminTarget(ctx, this.args[0], true);
    const url = this.args[0] ?? "";
    const cfg = await getReplication(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to get replication configuration", err);
    });
    const done = (withId: string): void =>
      ctx.output.result({ op: "remove", status: "success", url, id: withId }, withId !== "" ? `Replication configuration rule with ID \`${withId}\`removed from ${url}.` : `Replication configuration removed from ${url} successfully.`);
    if (cfg.Rules.length === 0 && !all) return done("");
    if (all) {
      await removeReplication(target.client, target.path).catch((err: unknown) => {
        throw replicateFailure("Unable to remove replication configuration", err);
      });
      return done(id);
    }
    const arn = [...cfg.Rules].reverse().find((r) => r.ID === id)?.Destination.Bucket ?? "";
    try {
      await putReplication(target.client, target.path, removeRule(cfg, id));
    } catch (err) {
      throw replicateFailure("Could not remove replication rule", err);
    }
    await removeRemoteTarget(target.client, target.path, arn).catch((err: unknown) => {
      throw replicateFailure("Unable to remove remote target", err);
    });
    done(id);
  }
}
