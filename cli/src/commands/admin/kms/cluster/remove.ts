import { Command } from "clipanion";
import { AdminKmsClusterAddCommand } from "./add.js";

/** `mc admin kms cluster remove ALIAS HOST:PORT`. */
export class AdminKmsClusterRemoveCommand extends AdminKmsClusterAddCommand {
  static override paths = [["admin", "kms", "cluster", "remove"], ["admin", "kms", "cluster", "rm"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "remove a node from the KMS cluster",
    details: "Remove one node at a time and check `mc admin kms cluster status` between steps. Members after the change are printed one per line.",
    examples: [
      ["Remove a node from the cluster.", "$0 admin kms cluster remove mykms kms4.example.net:7373"],
      ["The same, with the short name.", "$0 admin kms cluster rm mykms kms4.example.net:7373"],
    ],
  });
  protected override readonly op: "add" | "remove" = "remove";
}
