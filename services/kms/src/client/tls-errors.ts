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
  // A plain-HTTP (or other non-TLS) server on the port: OpenSSL's text names a
  // source file and line; Go's one-line wording says what happened.
  if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || (code === "EPROTO" && err instanceof Error && err.message.includes("wrong version number"))) {
    return new Error("tls: first record does not look like a TLS handshake", { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}
