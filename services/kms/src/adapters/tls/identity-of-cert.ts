import { createHash, X509Certificate } from "node:crypto";
import { identityOfHash, type Identity } from "../../domain/identity.js";

/** `h1:` identity of a certificate: SHA-256 over its SubjectPublicKeyInfo DER. */
export function identityOfCertificate(cert: X509Certificate | string | Buffer): Identity {
  const c = cert instanceof X509Certificate ? cert : new X509Certificate(cert);
  const spki = c.publicKey.export({ type: "spki", format: "der" });
  return identityOfHash(createHash("sha256").update(spki).digest());
}
