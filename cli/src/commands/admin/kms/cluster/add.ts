import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { usageError } from "../../../../core/errors.js";
import { KmsCommand } from "../../../../kms/kms-command.js";

/** `HOST:PORT` as the cluster names its members (contracts/kms.md §4: no scheme). */
const hostPort = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

/**
 * `mc admin kms cluster add|remove ALIAS HOST:PORT` (root): `/v1/cluster/add`
 * and `/v1/cluster/remove` of the node the alias names, which checks the
 * joining node first (contracts/kms.md §8) and answers the members after the
 * change. `kms cluster add|remove` does the same from the kms command.
 */
export class AdminKmsClusterAddCommand extends KmsCommand {
  static override paths = [["admin", "kms", "cluster", "add"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "add a fresh, running KMS node to the cluster",
    details: "The node must run with the cluster's HSM key and enclaves, hold no data, and have a certificate naming HOST. Members after the change are printed one per line.",
    examples: [
      ["Add a fresh, running KMS node to the cluster.", "$0 admin kms cluster add mykms kms4.example.net:7373"],
      ["Add a node by its IPv6 address.", "$0 admin kms cluster add mykms \"[fd00::14]:7373\""],
    ],
  });
  args = Option.Rest({ name: "ALIAS HOST:PORT" });
  protected readonly op: "add" | "remove" = "add";

  async run(ctx: McContext): Promise<number> {
    const [aliasName, host = ""] = this.positional(this.args, "ALIAS and HOST:PORT", 2);
    if (!hostPort.test(host)) throw usageError(`\`${host}\` is not HOST:PORT (a cluster member's address, without https://).`);
    const what = this.op === "add" ? `Failed to add node \`${host}\` to the KMS cluster.` : `Failed to remove node \`${host}\` from the KMS cluster.`;
    const r = await this.withKms(ctx, aliasName, what, ({ client }) => client.call<{ nodes?: unknown }>("POST", `/v1/cluster/${this.op}`, { host }));
    const nodes = Array.isArray(r.nodes) ? r.nodes.filter((n): n is string => typeof n === "string") : [];
    const done = this.op === "add" ? `Added node \`${host}\` to the KMS cluster.` : `Removed node \`${host}\` from the KMS cluster.`;
    ctx.output.result({ status: "success", host, nodes }, [done, "Members:", ...nodes.map((n) => `  ${n}`)].join("\n"));
    return 0;
  }
}
