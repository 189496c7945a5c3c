import { Command, Option } from "clipanion";
import type { McContext } from "../../../../runtime/context.js";
import { mcError, usageError } from "../../../../core/errors.js";
import { kmsAlias, openKms } from "../../../../kms/kms-alias.js";
import { KmsCommand } from "../../../../kms/kms-command.js";

/** The fixed context bound to the test data key (kms.md §10). */
const statusContext = new TextEncoder().encode("mc admin kms key status");

/**
 * `mc admin kms key status ALIAS KEY_NAME` (contracts/mc.md §5, kms.md §10):
 * generate a data key, decrypt it, compare. A failed step exits 1;
 * network and TLS failures are fatal.
 */
export class AdminKmsKeyStatusCommand extends KmsCommand {
  static override paths = [["admin", "kms", "key", "status"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "check that a KMS master key can encrypt and decrypt",
    examples: [
      ["Check that a master key can encrypt and decrypt.", "$0 admin kms key status mykms my-key"],
      ["Check a key of an enclave.", "$0 admin kms key status --enclave tenant-1 mykms app-key"],
      ["Check it from a monitoring job (exit 1 when a step fails).", "$0 admin kms key status --json mykms my-key || echo \"my-key is not usable\" >&2"],
    ],
  });
  args = Option.Rest({ name: "ALIAS KEY_NAME" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName, keyName, ...rest] = this.args;
    if (keyName === undefined || keyName === "" || rest.length > 0) throw usageError("admin kms key status needs ALIAS and KEY_NAME (there is no default key).");
    const alias = kmsAlias(ctx, aliasName);
    const { client, isClientError } = await openKms(ctx, alias, this.enclave);
    const step = (err: unknown): string => {
      if (isClientError(err)) return err.message;
      throw mcError(`Unable to reach the KMS of alias \`${alias.name}\`.`, err);
    };
    let encryptionError: string | undefined;
    let decryptionError: string | undefined;
    try {
      let generated: { plaintext: string; ciphertext: string } | undefined;
      try {
        generated = await client.generate(keyName, statusContext);
      } catch (err) {
        encryptionError = step(err);
        decryptionError = encryptionError;
      }
      if (generated) {
        try {
          const { plaintext } = await client.decrypt(keyName, generated.ciphertext, statusContext);
          if (plaintext !== generated.plaintext) decryptionError = "The generated and the decrypted data key do not match";
        } catch (err) {
          decryptionError = step(err);
        }
      }
    } finally {
      client.close();
    }
    const status = encryptionError !== undefined && decryptionError !== undefined ? "error" : "success";
    const value = {
      keyId: keyName,
      encryption: encryptionError === undefined,
      decryption: decryptionError === undefined,
      ...(encryptionError === undefined ? {} : { encryptionError }),
      ...(decryptionError === undefined ? {} : { decryptionError }),
      status,
    };
    const mark = (error: string | undefined): string => (error === undefined ? "✔" : `✗ (${error})`);
    if (ctx.output.json) {
      const tty = (ctx.output.stdout as { isTTY?: boolean }).isTTY === true;
      ctx.output.stdout.write(`${tty ? JSON.stringify(value, null, 4) : JSON.stringify(value)}\n`);
    } else {
      ctx.output.line(`Key: ${keyName}\n   - Encryption ${mark(encryptionError)}\n   - Decryption ${mark(decryptionError)}`);
    }
    return encryptionError === undefined && decryptionError === undefined ? 0 : 1;
  }
}
