import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runReplicateStatus } from "../../../minio-admin/site-replication-status.js";

/** `mc admin replicate status` (upstream cmd/admin-replicate-status.go). */
export class AdminReplicateStatusCommand extends BaseCommand {
  static override paths = [["admin", "replicate", "status"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "display site replication status",
    examples: [
      ["Display overall site replication status", "$0 admin replicate status minio1"],
      ["Display site replication status of buckets across sites", "$0 admin replicate status minio1 --buckets"],
      ["Drill down and view site replication status of bucket \"bucket\"", "$0 admin replicate status minio1 --bucket bucket"],
      ["Drill down and view site replication status of user \"foo\"", "$0 admin replicate status minio1 --user foo"],
      ["Display the ILM expiry rules replication status across sites", "$0 admin replicate status minio1 --ilm-expiry-rules"],
      ["Drill down and view the replication status of the ILM expiry rule \"rule1\"", "$0 admin replicate status minio1 --ilm-expiry-rule rule1"],
    ],
  });
  buckets = Option.Boolean("--buckets", false, { description: "display buckets sync status" });
  users = Option.Boolean("--users", false, { description: "display users sync status" });
  groups = Option.Boolean("--groups", false, { description: "display groups sync status" });
  policies = Option.Boolean("--policies", false, { description: "display policies sync status" });
  ilmExpiryRules = Option.Boolean("--ilm-expiry-rules", false, { description: "display only ilm expiry rules" });
  all = Option.Boolean("-a,--all", false, { description: "display all available site replication status" });
  bucket = Option.String("--bucket", { description: "display bucket sync status" });
  user = Option.String("--user", { description: "display user sync status" });
  group = Option.String("--group", { description: "display group sync status" });
  policy = Option.String("--policy", { description: "display policy sync status" });
  ilmExpiryRule = Option.String("--ilm-expiry-rule", { description: "display ILM expiry rule sync status" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runReplicateStatus(ctx, this.args, { buckets: this.buckets, users: this.users, groups: this.groups, policies: this.policies, all: this.all, bucket: this.bucket, user: this.user, group: this.group, policy: this.policy, ilmExpiryRules: this.ilmExpiryRules, ilmExpiryRule: this.ilmExpiryRule });
  }
}
