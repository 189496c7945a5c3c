import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

interface DescribedKey {
  name?: string;
  version?: number;
  versions?: number[];
  algorithm?: string;
  created_at?: string;
  created_by?: string;
}

/** `mc admin kms key info ALIAS KEY_NAME [--version N]`: `/v1/key/describe/<name>`, with every version. */
export class AdminKmsKeyInfoCommand extends KmsCommand {
  static override paths = [["admin", "kms", "key", "info"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "show a KMS master key and its versions",
    examples: [
      ["Show a master key and its versions.", "$0 admin kms key info mykms my-key"],
      ["Show one version.", "$0 admin kms key info --version 2 mykms my-key"],
      ["Show it as JSON.", "$0 admin kms key info --json mykms my-key"],
    ],
  });
  args = Option.Rest({ name: "ALIAS KEY_NAME" });
  version = Option.String("--version", { description: "describe this version instead of the latest" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, keyName = ""] = this.positional(this.args, "ALIAS and KEY_NAME", 2);
    const query = this.version === undefined ? "" : `?version=${encodeURIComponent(this.version)}`;
    const d = await this.withKms(ctx, aliasName, `Failed to describe master key \`${keyName}\`.`, ({ client }) => client.call<DescribedKey>("GET", `/v1/key/describe/${seg(keyName)}${query}`));
    const value = { status: "success", keyId: d.name ?? keyName, version: d.version ?? 0, versions: d.versions ?? [], algorithm: d.algorithm ?? "", createdAt: d.created_at ?? "", createdBy: d.created_by ?? "" };
    this.fields(ctx, value, { Key: value.keyId, Version: value.version, Versions: value.versions, Algorithm: value.algorithm, CreatedAt: value.createdAt, CreatedBy: value.createdBy });
    return 0;
  }
}
