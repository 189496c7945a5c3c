import type { Interceptor, Transport } from "@connectrpc/connect";
import { createTransport } from "@connectrpc/connect/protocol-connect";
import type { Bus } from "../bus/bus.js";
import type { NodeAddress } from "../nats-subject.js";
import { createBusClient } from "./bus-client.js";
import { defaultFlow, type FlowSettings } from "./frames.js";

export interface BusTransportOptions {
  readonly bus: Bus;
  /** Address one node (per-node subject) instead of any service instance. */
  readonly node?: NodeAddress;
  readonly flow?: Partial<FlowSettings>;
  readonly interceptors?: Interceptor[];
  readonly defaultTimeoutMs?: number;
}

/**
 * A Connect transport over the bus: `createClient(Service, transport)` works
 * the same as over HTTP, with the whole Connect protocol (codes, metadata,
 * deadlines) unchanged.
 */
export function createBusTransport(options: BusTransportOptions): Transport {
  const flow = { ...defaultFlow, ...options.flow };
  return createTransport({
    httpClient: createBusClient(options.bus, flow, options.node),
    baseUrl: "http://bus",
    useBinaryFormat: true,
    interceptors: options.interceptors ?? [],
    acceptCompression: [],
    sendCompression: null,
    compressMinBytes: 1024,
    readMaxBytes: 0xffffffff,
    writeMaxBytes: 0xffffffff,
    useHttpGet: false,
    ...(options.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: options.defaultTimeoutMs } : {}),
  });
}
