import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runStsRevoke } from "../../../minio-admin/sts-revoke.js";

/** `mc admin accesskey sts-revoke ALIAS [USER] [--all | --token-type T] [--self]` (upstream cmd/admin-accesskey-sts-revoke.go). */
export class AdminAccesskeyStsRevokeCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "sts-revoke"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "revokes all STS accounts or specified types for the specified user",
    details: "Exactly one of --all or --token-type must be specified with a USER.",
    examples: [
      ["Revoke all STS accounts for user \"user1\"", "$0 admin accesskey sts-revoke myminio user1 --all"],
      ["Revoke STS accounts of a token type \"app-1\" for user \"user1\"", "$0 admin accesskey sts-revoke myminio user1 --token-type app-1"],
      ["Revoke all STS accounts for the authenticated user", "$0 admin accesskey sts-revoke myminio --self"],
    ],
  });
  all = Option.Boolean("--all", false, { description: "revoke all STS accounts for the specified user" });
  self = Option.Boolean("--self", false, { description: "revoke all STS accounts for the authenticated user" });
  tokenType = Option.String("--token-type", { description: "specify the token type to revoke" });
  args = Option.Rest({ name: "ALIAS USER" });

  async run(ctx: McContext): Promise<void> {
    await runStsRevoke(ctx, this.args, { all: this.all, self: this.self, tokenType: this.tokenType });
  }
}
