import type { X509Certificate } from "node:crypto";
import type { TLSSocket } from "node:tls";

/**
 * The certificates the client sent, in the order it sent them.
 *
 * `getPeerCertificate(true)` cannot tell: it rebuilds an issuer chain from
 * the sent list and silently drops every certificate that does not chain, so
 * a second, unrelated leaf is invisible there. `getPeerX509Certificate()`
 * links the sent list as it is through `issuerCertificate`; but in Node 20
 * building that list consumes the socket's stored copy, so it is read once
 * per connection, before anything else asks for the peer's chain.
 */
export function presentedCertificates(socket: TLSSocket): X509Certificate[] {
  const list: X509Certificate[] = [];
  if (typeof socket.getPeerX509Certificate !== "function") return list;
  for (let c = socket.getPeerX509Certificate(); c; c = c.issuerCertificate) list.push(c);
  return list;
}

/**
 * One client certificate, with or without its issuers. The first certificate
 * is the one whose key the client proved in the handshake; every other one
 * must be a CA certificate that issued (name and signature) another one of
 * the list, in any order (RFC 8446 §4.4.2 allows unordered chains). A second
 * leaf, or any certificate that certifies nothing sent, makes the list more
 * than one client certificate (contract §5), so the identity is never taken
 * from a handshake that carried another one.
 */
export function isSingleClientChain(list: readonly X509Certificate[]): boolean {
  return list.every((issuer, i) => i === 0 || (issuer.ca && list.some((c, j) => j !== i && c.checkIssued(issuer) && c.verify(issuer.publicKey))));
}
