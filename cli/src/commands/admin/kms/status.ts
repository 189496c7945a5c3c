import { Command, Option } from "clipanion";
import type { McContext } from "../../../runtime/context.js";
import { KmsCommand } from "../../../kms/kms-command.js";

/**
 * `mc admin kms status ALIAS`: every member with role, term, commit and
 * applied index, reachability, as the leader sees them (only the leader
 * tracks the others), asked of the leader whichever node the alias names.
 * When no leader's view is available it shows what the node knows and why.
 */
export class AdminKmsStatusCommand extends KmsCommand {
  static override paths = [["admin", "kms", "status"], ["admin", "kms", "cluster", "status"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "show the KMS cluster as its leader sees it",
    details: "Unknown values (no leader's view) print as `?` (null in --json), with a note saying why.",
    examples: [
      ["Show the members of a KMS cluster as its leader sees them.", "$0 admin kms status mykms"],
      ["Show them as JSON, for monitoring.", "$0 admin kms status --json mykms"],
      ["The same through the cluster group.", "$0 admin kms cluster status mykms"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName] = this.positional(this.args, "ALIAS", 1);
    const { view, lines } = await this.withKms(ctx, aliasName, "Failed to get the KMS cluster status.", async ({ client, lib, openNode }, alias) => {
      const v = await lib.clusterView(client, alias.url, openNode);
      return { view: v, lines: lib.clusterViewLines(v) };
    });
    const orNull = <T>(x: T | undefined): T | null => (x === undefined ? null : x);
    const value = {
      status: "success",
      leader: view.leaderId,
      term: view.term,
      commitIndex: view.commitIndex,
      authoritative: view.authoritative,
      source: view.source,
      ...(view.reason === undefined ? {} : { reason: view.reason }),
      nodes: view.nodes.map((n) => ({ id: n.id, host: n.host, role: n.role, up: orNull(n.up), appliedIndex: orNull(n.appliedIndex), lag: orNull(n.lag), rttMs: orNull(n.rttMs), lastContactMs: orNull(n.lastContactMs) })),
      warnings: view.warnings,
    };
    ctx.output.result(value, lines.join("\n"));
    return 0;
  }
}
