import { X509Certificate, createHash } from "node:crypto";
import { connect } from "node:tls";

export interface PeerCertificate {
  readonly pem: string;
  /** SHA-256 of the SubjectPublicKeyInfo DER, hex. */
  readonly fingerprint: string;
  readonly selfSigned: boolean;
}

const unknownAuthority = new Set(["DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY"]);

export function isUnknownAuthority(err: unknown): boolean {
  const code = typeof err === "object" && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && unknownAuthority.has(code);
}

/** The server's leaf certificate, fetched without verification only to show its fingerprint. */
export function fetchPeerCertificate(host: string, port: number): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, servername: host, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerCertificate(false).raw;
      socket.end();
      const cert = new X509Certificate(raw);
      const spki = cert.publicKey.export({ type: "spki", format: "der" });
      const keyId = createHash("sha1").update(spki).digest();
      // Self-signed: issued by itself and verifiable with its own key (covers certificates without an AKI).
      const selfSigned = cert.issuer === cert.subject && cert.verify(cert.publicKey);
      resolve({ pem: cert.toString(), fingerprint: createHash("sha256").update(spki).digest("hex"), selfSigned: selfSigned || keyId.length === 0 });
    });
    socket.once("error", reject);
  });
}
