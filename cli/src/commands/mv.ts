import { Command } from "clipanion";
import { CpCommand } from "./cp.js";

/** `mv`: the copy of `cp`, removing each source once its copy is complete. */
export class MvCommand extends CpCommand {
  static override paths = [["mv"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "move objects",
    examples: [
      ["Move a local file into a bucket (the local file is removed after the upload).", "$0 mv ./report.pdf myalias/mybucket/"],
      ["Rename an object inside a bucket.", "$0 mv myalias/mybucket/draft.txt myalias/mybucket/final.txt"],
      ["Move a whole folder from one bucket to another.", "$0 mv --recursive myalias/incoming/2025/ myalias/archive/2025/"],
      ["Move objects older than 90 days to a cheaper storage class in another bucket.", "$0 mv --recursive --older-than 90d --storage-class STANDARD_IA myalias/logs/ myalias/cold-logs/"],
      ["Move several local files, keeping their times and mode.", "$0 mv --preserve a.log b.log c.log myalias/logs/"],
      ["Move and tag the moved objects.", "$0 mv --recursive --tags \"state=archived\" myalias/reports/q1/ myalias/archive/q1/"],
    ],
  });
  protected override readonly removeSource: boolean = true;
}
