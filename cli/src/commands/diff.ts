import { Command, Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { usageError } from "../core/errors.js";
import { displayUrl } from "../storage/location.js";
import { withEncryption } from "../runtime/sse-context.js";
import { dirPrefix } from "../transfer/plan.js";
import { compareListings } from "../transfer/listing-merge.js";

/** Presence and size only (contracts/mc.md §6): codes 5 only-in-first, 6 only-in-second, 2 size. Exit 0 even with differences. */
export class DiffCommand extends BaseCommand {
  static override paths = [["diff"]];
  static override usage = Command.Usage({
    category: "Object commands",
    description: "list differences in object name and size between two locations",
    examples: [
      ["List what differs between a local folder and a bucket.", "$0 diff ./site myalias/www"],
      ["Compare two buckets on different servers.", "$0 diff myalias/mybucket play/mybucket-copy"],
      ["Compare two folders and keep the differences as JSON lines.", "$0 diff --json myalias/data/2025/ myalias/backup/2025/ > differences.json"],
      ["Compare a prefix encrypted with your own key against a local copy.", "$0 diff --enc-c \"myalias/secure/=MzJieXRlc2xvbmdzZWNyZWFiY2RlZmcJZ2l2ZW5uMjE=\" myalias/secure/ ./secure-copy/"],
    ],
  });
  // Accepted as upstream does; names and sizes are read from listings, which need no key.
  encC = Option.Array("--enc-c", { description: "encrypt/decrypt objects using client provided keys (\"alias/prefix=KEY\")" });
  encKms = Option.Array("--enc-kms", { description: "encrypt objects using specific server-side keys (\"alias/prefix=KEYID\")" });
  targets = Option.Rest({ name: "FIRST SECOND" });

  async run(ctx: McContext): Promise<void> {
    if (this.targets.length !== 2) throw usageError("diff needs FIRST and SECOND.");
    ctx = withEncryption(ctx, this.encC, this.encKms);
    const [firstArg = "", secondArg = ""] = this.targets;
    const first = ctx.locate(firstArg);
    const second = ctx.locate(secondArg);
    // A merge of the two sorted listings: differences print as they are found, in key order.
    for await (const { rel: key, first: a, second: b } of compareListings(first, second)) {
      const firstUrl = displayUrl(first, dirPrefix(first.key) + key);
      const secondUrl = displayUrl(second, dirPrefix(second.key) + key);
      const sa = a?.size;
      const sb = b?.size;
      // A side's folder that could not be read was reported; what it holds is unknown, not missing.
      if ((sa === undefined && first.kind === "local" && ctx.passedOver(firstUrl)) || (sb === undefined && second.kind === "local" && ctx.passedOver(secondUrl))) continue;
      let code: number;
      let text: string;
      if (sb === undefined) [code, text] = [5, `< ${firstUrl}`];
      else if (sa === undefined) [code, text] = [6, `> ${secondUrl}`];
      else if (sa !== sb) [code, text] = [2, `! ${secondUrl}`];
      else continue;
      // Upstream leaves the side an entry is missing from empty rather than naming a path that does not exist.
      ctx.output.result({ status: "success", first: sa === undefined ? "" : firstUrl, second: sb === undefined ? "" : secondUrl, diff: code }, text);
    }
  }
}
