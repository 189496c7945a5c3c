import { hkdfSync, randomBytes } from "node:crypto";
import pkcs11js from "pkcs11js";
import type { HsmConfig } from "../../config/config.js";
import { StartupError } from "../../config/startup-error.js";
import { checkValueLabel, clusterKeyLabel, HsmMismatchError, rootSeedLabel, wrapLabel, type Hsm } from "./hsm.js";

type Pkcs11Config = HsmConfig & { kind: "pkcs11" };
type Handle = Buffer;

const errText = (err: unknown): string => (err instanceof Error ? err.message.split("\n")[0] ?? "" : String(err));

/**
 * An external HSM over PKCS#11. Two token objects, made on first use and
 * never extractable: an AES-256 key that wraps the root key (CBC-PAD with a
 * random IV) and an HMAC-SHA256 key that authenticates the wrapped form and
 * derives the root seed and check value. No key leaves the token.
 */
export function openPkcs11Hsm(config: Pkcs11Config, env: NodeJS.ProcessEnv): Promise<Hsm> {
  const pin = env[config.pinEnv];
  if (pin === undefined || pin === "") return Promise.reject(new StartupError(`kms: HSM login failed: PIN variable ${config.pinEnv} is not set`));
  const p11 = new pkcs11js.PKCS11();
  let session: Handle;
  try {
    p11.load(config.module);
    p11.C_Initialize();
  } catch (err) {
    return Promise.reject(new StartupError(`kms: HSM is not reachable: cannot load PKCS#11 module ${config.module}: ${errText(err)}`));
  }
  try {
    const slot = p11.C_GetSlotList(true).find((s) => p11.C_GetTokenInfo(s).label.trim() === config.token);
    if (!slot) throw new Error(`no token labelled '${config.token}'`);
    session = p11.C_OpenSession(slot, pkcs11js.CKF_RW_SESSION | pkcs11js.CKF_SERIAL_SESSION);
    p11.C_Login(session, pkcs11js.CKU_USER, pin);
  } catch (err) {
    p11.C_Finalize();
    return Promise.reject(new StartupError(`kms: HSM login failed: ${errText(err)}`));
  }

  const find = (label: string): Handle | null => {
    p11.C_FindObjectsInit(session, [
      { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_SECRET_KEY },
      { type: pkcs11js.CKA_LABEL, value: label },
    ]);
    const h = p11.C_FindObjects(session);
    p11.C_FindObjectsFinal(session);
    return h;
  };
  const secret = [
    { type: pkcs11js.CKA_TOKEN, value: true },
    { type: pkcs11js.CKA_PRIVATE, value: true },
    { type: pkcs11js.CKA_SENSITIVE, value: true },
    { type: pkcs11js.CKA_EXTRACTABLE, value: false },
  ];
  const aesLabel = config.keyLabel;
  const macLabel = `${config.keyLabel}-hmac`;
  const aes =
    find(aesLabel) ??
    p11.C_GenerateKey(session, { mechanism: pkcs11js.CKM_AES_KEY_GEN }, [
      ...secret,
      { type: pkcs11js.CKA_LABEL, value: aesLabel },
      { type: pkcs11js.CKA_VALUE_LEN, value: 32 },
      { type: pkcs11js.CKA_ENCRYPT, value: true },
      { type: pkcs11js.CKA_DECRYPT, value: true },
    ]);
  const mac =
    find(macLabel) ??
    p11.C_GenerateKey(session, { mechanism: pkcs11js.CKM_GENERIC_SECRET_KEY_GEN }, [
      ...secret,
      { type: pkcs11js.CKA_LABEL, value: macLabel },
      { type: pkcs11js.CKA_VALUE_LEN, value: 32 },
      { type: pkcs11js.CKA_SIGN, value: true },
      { type: pkcs11js.CKA_VERIFY, value: true },
    ]);
  const hmac = (data: Uint8Array): Buffer => {
    p11.C_SignInit(session, { mechanism: pkcs11js.CKM_SHA256_HMAC }, mac);
    return Buffer.from(p11.C_Sign(session, Buffer.from(data), Buffer.alloc(32)));
  };
  const label = Buffer.from(wrapLabel);

  return Promise.resolve({
    kind: "pkcs11",
    wrap(rootKey) {
      const iv = randomBytes(16);
      p11.C_EncryptInit(session, { mechanism: pkcs11js.CKM_AES_CBC_PAD, parameter: iv }, aes);
      const ct = Buffer.from(p11.C_Encrypt(session, Buffer.from(rootKey), Buffer.alloc(rootKey.length + 32)));
      const body = Buffer.concat([iv, ct]);
      return Promise.resolve(new Uint8Array(Buffer.concat([body, hmac(Buffer.concat([label, body]))])));
    },
    unwrap(wrapped) {
      const w = Buffer.from(wrapped);
      if (w.length < 16 + 16 + 32) return Promise.reject(new HsmMismatchError());
      const body = w.subarray(0, w.length - 32);
      if (!hmac(Buffer.concat([label, body])).equals(w.subarray(w.length - 32))) return Promise.reject(new HsmMismatchError());
      p11.C_DecryptInit(session, { mechanism: pkcs11js.CKM_AES_CBC_PAD, parameter: body.subarray(0, 16) }, aes);
      const plain = p11.C_Decrypt(session, body.subarray(16), Buffer.alloc(body.length));
      return Promise.resolve(new Uint8Array(plain));
    },
    rootSeed: () => Promise.resolve(new Uint8Array(hkdfSync("sha256", hmac(Buffer.from(rootSeedLabel)), new Uint8Array(0), rootSeedLabel, 32))),
    clusterRootKey: () => Promise.resolve(new Uint8Array(hkdfSync("sha256", hmac(Buffer.from(clusterKeyLabel)), new Uint8Array(0), clusterKeyLabel, 32))),
    checkValue: () => Promise.resolve(new Uint8Array(hmac(Buffer.from(checkValueLabel)))),
    close() {
      try {
        p11.C_Logout(session);
        p11.C_CloseSession(session);
      } finally {
        p11.C_Finalize();
      }
      return Promise.resolve();
    },
  });
}
