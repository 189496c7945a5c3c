import { randomBytes, webcrypto } from "node:crypto";
import { isIP } from "node:net";
import { x509 } from "./x509.js";

export interface CertPair {
  readonly cert: string;
  readonly key: string;
}

const ecdsa = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const serial = () => randomBytes(8).toString("hex").replace(/^[89a-f]/, "1");

async function pem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n").trimEnd()}\n-----END PRIVATE KEY-----\n`;
}

export interface DevCa extends CertPair {
  /** Issues a server certificate for the given host names and IPs. */
  issueServer(hosts: readonly string[], days?: number): Promise<CertPair>;
  /** Issues a client certificate (EKU clientAuth), e.g. for `tls.auth: verify`. */
  issueClient(name: string, days?: number): Promise<CertPair>;
}

/** A development CA (ECDSA P-256) that issues server certificates. */
export async function createDevCa(name = "KMS development CA", days = 3650): Promise<DevCa> {
  const keys = (await webcrypto.subtle.generateKey(ecdsa, true, ["sign", "verify"])) as CryptoKeyPair;
  const now = Date.now();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + days * 86_400_000),
    keys,
    signingAlgorithm: ecdsa,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  async function issue(subject: string, usage: string, validDays: number, hosts: readonly string[]): Promise<CertPair> {
    const leaf = (await webcrypto.subtle.generateKey(ecdsa, true, ["sign", "verify"])) as CryptoKeyPair;
    const sans = hosts.map((h): x509.JsonGeneralName => (isIP(h) ? { type: "ip", value: h } : { type: "dns", value: h }));
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: serial(),
      subject,
      issuer: ca.subject,
      notBefore: new Date(Date.now() - 60_000),
      notAfter: new Date(Date.now() + validDays * 86_400_000),
      publicKey: leaf.publicKey,
      signingKey: keys.privateKey,
      signingAlgorithm: ecdsa,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.ExtendedKeyUsageExtension([usage]),
        ...(sans.length > 0 ? [new x509.SubjectAlternativeNameExtension(sans)] : []),
      ],
    });
    return { cert: `${cert.toString("pem").trimEnd()}\n`, key: await pem(leaf.privateKey) };
  }
  return {
    cert: `${ca.toString("pem").trimEnd()}\n`,
    key: await pem(keys.privateKey),
    issueServer: (hosts, serverDays = 365) => issue(`CN=${hosts[0] ?? "localhost"}`, x509.ExtendedKeyUsage.serverAuth, serverDays, hosts),
    issueClient: (name, clientDays = 365) => issue(`CN=${name}`, x509.ExtendedKeyUsage.clientAuth, clientDays, []),
  };
}
