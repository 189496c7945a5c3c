import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/** `mc admin kms enclave info ALIAS NAME`. */
export class AdminKmsEnclaveInfoCommand extends KmsCommand {
  static override paths = [["admin", "kms", "enclave", "info"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "show when and by whom a KMS enclave was created",
    examples: [
      ["Show when and by whom an enclave was created.", "$0 admin kms enclave info mykms tenant-1"],
      ["Show it as JSON.", "$0 admin kms enclave info --json mykms tenant-1"],
    ],
  });
  args = Option.Rest({ name: "ALIAS NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, name = ""] = this.positional(this.args, "ALIAS and NAME", 2);
    const d = await this.withKms(ctx, aliasName, `Failed to describe enclave \`${name}\`.`, ({ client }) =>
      client.call<{ name?: string; created_at?: string; created_by?: string }>("GET", `/v1/enclave/describe/${seg(name)}`),
    );
    const value = { status: "success", enclave: d.name ?? name, createdAt: d.created_at ?? "", createdBy: d.created_by ?? "" };
    this.fields(ctx, value, { Enclave: value.enclave, CreatedAt: value.createdAt, CreatedBy: value.createdBy });
    return 0;
  }
}
