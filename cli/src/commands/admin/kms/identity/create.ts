import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { KmsCommand, seg } from "../../../../kms/kms-command.js";

/**
 * `mc admin kms identity create ALIAS [IDENTITY] [--policy NAME] [--admin]`:
 * without IDENTITY draws a new API key here, registers its identity
 * (`/v1/identity/create/<id>`; the identity is the key's, so the KMS never
 * sees the key) and prints the key once; it is stored nowhere. With IDENTITY
 * registers an identity that already has its key or certificate (`kms apikey
 * new`, `kms identity of client.crt`): mTLS clients need no API key.
 */
export class AdminKmsIdentityCreateCommand extends KmsCommand {
  static override paths = [["admin", "kms", "identity", "create"], ["admin", "kms", "identity", "add"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "create a KMS identity and print its new API key once",
    details: "Give the key to the service: `mc alias set ALIAS URL --api-key k1:…`.",
    examples: [
      ["Create an identity with a new API key, under policy app (the key is printed once).", "$0 admin kms identity create --policy app mykms"],
      ["Register the identity of a client certificate.", "$0 admin kms identity create --policy app mykms h1:2Xy0Wo0M4y2mSYZ8xQx7iBIYXlJ8dAe4sTzqbTf0N1o"],
      ["Create an admin identity of an enclave.", "$0 admin kms identity create --admin --enclave tenant-1 mykms"],
    ],
  });
  args = Option.Rest({ name: "ALIAS [IDENTITY]" });
  policy = Option.String("--policy", { description: "assign this policy to the new identity" });
  admin = Option.Boolean("--admin", { description: "make the identity an admin of the enclave (no policy)" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, given] = this.positional(this.args, "ALIAS and an optional IDENTITY", 1, 1);
    const created = await this.withKms(ctx, aliasName, `Failed to create identity${given === undefined ? "" : ` \`${given}\``}.`, async ({ client, lib }) => {
      const apiKey = given === undefined ? lib.newApiKey() : undefined;
      const identity = given ?? lib.identityOfSeed(lib.parseApiKey(apiKey ?? "") ?? new Uint8Array(0));
      const body = { ...(this.policy === undefined ? {} : { policy: this.policy }), ...(this.admin === true ? { admin: true } : {}) };
      await client.call("POST", `/v1/identity/create/${seg(identity)}`, body);
      return { apiKey, identity };
    });
    const policies = this.policy === undefined ? [] : [this.policy];
    const key = created.apiKey === undefined ? {} : { apiKey: created.apiKey };
    const value = { status: "success", identity: created.identity, ...key, policies, isAdmin: this.admin === true };
    this.fields(ctx, value, { ...(created.apiKey === undefined ? {} : { "API Key": created.apiKey }), Identity: created.identity, Policies: policies, IsAdmin: value.isAdmin });
    // On stderr, so that scripts reading the key from stdout get only the fields.
    if (!ctx.output.json && created.apiKey !== undefined) process.stderr.write("mc: The API key is shown only this once; it is not stored. Keep it in your secret store.\n");
    return 0;
  }
}
