import type { ServerResponse } from "node:http";
import { answerAndClose, answerConnectError } from "@mc/shared/rest";
import { AppError } from "@mc/shared/errors";
import { operationOf } from "./kms-operations.js";

/**
 * The edge's input limits (contract §1 and §5): 1 MiB per body on every
 * route, REST and Connect alike, counted while it is read and before any
 * authentication; 15 s per request. Both end the connection: the rest of
 * such a request is never read.
 */
export const maxBodyBytes = 1024 * 1024;
export const defaultRequestTimeoutMs = 15_000;

export const isConnectPath = (path: string): boolean => path.startsWith("/kms.v1.");

/** 413 in the shape of the endpoint it was sent to, then the connection is closed. */
export function refuseTooLarge(res: ServerResponse, connect: boolean): void {
  if (connect) answerConnectError(res, new AppError("payload_too_large", "request body too large"), true);
  else answerAndClose(res, 413, "application/json", { message: "request body too large" });
}

/** A request to a node whose audit log cannot be written: refused, not served unaudited. */
export function refuseUnaudited(res: ServerResponse, connect: boolean): void {
  const message = "the node cannot write its audit log; restart it once the disk is fixed";
  if (connect) answerConnectError(res, new AppError("unavailable", message), true);
  else answerAndClose(res, 503, "application/json", { message });
}

/** What a write that outlived its time is told: it may still be applied (issue 27; services/kms/README.md). */
export const writeTimeoutMessage = "outcome unknown: the change may have been applied; retry with the same request id";

/**
 * Whether a request may change state, so that a timeout leaves its outcome
 * unknown: as its row in the table says; a request no row names (another
 * mount's route) may, unless it is a read.
 */
export function mayChangeState(method: string | undefined, path: string): boolean {
  return operationOf(method, path)?.changes ?? (method !== "GET" && method !== "HEAD");
}

/**
 * 504 for a request that outlived its time; its body may be unfinished, so
 * the connection goes too. A write may still be on its way through the
 * cluster, so it is told its outcome is unknown, never just "timeout".
 */
export function answerTimeout(res: ServerResponse, method: string | undefined, path: string): void {
  answerAndClose(res, 504, "application/json", { message: mayChangeState(method, path) ? writeTimeoutMessage : "request timeout" });
}
