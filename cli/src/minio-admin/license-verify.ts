import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

/**
 * A SUBNET license is a JWT signed with ES384 (minio/pkg licverifier). It is
 * checked offline against SUBNET's published public key, the one upstream mc
 * carries for air-gapped use (https://subnet.min.io/downloads/license-pubkey.pem).
 * MC_SUBNET_LICENSE_PUBKEY (PEM text or a file holding it) replaces that key,
 * as MC_UPDATE_MINISIGN_PUBKEY does for updates: for a private SUBNET or tests.
 */
const subnetPublicKey = [
  "-----BEGIN PUBLIC KEY-----",
  "MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEaK31xujr6/rZ7ZfXZh3SlwovjC+X8wGq",
  "qkltaKyTLRENd4w3IRktYYCRgzpDLPn/nrf7snV/ERO5qcI7fkEES34IVEr+2Uff",
  "JkO2PfyyAYEO/5dBlPh1Undu9WQl6J7B",
  "-----END PUBLIC KEY-----",
].join("\n");

/** What a license says (licverifier's LicenseInfo). */
export interface LicenseInfo {
  readonly licenseId: string;
  readonly email: string;
  readonly organization: string;
  readonly accountId: number;
  readonly deploymentId: string;
  readonly storageCapacity: number;
  readonly plan: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date | undefined;
  readonly apiKey: string;
  readonly isTrial: boolean;
}

function licenseKey(env: NodeJS.ProcessEnv): KeyObject {
  const override = env["MC_SUBNET_LICENSE_PUBKEY"] ?? "";
  let pem = subnetPublicKey;
  if (override !== "") pem = override.includes("BEGIN") ? override : existsSync(override) ? readFileSync(override, "utf8") : override;
  try {
    return createPublicKey(pem);
  } catch (err) {
    throw new Error(`failed to parse public key: ${(err as Error).message}`);
  }
}

const b64url = (s: string): Buffer => Buffer.from(s.replace(/-/g, "+").replace(/_/g, "/"), "base64");

/** Verifies the license's signature and reads its claims; an error says why it is refused. */
export function verifyLicense(license: string, env: NodeJS.ProcessEnv = process.env, now = new Date()): LicenseInfo {
  const parts = license.trim().split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) throw new Error("failed to verify license: not a signed token (three base64url parts)");
  const [head = "", body = "", sig = ""] = parts;
  let header: { alg?: unknown };
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(b64url(head).toString("utf8")) as { alg?: unknown };
    claims = JSON.parse(b64url(body).toString("utf8")) as Record<string, unknown>;
  } catch {
    throw new Error("failed to verify license: the token is not JSON");
  }
  if (header.alg !== "ES384") throw new Error(`failed to verify license: algorithm ${String(header.alg)} is not ES384`);
  const signature = b64url(sig);
  const good = signature.length === 96 && verify("sha384", Buffer.from(`${head}.${body}`), { key: licenseKey(env), dsaEncoding: "ieee-p1363" }, signature);
  if (!good) throw new Error("failed to verify license: could not verify message using any of the signatures or keys");
  const num = (k: string): number | undefined => (typeof claims[k] === "number" ? (claims[k] as number) : undefined);
  const str = (k: string): string => (typeof claims[k] === "string" ? (claims[k] as string) : "");
  const nbf = num("nbf");
  if (nbf !== undefined && nbf * 1000 > now.getTime()) throw new Error('failed to verify license: "nbf" not satisfied');
  const aid = num("aid");
  if (aid === undefined || aid < 0) throw new Error("invalid accountId in claims");
  if (typeof claims["org"] !== "string") throw new Error("invalid organization in claims");
  const cap = num("cap");
  if (cap === undefined) throw new Error("invalid storage capacity in claims");
  if (typeof claims["plan"] !== "string") throw new Error("invalid plan in claims");
  const iat = num("iat");
  if (iat === undefined) throw new Error("invalid issuedAt in claims");
  const exp = num("exp");
  return {
    licenseId: str("lid"),
    email: str("sub"),
    organization: str("org"),
    accountId: Math.trunc(aid),
    deploymentId: str("did"),
    storageCapacity: Math.trunc(cap),
    plan: str("plan"),
    issuedAt: new Date(iat * 1000),
    expiresAt: exp === undefined ? undefined : new Date(exp * 1000),
    apiKey: str("apiKey"),
    isTrial: claims["trial"] === true,
  };
}
