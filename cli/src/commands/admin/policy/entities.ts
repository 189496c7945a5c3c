import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runPolicyEntities } from "../../../minio-admin/policy-run.js";

/** `mc admin policy entities` (upstream cmd/admin-policy-entities.go). */
export class AdminPolicyEntitiesCommand extends BaseCommand {
  static override paths = [["admin", "policy", "entities"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list policy association entities",
    examples: [
      ["List the users and groups of a policy.", "$0 admin policy entities myminio --policy read-photos"],
      ["List the policies of a user and of a group.", "$0 admin policy entities myminio --user alice --group developers"],
    ],
  });
  users = Option.Array("-u,--user", [], { description: "list policies associated with user(s)" });
  groups = Option.Array("-g,--group", [], { description: "list policies associated with group(s)" });
  policies = Option.Array("-p,--policy", [], { description: "list users or groups associated with policy" });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    await runPolicyEntities(ctx, this.args, { users: this.users, groups: this.groups, policies: this.policies });
  }
}
