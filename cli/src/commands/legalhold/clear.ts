import { Command } from "clipanion";
import { LegalHoldChangeCommand } from "../../helpers/legalhold-change.js";

export class LegalholdClearCommand extends LegalHoldChangeCommand {
  static override paths = [["legalhold", "clear"]];
  static override usage = Command.Usage({
    category: "Object lock commands",
    description: "clear legal hold of object(s)",
    examples: [
      ["Release an object from legal hold.", "$0 legalhold clear myalias/locked-bucket/evidence.zip"],
      ["Release every version of every object under a prefix.", "$0 legalhold clear --recursive --versions myalias/locked-bucket/case-42/"],
    ],
  });
  protected readonly op = "clear";
}
