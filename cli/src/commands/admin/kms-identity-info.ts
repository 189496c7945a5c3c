import { Command, Option } from "clipanion";
import { BaseCommand } from "../../base-command.js";
import type { McContext } from "../../context.js";
import { mcError, usageError } from "../../errors.js";
import { kmsAlias, openKms } from "../../kms/kms-alias.js";

interface DescribedIdentity {
  identity?: string;
  admin?: boolean;
  policies?: string[];
  created_at?: string;
  created_by?: string;
}

/** `mc admin kms identity info ALIAS IDENTITY` (kms.md §10): `/v1/identity/describe/<id>`. */
export class AdminKmsIdentityInfoCommand extends BaseCommand {
  static override paths = [["admin", "kms", "identity", "info"]];
  static override usage = Command.Usage({ category: "Admin commands", description: "show a KMS identity and its policies", examples: [["Show an identity", "$0 admin kms identity info mykms h1:…"]] });
  args = Option.Rest({ name: "ALIAS IDENTITY" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, id, ...rest] = this.args;
    if (id === undefined || id === "" || rest.length > 0) throw usageError("admin kms identity info needs ALIAS and IDENTITY.");
    const alias = kmsAlias(ctx, aliasName);
    const { client, isClientError } = await openKms(ctx, alias);
    let d: DescribedIdentity;
    try {
      d = await client.call<DescribedIdentity>("GET", `/v1/identity/describe/${encodeURIComponent(id)}`);
    } catch (err) {
      throw mcError(isClientError(err) ? `Failed to describe identity \`${id}\`.` : `Unable to reach the KMS of alias \`${alias.name}\`.`, err);
    } finally {
      client.close();
    }
    const value = { policies: d.policies ?? [], identity: d.identity ?? id, isAdmin: d.admin === true, createdAt: d.created_at ?? "", createdBy: d.created_by ?? "" };
    ctx.output.result(
      value,
      [`Policies: ${value.policies.join(", ")}`, `Identity: ${value.identity}`, `IsAdmin: ${String(value.isAdmin)}`, `CreatedAt: ${value.createdAt}`, `CreatedBy: ${value.createdBy}`].join("\n"),
    );
    return 0;
  }
}
