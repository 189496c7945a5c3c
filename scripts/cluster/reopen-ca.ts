// Issues server certificates from a CA kept on disk (ca.crt + ca.key), so a
// node added later, or a renewed certificate, chains to the same CA the
// clients already trust. createDevCa only makes new CAs.
import { randomBytes, webcrypto } from "node:crypto";
import { isIP } from "node:net";
import type { CertPair } from "@mc/kms";
import { x509 } from "../../services/kms/src/adapters/tls/x509.js";

const ecdsa = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

export interface KeptCa {
  /** A server certificate for the hosts; `days` may be 0 (already expired: for troubleshooting drills). */
  issueServer(hosts: readonly string[], days?: number): Promise<CertPair>;
}

function pemBody(pem: string, label: string): Buffer {
  const m = new RegExp(`-----BEGIN ${label}-----([^-]+)-----END ${label}-----`).exec(pem);
  if (!m?.[1]) throw new Error(`no ${label} in PEM text`);
  return Buffer.from(m[1].replace(/\s+/g, ""), "base64");
}

const pemOf = (der: ArrayBuffer, label: string): string =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n").trimEnd()}\n-----END ${label}-----\n`;

export async function reopenCa(caPem: string, caKeyPem: string): Promise<KeptCa> {
  const ca = new x509.X509Certificate(caPem);
  const signingKey = await webcrypto.subtle.importKey("pkcs8", pemBody(caKeyPem, "PRIVATE KEY"), ecdsa, false, ["sign"]);
  return {
    async issueServer(hosts, days = 365) {
      const leaf = (await webcrypto.subtle.generateKey(ecdsa, true, ["sign", "verify"])) as CryptoKeyPair;
      const now = Date.now();
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: randomBytes(8).toString("hex").replace(/^[89a-f]/, "1"),
        subject: `CN=${hosts[0] ?? "localhost"}`,
        issuer: ca.subject,
        // An expired drill certificate ends before now but starts after its issuer did.
        notBefore: new Date(days > 0 ? now - 60_000 : now - 120_000),
        notAfter: new Date(days > 0 ? now + days * 86_400_000 : now - 60_000),
        publicKey: leaf.publicKey,
        signingKey,
        signingAlgorithm: ecdsa,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(hosts.map((h): x509.JsonGeneralName => (isIP(h) ? { type: "ip", value: h } : { type: "dns", value: h }))),
        ],
      });
      return { cert: `${cert.toString("pem").trimEnd()}\n`, key: pemOf(await webcrypto.subtle.exportKey("pkcs8", leaf.privateKey), "PRIVATE KEY") };
    },
  };
}
