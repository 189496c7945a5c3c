import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms policy show ALIAS NAME`: the policy's rules (`/v1/policy/read/<name>`), as a file `policy create` accepts. */
export class AdminKmsPolicyShowCommand extends KmsCommand {
  static override paths = [["admin", "kms", "policy", "show"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "print the allow and deny paths of a KMS policy",
    examples: [
      ["Print a policy's allow and deny paths.", "$0 admin kms policy show mykms app"],
      ["Copy a policy under another name.", "$0 admin kms policy show mykms app > app.json && $0 admin kms policy create mykms app-copy app.json"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = ""] = this.positional(this.args, "ALIAS and NAME", 2);
    const d = await this.withKms(ctx, aliasName, `Failed to read policy \`${name}\`.`, ({ client }) =>
      client.call<{ allow?: string[]; deny?: string[] }>("GET", `/v1/policy/read/${seg(name)}`),
    );
    const rules = { allow: d.allow ?? [], deny: d.deny ?? [] };
    // The text form is the policy file itself, so `show … > p.json` round-trips through `policy create`.
    ctx.output.result({ status: "success", policy: name, ...rules }, JSON.stringify(rules, null, 2));
    return 0;
  }
}
