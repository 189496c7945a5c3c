import { Command } from "clipanion";
import { LegalHoldChangeCommand } from "../../helpers/legalhold-change.js";

export class LegalholdSetCommand extends LegalHoldChangeCommand {
  static override paths = [["legalhold", "set"]];
  static override usage = Command.Usage({ category: "Object lock commands", description: "set legal hold for object(s)", examples: [["Set legal hold for object(s)", "$0 legalhold set myminio/mybucket/file.txt"]] });
  protected readonly op = "set";
}
