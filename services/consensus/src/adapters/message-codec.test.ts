import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  AppendEntriesRequestSchema,
  AppendEntriesResponseSchema,
  InstallSnapshotRequestSchema,
  InstallSnapshotResponseSchema,
  RequestVoteRequestSchema,
  RequestVoteResponseSchema,
} from "../../gen/consensus/v1/consensus_pb.js";
import type { AppendRequest, AppendResponse, SnapshotRequest, SnapshotResponse, VoteRequest, VoteResponse } from "../domain/types.js";
import {
  appendRequestFromPb,
  appendRequestToPb,
  appendResponseFromPb,
  appendResponseToPb,
  snapshotRequestFromPb,
  snapshotRequestToPb,
  snapshotResponseFromPb,
  snapshotResponseToPb,
  voteRequestFromPb,
  voteRequestToPb,
  voteResponseFromPb,
  voteResponseToPb,
} from "./message-codec.js";

// Every message survives domain -> protobuf -> wire bytes -> protobuf -> domain.

test("vote request and response", () => {
  const req: VoteRequest = { type: "vote", from: "n1", to: "n2", term: 7, lastLogIndex: 2 ** 40, lastLogTerm: 6, preVote: true, transfer: true };
  assert.equal(voteRequestFromPb(fromBinary(RequestVoteRequestSchema, toBinary(RequestVoteRequestSchema, voteRequestToPb(req))), "n2"), req);
  const resp: VoteResponse = { type: "voteResp", from: "n2", to: "n1", term: 8, granted: true, preVote: true };
  assert.equal(voteResponseFromPb(fromBinary(RequestVoteResponseSchema, toBinary(RequestVoteResponseSchema, voteResponseToPb(resp))), "n1"), resp);
  // No answer from the core travels as an empty response and is dropped on arrival.
  assert.is(voteResponseFromPb(voteResponseToPb(undefined), "n1"), undefined);
});

test("append request with every entry type, and its response", () => {
  const req: AppendRequest = {
    type: "append", from: "n1", to: "n3", term: 3, prevIndex: 10, prevTerm: 2, commit: 9, seq: 44,
    entries: [
      { index: 11, term: 3, type: "noop", data: new Uint8Array(0) },
      { index: 12, term: 3, type: "normal", data: new Uint8Array([1, 2, 3]) },
      { index: 13, term: 3, type: "config", data: new TextEncoder().encode("{}") },
    ],
  };
  assert.equal(appendRequestFromPb(fromBinary(AppendEntriesRequestSchema, toBinary(AppendEntriesRequestSchema, appendRequestToPb(req))), "n3"), req);
  const resp: AppendResponse = { type: "appendResp", from: "n3", to: "n1", term: 3, success: false, matchIndex: 0, conflictTerm: 2, conflictIndex: 7, lastIndex: 10, seq: 44 };
  assert.equal(appendResponseFromPb(fromBinary(AppendEntriesResponseSchema, toBinary(AppendEntriesResponseSchema, appendResponseToPb(resp))), "n1"), resp);
});

test("snapshot chunk with its configuration, and its response", () => {
  const req: SnapshotRequest = {
    type: "snapshot", from: "n1", to: "n2", term: 4, offset: 96, data: new Uint8Array([9, 9]), done: true, checksum: new Uint8Array(32).fill(5),
    meta: { index: 50, term: 4, configuration: { voters: [{ id: "n1", address: "a:1" }], learners: [{ id: "n4", address: "d:4" }] } },
  };
  assert.equal(snapshotRequestFromPb(fromBinary(InstallSnapshotRequestSchema, toBinary(InstallSnapshotRequestSchema, snapshotRequestToPb(req))), "n2"), req);
  const resp: SnapshotResponse = { type: "snapshotResp", from: "n2", to: "n1", term: 4, index: 50, nextOffset: 98, installed: true };
  assert.equal(snapshotResponseFromPb(fromBinary(InstallSnapshotResponseSchema, toBinary(InstallSnapshotResponseSchema, snapshotResponseToPb(resp))), "n1"), resp);
});

test.run();
