import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { AppError } from "@mc/shared/errors";
import type { Caller } from "../../domain/authz.js";
import { canonicalRequest } from "../../domain/canonical-request.js";
import { requestIdPattern } from "../../domain/sessions.js";
import { identityOfCertificate } from "../tls/identity-of-cert.js";
import { isSingleClientChain, presentedCertificates } from "../tls/presented-chain.js";

/** What the edge knows about a request before any route runs. */
export interface RequestInfo {
  readonly ip: string;
  /** The `h1:` identity of the client certificate, if one was sent. */
  readonly identity: string | undefined;
  /** Set when the certificate cannot be used (several leaves, unverified chain). */
  readonly certError: AppError | undefined;
  /** The enclave header value ("default" when absent). */
  readonly enclave: string;
  /** The `kms-request-id` header value, unchecked (callerOf checks it). */
  readonly requestId: string | undefined;
  /** The path the request is checked and audited as (set by the route). */
  path: string;
  /**
   * The status a refusal carries when the HTTP status cannot: a Connect
   * stream answers 200 and puts its error in the end of the stream; the audit
   * line shows the status that error has on REST (contract §9).
   */
  refused: number | undefined;
}

type Peer = { identity: string | undefined; error: AppError | undefined };
const perSocket = new WeakMap<TLSSocket, Peer>();

/**
 * The caller's identity from the TLS client certificate, computed once per
 * connection (a connection's certificate never changes).
 */
function peerOf(socket: TLSSocket, verify: boolean): Peer {
  let peer = perSocket.get(socket);
  if (peer) return peer;
  const presented = presentedCertificates(socket);
  const cert = presented[0];
  if (!cert) {
    peer = { identity: undefined, error: undefined };
  } else if (!isSingleClientChain(presented)) {
    peer = { identity: undefined, error: new AppError("invalid_argument", "tls: received more than one client certificate") };
  } else if (verify && !socket.authorized) {
    peer = { identity: undefined, error: new AppError("unauthenticated", "tls: client certificate is required", { cause: socket.authorizationError }) };
  } else {
    peer = { identity: identityOfCertificate(cert), error: undefined };
  }
  perSocket.set(socket, peer);
  return peer;
}

/** One RequestInfo per request, made on first use; REST and Connect share it. */
export function createRequestInfos(verify: boolean): (req: IncomingMessage) => RequestInfo {
  const infos = new WeakMap<IncomingMessage, RequestInfo>();
  return (req) => {
    let info = infos.get(req);
    if (!info) {
      info = requestInfoOf(req, verify);
      infos.set(req, info);
    }
    return info;
  };
}

function requestInfoOf(req: IncomingMessage, verify: boolean): RequestInfo {
  const peer = peerOf(req.socket as TLSSocket, verify);
  const header = req.headers["kms-enclave"];
  const enclave = Array.isArray(header) ? (header[0] ?? "") : (header ?? "default");
  const requestId = req.headers["kms-request-id"];
  return {
    ip: req.socket.remoteAddress ?? "",
    identity: peer.identity,
    certError: peer.error,
    enclave,
    requestId: Array.isArray(requestId) ? requestId.join(",") : requestId,
    path: (req.url ?? "/").split("?")[0] ?? "/",
    refused: undefined,
  };
}

/**
 * The domain caller for a request to `route` with its (decoded) placeholder
 * values: the certificate's errors first, then the canonical request that
 * both edges share. The audit record shows the canonical path once there is
 * one, the path as sent otherwise.
 */
export function callerOf(info: RequestInfo, route: string, params: Readonly<Record<string, string>> = {}): Caller {
  let request;
  try {
    request = canonicalRequest(route, params, info.enclave);
  } catch (err) {
    throw info.certError ?? err;
  }
  info.path = request.path;
  if (info.certError) throw info.certError;
  if (info.requestId === undefined) return { ...request, identity: info.identity };
  if (!requestIdPattern.test(info.requestId)) throw new AppError("invalid_argument", "invalid header 'kms-request-id'");
  return { ...request, identity: info.identity, requestId: info.requestId };
}
