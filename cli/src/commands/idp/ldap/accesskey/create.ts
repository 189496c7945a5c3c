import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../../runtime/base-command.js";
import type { McContext } from "../../../../runtime/context.js";
import { runLdapAccessKeyCreate } from "../../../../minio-admin/access-key-run.js";

/** `mc idp ldap accesskey create ALIAS [TARGET_USER]` (upstream cmd/idp-ldap-accesskey-create.go). */
export class IdpLdapAccesskeyCreateCommand extends BaseCommand {
  static override paths = [["idp", "ldap", "accesskey", "create"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "create access key pairs for LDAP",
    examples: [
      ["Create an access key for yourself as an LDAP user.", "$0 idp ldap accesskey create myminio"],
      ["Create one for another LDAP user that expires in a week.", "$0 idp ldap accesskey create myminio \"uid=alice,ou=people,dc=example,dc=net\" --expiry-duration 168h"],
      ["Create one with chosen keys and a name.", "$0 idp ldap accesskey create myminio --access-key alice-ci --secret-key \"a-long-secret-of-40-characters-or-so\" --name ci"],
    ],
  });
  accessKey = Option.String("--access-key", { description: "set an access key for the account" });
  secretKey = Option.String("--secret-key", { description: "set a secret key for the account" });
  policy = Option.String("--policy", { description: "path to a JSON policy file" });
  name = Option.String("--name", { description: "friendly name for the access key" });
  description = Option.String("--description", { description: "description for the access key" });
  expiryDuration = Option.String("--expiry-duration", { description: "duration before the access key expires" });
  expiry = Option.String("--expiry", { description: "expiry date for the access key" });
  args = Option.Rest({ name: "ALIAS [TARGET_USER]" });

  async run(ctx: McContext): Promise<void> {
    await runLdapAccessKeyCreate(ctx, this.args, { accessKey: this.accessKey, secretKey: this.secretKey, policy: this.policy, name: this.name, description: this.description, expiryDuration: this.expiryDuration, expiry: this.expiry });
  }
}
