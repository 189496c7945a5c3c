import { Command } from "clipanion";
import { CpCommand } from "./cp.js";

/** `mv`: the copy of `cp`, removing each source once its copy is complete. */
export class MvCommand extends CpCommand {
  static override paths = [["mv"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "move objects",
    examples: [["Move a file into a bucket", "$0 mv ./report.pdf play/mybucket/"]],
  });
  protected override readonly removeSource: boolean = true;
}
