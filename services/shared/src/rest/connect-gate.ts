import type { IncomingMessage, ServerResponse } from "node:http";
import type { DescService } from "@bufbuild/protobuf";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { AppError, type Reason } from "../app-error.js";
import { errorTable } from "../error-mapping.js";
import { answerAndClose } from "./body-limit.js";
import { createConnectInputCheck } from "./connect-input.js";

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ConnectGateOptions {
  /** The Connect adapter (connectNodeAdapter) behind the gate. */
  readonly handler: NodeHandler;
  /** The services it serves: their input messages are what bodies are checked against. */
  readonly services: readonly DescService[];
  readonly maxBodyBytes: number;
  /** Where the cause of an adapter that throws goes; never to the client. */
  readonly onError: (err: unknown) => void;
}

/** The adapter's error body, `{"code","message"}`, with the status of the one reason table. */
export function answerConnectError(res: ServerResponse, err: AppError, close = false): void {
  const body = { code: codeToString(errorTable[err.reason].code), message: err.message };
  const status = errorTable[err.reason].http;
  if (close) {
    answerAndClose(res, status, "application/json", body);
    return;
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }).end(text);
}

const refuse = (res: ServerResponse, reason: Reason, message: string, close = false): void => answerConnectError(res, new AppError(reason, message), close);

/**
 * What a Connect endpoint checks before connect-node sees a request whose
 * body was already read within the limit: an authority it can build a URL
 * from (it throws out of the request listener otherwise, taking the process
 * down), and a body that parses as the method's input.
 */
export function createConnectGate(o: ConnectGateOptions): (req: IncomingMessage, res: ServerResponse, body: Uint8Array) => void {
  const check = createConnectInputCheck(o.services, o.maxBodyBytes);
  return (req, res, body) => {
    const host = req.headers.host;
    if (host === undefined || !URL.canParse(req.url ?? "/", `https://${host}`)) {
      refuse(res, "invalid_argument", "invalid Host header");
      return;
    }
    const verdict = check(req.method ?? "", (req.url ?? "").split("?")[0] ?? "", req.headers, body);
    if (verdict === "too_large") return refuse(res, "payload_too_large", "request body too large");
    if (verdict === "invalid") return refuse(res, "invalid_argument", "invalid request body");
    try {
      o.handler(req, res);
    } catch (err) {
      o.onError(err);
      refuse(res, "internal", "internal error");
    }
  };
}
