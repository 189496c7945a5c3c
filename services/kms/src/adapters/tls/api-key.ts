import { createHash, createPrivateKey, createPublicKey, randomBytes, webcrypto, type KeyObject } from "node:crypto";
import { identityOfHash, type Identity } from "../../domain/identity.js";
import { x509 } from "./x509.js";

const pkcs8Prefix = Buffer.from("302e020100300506032b657004220420", "hex");

/** The 32-byte Ed25519 seed of `k1:<base64url>` or KES `kes:v1:<base64(0x00 ‖ seed)>`; undefined otherwise. */
export function parseApiKey(text: string): Uint8Array | undefined {
  if (text.startsWith("k1:")) {
    const b = Buffer.from(text.slice(3), "base64url");
    return b.length === 32 && /^[A-Za-z0-9_-]{43}$/.test(text.slice(3)) ? new Uint8Array(b) : undefined;
  }
  if (text.startsWith("kes:v1:")) {
    const b = Buffer.from(text.slice(7), "base64");
    return b.length === 33 && b[0] === 0 ? new Uint8Array(b.subarray(1)) : undefined;
  }
  return undefined;
}

export function formatApiKey(seed: Uint8Array): string {
  return `k1:${Buffer.from(seed).toString("base64url")}`;
}

export function newApiKey(): string {
  return formatApiKey(randomBytes(32));
}

export function privateKeyOfSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([pkcs8Prefix, seed]), format: "der", type: "pkcs8" });
}

export function identityOfSeed(seed: Uint8Array): Identity {
  const spki = createPublicKey(privateKeyOfSeed(seed)).export({ type: "spki", format: "der" });
  return identityOfHash(createHash("sha256").update(spki).digest());
}

export interface ClientCertificate {
  readonly cert: string;
  readonly key: string;
  readonly identity: Identity;
}

/**
 * Contract §2: the API key becomes a self-signed Ed25519 client certificate
 * (CN = identity, EKU clientAuth, 90 days), so only the public key is sent.
 */
export async function clientCertificateOf(seed: Uint8Array): Promise<ClientCertificate> {
  const priv = privateKeyOfSeed(seed);
  const pkcs8 = priv.export({ type: "pkcs8", format: "der" });
  const spki = createPublicKey(priv).export({ type: "spki", format: "der" });
  const privateKey = await webcrypto.subtle.importKey("pkcs8", pkcs8, { name: "Ed25519" }, true, ["sign"]);
  const publicKey = await webcrypto.subtle.importKey("spki", spki, { name: "Ed25519" }, true, ["verify"]);
  const identity = identityOfSeed(seed);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString("hex").replace(/^[89a-f]/, "1"),
    name: `CN=${identity}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 90 * 86_400_000),
    keys: { privateKey, publicKey },
    signingAlgorithm: { name: "Ed25519" },
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
    ],
  });
  return { cert: `${cert.toString("pem").trimEnd()}\n`, key: priv.export({ type: "pkcs8", format: "pem" }).toString(), identity };
}
