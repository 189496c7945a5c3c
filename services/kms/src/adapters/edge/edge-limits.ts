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

/** 504 for a request that outlived its time; its body may be unfinished, so the connection goes too. */
export function answerTimeout(res: ServerResponse): void {
  answerAndClose(res, 504, "application/json", { message: "request timeout" });
}
