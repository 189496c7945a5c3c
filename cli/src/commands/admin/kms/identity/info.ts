import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

interface DescribedIdentity {
  identity?: string;
  admin?: boolean;
  policies?: string[];
  created_at?: string;
  created_by?: string;
  allow?: string[];
  deny?: string[];
}

/**
 * `mc admin kms identity info ALIAS [IDENTITY]` (kms.md §10):
 * `/v1/identity/describe/<id>`; without IDENTITY the caller itself through
 * `/v1/identity/self/describe`, which any identity may ask, with what it may do.
 */
export class AdminKmsIdentityInfoCommand extends KmsCommand {
  static override paths = [["admin", "kms", "identity", "info"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "show a KMS identity and its policies (the alias's own without IDENTITY)",
    examples: [
      ["Show an identity and its policies.", "$0 admin kms identity info mykms h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o"],
      ["Show the alias's own identity and what it may do.", "$0 admin kms identity info mykms"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [IDENTITY]" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, id] = this.positional(this.args, "ALIAS and an optional IDENTITY", 1, 1);
    const self = id === undefined;
    const d = await this.withKms(ctx, aliasName, `Failed to describe identity \`${id ?? "(self)"}\`.`, ({ client }) =>
      client.call<DescribedIdentity>("GET", self ? "/v1/identity/self/describe" : `/v1/identity/describe/${seg(id)}`),
    );
    const value = {
      policies: d.policies ?? [],
      identity: d.identity ?? id ?? "",
      isAdmin: d.admin === true,
      createdAt: d.created_at ?? "",
      createdBy: d.created_by ?? "",
      ...(self ? { allow: d.allow ?? [], deny: d.deny ?? [] } : {}),
    };
    const text: Record<string, unknown> = { Policies: value.policies, Identity: value.identity, IsAdmin: value.isAdmin, CreatedAt: value.createdAt, CreatedBy: value.createdBy };
    if (self) Object.assign(text, { Allow: d.allow ?? [], Deny: d.deny ?? [] });
    this.fields(ctx, value, text);
    return 0;
  }
}
