import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { runBuiltinAccessKeyList } from "../../../minio-admin/access-key-run.js";

/** `mc admin accesskey list ALIAS [USER...]` (upstream cmd/admin-accesskey-list.go). */
export class AdminAccesskeyListCommand extends BaseCommand {
  static override paths = [["admin", "accesskey", "list"], ["admin", "accesskey", "ls"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "list access key pairs",
    examples: [
      ["List every access key (as an admin).", "$0 admin accesskey list myminio"],
      ["List only users.", "$0 admin accesskey list --users-only myminio"],
      ["List the service accounts of alice and bob.", "$0 admin accesskey list --svcacc-only myminio alice bob"],
      ["List your own access keys.", "$0 admin accesskey list --self myminio"],
    ],
  });
  usersOnly = Option.Boolean("--users-only", false, { description: "only list user names" });
  tempOnly = Option.Boolean("--temp-only", false, { description: "only list temporary access keys" });
  svcaccOnly = Option.Boolean("--svcacc-only", false, { description: "only list service account access keys" });
  self = Option.Boolean("--self", false, { description: "list access keys for the authenticated user" });
  all = Option.Boolean("--all", false, { description: "list all access keys for all users" });
  args = Option.Rest({ name: "ALIAS [USER...]" });

  async run(ctx: McContext): Promise<void> {
    await runBuiltinAccessKeyList(ctx, this.args, { usersOnly: this.usersOnly, tempOnly: this.tempOnly, svcaccOnly: this.svcaccOnly, self: this.self, all: this.all });
  }
}
