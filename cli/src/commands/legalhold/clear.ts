import { Command } from "clipanion";
import { LegalHoldChangeCommand } from "../../helpers/legalhold-change.js";

export class LegalholdClearCommand extends LegalHoldChangeCommand {
  static override paths = [["legalhold", "clear"]];
  static override usage = Command.Usage({ category: "Object lock commands", description: "clear legal hold of object(s)", examples: [["Clear legal hold of object(s)", "$0 legalhold clear myminio/mybucket/file.txt"]] });
  protected readonly op = "clear";
}
