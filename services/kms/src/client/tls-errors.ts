const unknownAuthority = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
]);

/** Contract §10: Node's untrusted-certificate codes become Go's wording; other errors keep Node's message. */
export function mapTlsError(err: unknown): Error {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string" && unknownAuthority.has(code)) {
    return new Error("tls: certificate signed by unknown authority", { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}
