import { Command } from "clipanion";
import { AdminKmsPolicyAssignCommand } from "./assign.js";

/** `mc admin kms policy unassign ALIAS NAME IDENTITY…`. */
export class AdminKmsPolicyUnassignCommand extends AdminKmsPolicyAssignCommand {
  static override paths = [["admin", "kms", "policy", "unassign"]];
  static override usage = Command.Usage({ category: "Admin commands", description: "remove a KMS policy from identities", examples: [["Remove policy app from an identity", "$0 admin kms policy unassign mykms app h1:…"]] });
  protected override readonly assign: boolean = false;
}
