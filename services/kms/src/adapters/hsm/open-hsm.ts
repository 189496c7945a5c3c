import type { HsmConfig } from "../../config/config.js";
import { StartupError } from "../../config/startup-error.js";
import type { Hsm } from "./hsm.js";
import { createSoftwareHsm, hsmKeyFromPassphrase, parseHsmKey } from "./software-hsm.js";

/** Opens the configured HSM, with the contract's startup errors. */
export async function openHsm(config: HsmConfig, env: NodeJS.ProcessEnv): Promise<Hsm> {
  switch (config.kind) {
    case "key": {
      const key = parseHsmKey(config.key);
      if (!key) throw new StartupError("kms: invalid HSM key: expected hsm:aes256:<base64 of 32 bytes>");
      return createSoftwareHsm(key);
    }
    case "passphrase": {
      const passphrase = env[config.env];
      if (!passphrase) throw new StartupError(`kms: no HSM provided: passphrase variable ${config.env} is not set`);
      const salt = Buffer.from(config.salt, "base64");
      if (salt.length !== 16) throw new StartupError("kms: invalid HSM passphrase salt: expected base64 of 16 bytes");
      return createSoftwareHsm(hsmKeyFromPassphrase(passphrase, new Uint8Array(salt)), "passphrase");
    }
    case "pkcs11": {
      const { openPkcs11Hsm } = await import("./pkcs11-hsm.js");
      return openPkcs11Hsm(config, env);
    }
  }
}
