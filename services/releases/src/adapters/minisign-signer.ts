import { mkdir, open, readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { AppError } from "@mc/shared/errors";
import {
  createMinisignKeyPair,
  formatMinisignPublicKey,
  formatMinisignSecretKey,
  minisignPublicKeyOf,
  parseMinisignPublicKey,
  parseMinisignSecretKey,
  signMinisign,
  verifyMinisign,
  type MinisignSecretKey,
} from "@mc/wasm";
import type { Signer } from "../domain/publish-release.js";

function signerOf(key: MinisignSecretKey): Signer {
  const publicKey = minisignPublicKeyOf(key);
  return {
    publicKey,
    publicKeyFile: () => formatMinisignPublicKey(publicKey),
    sign(data, fileName) {
      const timestamp = Math.floor(Date.now() / 1000);
      return signMinisign(key, data, { trustedComment: `timestamp:${timestamp}\tfile:${fileName}\thashed`, fileName });
    },
    verify(data, signature, publicKeyFile) {
      try {
        verifyMinisign(parseMinisignPublicKey(publicKeyFile), data, signature);
      } catch {
        throw new AppError("failed_precondition", "the signing key does not match the store's minisign.pub");
      }
    },
  };
}

/**
 * Loads the release signing key (an unencrypted minisign secret key file,
 * mode 0600), creating it on first use when `create` is set. The key never
 * enters the store.
 */
export async function loadMinisignSigner(path: string, options: { create: boolean }): Promise<Signer> {
  let text: string | undefined;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  if (text === undefined) {
    if (!options.create) throw new AppError("failed_precondition", `no release signing key at ${path}`);
    const key = createMinisignKeyPair();
    await mkdir(dirname(path), { recursive: true });
    const handle = await open(path, "wx", 0o600);
    try {
      await handle.writeFile(formatMinisignSecretKey(key));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return signerOf(key);
  }
  // Like ssh with a private key, refuse a key others can read.
  if (((await stat(path)).mode & 0o077) !== 0) throw new AppError("failed_precondition", `release signing key ${path} must have mode 0600`);
  return signerOf(parseMinisignSecretKey(text));
}
