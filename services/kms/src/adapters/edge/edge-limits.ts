import type { ServerResponse } from "node:http";
import type { DescService } from "@bufbuild/protobuf";
import { answerAndClose, answerConnectError } from "@mc/gateway";
import { AppError } from "@mc/shared";
import { AuditService } from "../../../gen/kms/v1/audit_pb.js";
import { ClusterService } from "../../../gen/kms/v1/cluster_pb.js";
import { EnclaveService } from "../../../gen/kms/v1/enclave_pb.js";
import { HealthService } from "../../../gen/kms/v1/health_pb.js";
import { IdentityService } from "../../../gen/kms/v1/identity_pb.js";
import { KeyService } from "../../../gen/kms/v1/key_pb.js";
import { PolicyService } from "../../../gen/kms/v1/policy_pb.js";

/**
 * The edge's input limits (contract §1 and §5): 1 MiB per body on every
 * route, REST and Connect alike, counted while it is read and before any
 * authentication; 15 s per request. Both end the connection: the rest of
 * such a request is never read.
 */
export const maxBodyBytes = 1024 * 1024;
export const defaultRequestTimeoutMs = 15_000;

/** The Connect services of the edge, whose input messages bodies are checked against. */
export const kmsServices: readonly DescService[] = [KeyService, PolicyService, IdentityService, EnclaveService, HealthService, ClusterService, AuditService];

export const isConnectPath = (path: string): boolean => path.startsWith("/kms.v1.");

/** 413 in the shape of the endpoint it was sent to, then the connection is closed. */
export function refuseTooLarge(res: ServerResponse, connect: boolean): void {
  if (connect) answerConnectError(res, new AppError("payload_too_large", "request body too large"), true);
  else answerAndClose(res, 413, "application/json", { message: "request body too large" });
}

/** What a write that outlived its time is told: it may still be applied (issue 27; services/kms/README.md). */
export const writeTimeoutMessage = "outcome unknown: the change may have been applied; retry with the same request id";

// REST POSTs that only compute, and the Connect RPCs that change state.
const restComputes = /^\/v1\/key\/(?:generate|encrypt|decrypt|hmac)\//;
const rpcChanges = /^\/kms\.v1\.\w+\/(?:Create|Import|Delete|Assign|Unassign|AddNode|RemoveNode|TransferLeadership)/;

/** Whether a request may change state, so that a timeout leaves its outcome unknown. */
export function mayChangeState(method: string | undefined, path: string): boolean {
  if (isConnectPath(path)) return rpcChanges.test(path);
  return method !== "GET" && method !== "HEAD" && !restComputes.test(path);
}

/**
 * 504 for a request that outlived its time; its body may be unfinished, so
 * the connection goes too. A write may still be on its way through the
 * cluster, so it is told its outcome is unknown, never just "timeout".
 */
export function answerTimeout(res: ServerResponse, method: string | undefined, path: string): void {
  answerAndClose(res, 504, "application/json", { message: mayChangeState(method, path) ? writeTimeoutMessage : "request timeout" });
}
