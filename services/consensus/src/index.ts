// @mc/consensus: a pure Raft core, its deterministic simulator, and the
// adapters that run it for real (durable log, Connect-over-bus transport).
export { createRaftNode } from "./domain/raft-node.js";
export type { RaftConfig, RaftNode } from "./domain/raft-node.js";
export { createPrng } from "./domain/prng.js";
export type { Random } from "./domain/prng.js";
export { applyChange, decodeConfiguration, encodeConfiguration, isMember, isVoter, quorum } from "./domain/configuration.js";
export type {
  Configuration,
  Entry,
  EntryType,
  HardState,
  Member,
  MembershipChange,
  Message,
  NodeStatus,
  PersistedState,
  Ready,
  ReadState,
  Role,
  HeldSnapshot,
  Snapshot,
  SnapshotData,
  SnapshotMeta,
} from "./domain/types.js";
export { createFileLogStore } from "./adapters/file-log-store.js";
export type { FileLogStoreOptions, LoadedState, LogStore } from "./adapters/file-log-store.js";
export { checkLogFolder } from "./adapters/file-log-store-check.js";
export type { LogFolderReport } from "./adapters/file-log-store-check.js";
// The record-file and sealed-blob formats the KMS's single-node log and snapshot share with the Raft log.
export { damaged, damageOf, withPrefix } from "./adapters/file-log-store-damage.js";
export type { Damage } from "./adapters/file-log-store-damage.js";
export { cutRecordFile, hasMagic as isRecordFile, recordsStart } from "./adapters/file-log-store-format.js";
export type { FileHeader, Mark } from "./adapters/file-log-store-format.js";
export { readRecordFile } from "./adapters/file-log-store-reader.js";
export type { FileRecord, RecordFileContents } from "./adapters/file-log-store-reader.js";
export { createRecordFile, openRecordFile } from "./adapters/file-log-store-writer.js";
export type { NewRecord, RecordFileWriter } from "./adapters/file-log-store-writer.js";
export { encodeBlob, hasBlobMagic, readBlob } from "./adapters/file-log-store-blob.js";
export { encodeChunkedBlob, sealChunkedBlob, sealChunkedBlobStream } from "./adapters/file-log-store-blob-chunked.js";
export { readChunkedBlobFile } from "./adapters/file-log-store-blob-file.js";
export type { ChunkedBlobOptions } from "./adapters/file-log-store-blob-chunked.js";
export { syncDir } from "./adapters/snapshot-file.js";
export { addConsensusService, createPeerSender } from "./adapters/consensus-transport.js";
export type { ConsensusHandler, PeerSender, SendOutcome } from "./adapters/consensus-transport.js";
export { createRaftRunner } from "./adapters/raft-runner.js";
export { classifyFailure, noLeader, outcomeUnknown } from "./adapters/write-outcome.js";
export type { AttemptFailure } from "./adapters/write-outcome.js";
export type { ProposeResult, RaftRunner, RaftRunnerOptions, StateMachineSnapshots } from "./adapters/raft-runner.js";
export type { ConsensusMetrics, PeerReport, RunnerStatus } from "./adapters/runner-status.js";
export { checkOperations, kvModel } from "./sim/linearizability.js";
export type { CheckResult, KvInput, KvOutput, Model, Operation } from "./sim/linearizability.js";
export { runSimulation } from "./sim/simulation.js";
export type { SimParams, SimReport } from "./sim/simulation.js";
