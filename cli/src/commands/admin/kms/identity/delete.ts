import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms identity delete ALIAS IDENTITY`: its API key stops working on every node once committed. */
export class AdminKmsIdentityDeleteCommand extends KmsCommand {
  static override paths = [["admin", "kms", "identity", "delete"], ["admin", "kms", "identity", "rm"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "delete a KMS identity",
    examples: [
      ["Delete an identity; its API key stops working.", "$0 admin kms identity delete mykms h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o"],
      ["The same, with the short name.", "$0 admin kms identity rm mykms h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o"],
    ],
  });
  args = Option.Rest({ name: "ALIAS IDENTITY" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, identity = ""] = this.positional(this.args, "ALIAS and IDENTITY", 2);
    await this.withKms(ctx, aliasName, `Failed to delete identity \`${identity}\`.`, ({ client }) => client.call("DELETE", `/v1/identity/delete/${seg(identity)}`));
    ctx.output.result({ status: "success", identity }, `Deleted identity \`${identity}\` successfully`);
    return 0;
  }
}
