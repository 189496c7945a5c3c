import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { AppError } from "@mc/shared/errors";
import { CommandSchema, KeyMaterialSchema, type Command as ProtoCommand } from "../../../gen/kms/v1/command_pb.js";
import type { Command, Payload } from "../../domain/command.js";

type ProtoPayload = ProtoCommand["payload"];

function toProtoPayload(p: Payload): ProtoPayload {
  switch (p.kind) {
    case "createKey":
    case "importKey":
    case "addKeyVersion": {
      const material = create(KeyMaterialSchema, { sealedKey: p.material.sealedKey, sealedHmacKey: p.material.sealedHmacKey });
      const algorithm = p.kind === "addKeyVersion" ? {} : { algorithm: p.algorithm };
      // The oneof value is a plain init object; create() below builds the message.
      return { case: p.kind, value: { enclave: p.enclave, name: p.name, material, ...algorithm } } as ProtoPayload;
    }
    default: {
      const { kind, ...rest } = p;
      return { case: kind, value: rest } as ProtoPayload;
    }
  }
}

/** Domain command to the kms.v1.Command bytes that the log (and Raft) carry. */
export function encodeCommand(cmd: Command): Uint8Array {
  const msg = create(CommandSchema, {
    requestId: cmd.requestId,
    issuedAt: cmd.issuedAt,
    issuedBy: cmd.issuedBy,
    payload: toProtoPayload(cmd.payload),
  });
  return toBinary(CommandSchema, msg);
}

export function decodeCommand(bytes: Uint8Array): Command {
  const msg = fromBinary(CommandSchema, bytes);
  const p = msg.payload;
  let payload: Payload;
  switch (p.case) {
    case "createKey":
    case "importKey":
    case "addKeyVersion": {
      const m = p.value.material;
      const material = { sealedKey: m?.sealedKey ?? new Uint8Array(0), sealedHmacKey: m?.sealedHmacKey ?? new Uint8Array(0) };
      payload = p.case === "addKeyVersion"
        ? { kind: p.case, enclave: p.value.enclave, name: p.value.name, material }
        : { kind: p.case, enclave: p.value.enclave, name: p.value.name, algorithm: p.value.algorithm, material };
      break;
    }
    case "deleteKey":
    case "deletePolicy":
      payload = { kind: p.case, enclave: p.value.enclave, name: p.value.name };
      break;
    case "deleteKeyVersion":
      payload = { kind: p.case, enclave: p.value.enclave, name: p.value.name, version: p.value.version };
      break;
    case "createEnclave":
    case "deleteEnclave":
      payload = { kind: p.case, name: p.value.name };
      break;
    case "createPolicy":
      payload = { kind: p.case, enclave: p.value.enclave, name: p.value.name, allow: p.value.allow, deny: p.value.deny };
      break;
    case "assignPolicy":
    case "unassignPolicy":
      payload = { kind: p.case, enclave: p.value.enclave, name: p.value.name, identity: p.value.identity };
      break;
    case "createIdentity":
      payload = { kind: p.case, enclave: p.value.enclave, identity: p.value.identity, admin: p.value.admin, policy: p.value.policy };
      break;
    case "deleteIdentity":
      payload = { kind: p.case, enclave: p.value.enclave, identity: p.value.identity };
      break;
    default:
      throw new AppError("internal", "internal error", { cause: new Error("command without payload") });
  }
  return { requestId: msg.requestId, issuedAt: msg.issuedAt, issuedBy: msg.issuedBy, payload };
}
