import { Command } from "clipanion";
import { AdminKmsPolicyAssignCommand } from "./assign.js";

/** `mc admin kms policy unassign ALIAS NAME IDENTITY…`. */
export class AdminKmsPolicyUnassignCommand extends AdminKmsPolicyAssignCommand {
  static override paths = [["admin", "kms", "policy", "unassign"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "remove a KMS policy from identities",
    examples: [
      ["Take a policy away from an identity.", "$0 admin kms policy unassign mykms app h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o"],
      ["Take it away from two identities.", "$0 admin kms policy unassign mykms app h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o h1:Qm9ZsW3b8cP1kR7tY0uV2xN5aD6eF4gH9jK1lM3nO8p"],
    ],
  });
  protected override readonly assign: boolean = false;
}
