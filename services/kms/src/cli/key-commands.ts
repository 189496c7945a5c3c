// The commands that print a new secret or an identity and end.
import { readFile } from "node:fs/promises";
import { Option, ProgramCommand } from "@mc/shared/program";
import { newHsmKey } from "../adapters/hsm/software-hsm.js";
import { identityOfSeed, newApiKey, parseApiKey } from "../adapters/tls/api-key.js";
import { identityOfCertificate } from "../adapters/tls/identity-of-cert.js";
import { StartupError } from "../config/startup-error.js";

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** `kms hsm new`: a new software HSM key. */
export class HsmNewCommand extends ProgramCommand {
  static override paths = [["hsm", "new"]];
  static override help = "Usage: kms hsm new\n\nPrints a new software HSM key (hsm:aes256:<base64>) for the hsm.key of a configuration.\n";

  async run(): Promise<void> {
    out(newHsmKey());
  }
}

/** `kms apikey new`: a new API key and the identity it authenticates as. */
export class ApiKeyNewCommand extends ProgramCommand {
  static override paths = [["apikey", "new"]];
  static override help = "Usage: kms apikey new\n\nPrints a new API key (k1:...) and the identity (h1:...) it authenticates as.\n";

  async run(): Promise<void> {
    const key = newApiKey();
    const seed = parseApiKey(key) ?? new Uint8Array(0);
    out(`API Key  ${key}`);
    out(`Identity ${identityOfSeed(seed)}`);
  }
}

/** `kms identity of CERT.pem`: the identity of a certificate. */
export class IdentityOfCommand extends ProgramCommand {
  static override paths = [["identity", "of"]];
  static override help = "Usage: kms identity of CERT.pem\n\nPrints the identity (h1:...) of a client certificate, as the KMS sees it.\n";

  file = Option.String({ required: false });

  async run(): Promise<void> {
    const file = this.file;
    if (!file) throw new StartupError("kms: identity of needs a certificate file");
    const pem = await readFile(file).catch(() => {
      throw new StartupError(`kms: cannot read certificate: ${file}`);
    });
    out(identityOfCertificate(pem));
  }
}
