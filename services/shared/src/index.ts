export { AppError, isAppError, isReason, reasons, toAppError } from "./app-error.js";
export type { AppErrorOptions, Reason } from "./app-error.js";
export {
  errorTable,
  fromConnectError,
  httpStatusOf,
  httpStatusOfError,
  reasonHeader,
  toConnectError,
} from "./error-mapping.js";
export type { Bus, BusHandler, BusMessage, BusSubscription, PublishOptions, SubscribeOptions } from "./bus/bus.js";
export { createMemoryBroker } from "./bus/memory-bus.js";
export type { MemoryBroker, MemoryBrokerOptions } from "./bus/memory-bus.js";
export { connectNatsBus, createNatsBus } from "./bus/nats-bus.js";
export type { NatsBusOptions } from "./bus/nats-bus.js";
export { queueOfPath, subjectOfPath } from "./nats-subject.js";
export type { NodeAddress } from "./nats-subject.js";
export { createBusTransport } from "./connect-bus/bus-transport.js";
export type { BusTransportOptions } from "./connect-bus/bus-transport.js";
export { serveOverBus } from "./connect-bus/serve-over-bus.js";
export type { BusServer, ServeOverBusOptions } from "./connect-bus/serve-over-bus.js";
export { defaultFlow } from "./connect-bus/frames.js";
export type { FlowSettings } from "./connect-bus/frames.js";
export { syncDir, tempPrefix, writeFileAtomic } from "./fs/write-atomic.js";
export { sliceBudget } from "./process/slice-budget.js";
export type { SliceBudget } from "./process/slice-budget.js";
export { closedPipeStatus, endOnClosedPipe, isClosedPipe } from "./process/closed-pipe.js";
export { acceptRequestId, requestIdHeader, requestIdOptions } from "./request-id.js";
export { createLogger } from "./logger.js";
export type { Logger } from "./logger.js";
export { createRpcLogInterceptor } from "./rpc-log.js";
