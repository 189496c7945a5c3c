import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "../app-error.js";
import { fromConnectError, httpStatusOf } from "../error-mapping.js";
import { createRouteTable, InvalidPathError } from "./route-table.js";
import { bodyReadFor } from "./body-limit.js";

export interface RestRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** The request body (empty for routes that do not read one). */
  readonly body: Uint8Array;
  /** The body parsed as JSON; throws AppError invalid_argument when it is not. */
  json(): unknown;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  readonly raw: IncomingMessage;
}

export interface RestResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A string or bytes as they are, a stream piped, anything else as JSON. */
  readonly body?: string | Uint8Array | Readable | object | null;
  /** Bytes to stream (instead of body), written with backpressure: file downloads. */
  readonly stream?: AsyncIterable<Uint8Array>;
}

export interface RestRoute {
  readonly methods: readonly string[];
  readonly pattern: string;
  /** Routes that take no body refuse one that is sent, as the limit says. */
  readonly readsBody?: boolean;
  handle(req: RestRequest): Promise<RestResponse> | RestResponse;
}

export interface RestErrorAnswer {
  readonly status: number;
  readonly body: object;
}

export interface RestHandlerOptions {
  readonly routes: readonly RestRoute[];
  readonly maxBodyBytes?: number;
  /** Content type of JSON answers. */
  readonly jsonContentType?: string;
  /** The mount's error body; by default `{"code": status, "message": text}`. */
  readonly formatError?: (err: AppError, status: number) => RestErrorAnswer;
  /** The message of a 405; by default "method not allowed". */
  readonly methodNotAllowedMessage?: (method: string, allowed: readonly string[]) => string;
  /** Messages the mount's contract fixes for generic conditions. */
  readonly messages?: Partial<Record<"not_found" | "invalid_body" | "too_large" | "invalid_path", string>>;
  /** Methods treated as another (the KMS takes PUT for POST). */
  readonly methodAliases?: Readonly<Record<string, string>>;
  /** Where causes go; never to the client. */
  readonly onError?: (err: unknown, req: IncomingMessage) => void;
}

export type RestHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Writes chunks straight to the socket, waiting for `drain` when it is full,
 * while the next chunk is already being read (reads and socket writes
 * overlap). Stops reading, closing the source, when the client goes away.
 */
async function pump(chunks: AsyncIterable<Uint8Array>, res: ServerResponse): Promise<void> {
  const it = chunks[Symbol.asyncIterator]();
  let pending = it.next();
  try {
    for (;;) {
      const next = await pending;
      if (next.done || res.destroyed) break;
      pending = it.next();
      if (!res.write(next.value)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            res.off("drain", done);
            res.off("close", done);
            resolve();
          };
          res.on("drain", done);
          res.on("close", done);
        });
      }
    }
    res.end();
  } finally {
    // Let a read in flight finish before closing the source under it.
    await pending.catch(() => undefined);
    await it.return?.();
  }
}

const defaultFormat = (err: AppError, status: number): RestErrorAnswer => ({ status, body: { code: status, message: err.message } });

async function readBody(req: IncomingMessage, limit: number, tooLarge: string): Promise<Uint8Array> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) throw new AppError("payload_too_large", tooLarge);
  const read = bodyReadFor(req);
  if (read !== undefined) {
    if (read.byteLength > limit) throw new AppError("payload_too_large", tooLarge);
    return read;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) throw new AppError("payload_too_large", tooLarge);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Serves a table of documented REST routes on a Node HTTP(S) server: path
 * matching, HEAD for every GET, 405 with `Allow`, the body limit, JSON, and
 * every error through the one reason table (a mount may word the body).
 */
export function createRestHandler(options: RestHandlerOptions): RestHandler {
  const table = createRouteTable(options.routes.map((route) => ({ methods: route.methods, pattern: route.pattern, value: route })));
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  const jsonType = options.jsonContentType ?? "application/json; charset=utf-8";
  const format = options.formatError ?? defaultFormat;
  const msg = { not_found: "not found", invalid_body: "invalid request body", too_large: "request body too large", invalid_path: "invalid request path", ...options.messages };

  function send(res: ServerResponse, head: boolean, answer: RestResponse): Promise<void> | void {
    const headers: Record<string, string> = { ...answer.headers };
    let body = answer.body;
    if (body !== undefined && body !== null && !(typeof body === "string") && !(body instanceof Uint8Array) && !(body instanceof Readable)) {
      body = JSON.stringify(body);
      headers["content-type"] ??= jsonType;
    }
    if (typeof body === "string" || body instanceof Uint8Array) headers["content-length"] ??= String(Buffer.byteLength(body));
    res.writeHead(answer.status ?? 200, headers);
    if (answer.stream) return head ? void res.end() : pump(answer.stream, res);
    if (body instanceof Readable) {
      if (head) {
        body.destroy();
        res.end();
        return;
      }
      return pipeline(body, res);
    }
    res.end(head || body === undefined || body === null ? undefined : body);
  }

  function sendError(res: ServerResponse, head: boolean, err: AppError, extra: Record<string, string> = {}): void {
    const answer = format(err, httpStatusOf(err.reason));
    if (res.headersSent) {
      res.destroy();
      return;
    }
    void send(res, head, { status: answer.status, headers: extra, body: answer.body });
  }

  return async (req, res) => {
    const rawMethod = req.method ?? "GET";
    const method = options.methodAliases?.[rawMethod] ?? rawMethod;
    const head = method === "HEAD";
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const rawPath = q >= 0 ? url.slice(0, q) : url;
    // Made on first use: most routes never look, and an abort costs a DOMException.
    let abort: AbortController | undefined;
    const signal = (): AbortSignal => {
      if (!abort) {
        const controller = new AbortController();
        abort = controller;
        if (res.writableEnded || res.destroyed) controller.abort();
        else res.once("close", () => controller.abort());
      }
      return abort.signal;
    };
    try {
      const found = table.match(method, rawPath);
      if (found.kind === "not_found") throw new AppError("not_found", msg.not_found);
      if (found.kind === "method_not_allowed") {
        const text = options.methodNotAllowedMessage?.(rawMethod, found.allowed) ?? "method not allowed";
        sendError(res, head, new AppError("method_not_allowed", text), { allow: found.allowed.join(", ") });
        return;
      }
      const route = found.value;
      const body = route.readsBody ? await readBody(req, limit, msg.too_large) : new Uint8Array(0);
      const answer = await route.handle({
        method,
        path: rawPath,
        params: found.params,
        query: new URLSearchParams(q >= 0 ? url.slice(q + 1) : ""),
        headers: req.headers,
        body,
        json() {
          try {
            return JSON.parse(Buffer.from(body).toString("utf8")) as unknown;
          } catch {
            throw new AppError("invalid_argument", msg.invalid_body);
          }
        },
        get signal() {
          return signal();
        },
        raw: req,
      });
      await send(res, head, answer);
    } catch (err) {
      if (err instanceof InvalidPathError) {
        sendError(res, head, new AppError("invalid_argument", msg.invalid_path));
        return;
      }
      const appError = fromConnectError(err);
      if (appError.reason !== "internal") return sendError(res, head, appError);
      // A 500 says nothing more: a peer's internal error (a bus hop) may carry its own text.
      options.onError?.(err, req);
      sendError(res, head, new AppError("internal", "internal error"));
    }
  };
}
