import { AppError } from "@mc/shared/errors";

/** An identity in its output form: `h1:` + base64url(SHA-256 of the SPKI DER). */
export type Identity = string;

const h1Pattern = /^h1:[A-Za-z0-9_-]{43}$/;
// Hex is case-insensitive, so an upper-case spelling names the same identity
// (refusing it would only move the spelling problem into policies).
const hexPattern = /^[0-9a-fA-F]{64}$/;

/** `h1:` form of a 32-byte SPKI hash. */
export function identityOfHash(hash: Uint8Array): Identity {
  return `h1:${Buffer.from(hash).toString("base64url")}`;
}

/** The KES spelling (64 lowercase hex chars) of an `h1:` identity. */
export function hexOfIdentity(id: Identity): string {
  return Buffer.from(id.slice(3), "base64url").toString("hex");
}

/**
 * Accepts the `h1:` form and the KES form (64 hex chars, either case) and
 * returns the `h1:` form, or undefined when the text is neither.
 */
export function parseIdentity(text: string): Identity | undefined {
  if (h1Pattern.test(text)) {
    const bytes = Buffer.from(text.slice(3), "base64url");
    return bytes.length === 32 && identityOfHash(bytes) === text ? text : undefined;
  }
  if (hexPattern.test(text)) return identityOfHash(Buffer.from(text, "hex"));
  return undefined;
}

export function identityInvalid(text: string): AppError {
  return new AppError("invalid_argument", `identity '${text}' is not a valid identity`);
}

export function checkIdentity(text: string): Identity {
  const id = parseIdentity(text);
  if (id === undefined) throw identityInvalid(text);
  return id;
}
