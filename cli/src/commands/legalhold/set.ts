import { Command } from "clipanion";
import { LegalHoldChangeCommand } from "../../helpers/legalhold-change.js";

export class LegalholdSetCommand extends LegalHoldChangeCommand {
  static override paths = [["legalhold", "set"]];
  static override usage = Command.Usage({
    category: "Object lock commands",
    description: "set legal hold for object(s)",
    examples: [
      ["Put an object under legal hold.", "$0 legalhold set myalias/locked-bucket/evidence.zip"],
      ["Put every object under a prefix under legal hold.", "$0 legalhold set --recursive myalias/locked-bucket/case-42/"],
      ["Put one version under legal hold.", "$0 legalhold set --version-id 3b2c7f1e-8c4d-4a55-9d0e-2f1a6b7c8d9e myalias/locked-bucket/evidence.zip"],
    ],
  });
  protected readonly op = "set";
}
