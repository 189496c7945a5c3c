// `@mc/shared/bus`: the message bus every service call and event rides on,
// NATS (`connectNatsBus`) or in-process (`createMemoryBroker`), behind one
// interface. Loads @nats-io/transport-node; never for domain code.
export type { Bus, BusHandler, BusMessage, BusSubscription, PublishOptions, SubscribeOptions } from "./bus.js";
export { createMemoryBroker } from "./memory-bus.js";
export type { MemoryBroker, MemoryBrokerOptions } from "./memory-bus.js";
export { connectNatsBus, createNatsBus } from "./nats-bus.js";
export type { NatsBusOptions } from "./nats-bus.js";
