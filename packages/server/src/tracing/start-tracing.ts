/**
 * The process's tracing: the OpenTelemetry Node SDK, configured by the standard `OTEL_*` variables, started only
 * when they configure a trace exporter. Off (the default) the SDK is not even loaded and the server makes no span.
 * Only traces are set up: no instrumentation of other libraries, no OpenTelemetry metrics (Prometheus has those)
 * and no log export.
 *
 * No asynchronous context either: the server passes each span to what runs under it (request-spans.ts,
 * traced-dialect.ts), so the SDK is given a context manager that carries nothing instead of its default,
 * AsyncLocalStorage, which on Node 20 and 22 hooks every promise of the process whether its request is sampled or
 * not. The process makes no span that needs one: nothing else is instrumented.
 */
import { type Context, type ContextManager, ROOT_CONTEXT, trace, type Tracer } from "@opentelemetry/api";

type Env = Readonly<Record<string, string | undefined>>;

/** Carries no context: the active context is always the root one, and a function runs as it is. */
class NoContextManager implements ContextManager {
  active(): Context {
    return ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    _context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return fn.call(thisArg, ...args);
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

/** A running tracing pipeline. */
export interface Tracing {
  readonly tracer: Tracer;
  /** Exports the spans not yet sent and stops. */
  shutdown(): Promise<void>;
}

const listOf = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item !== "");

/**
 * Whether the environment asks for traces: `OTEL_TRACES_EXPORTER` naming an exporter other than `none`, or, with
 * it unset, an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). Never with
 * `OTEL_SDK_DISABLED=true`.
 */
export function tracingRequested(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = listOf(env.OTEL_TRACES_EXPORTER);
  if (exporters.length > 0) return !exporters.includes("none");
  return (
    listOf(env.OTEL_EXPORTER_OTLP_ENDPOINT).length > 0 || listOf(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).length > 0
  );
}

/**
 * Starts the SDK when {@link tracingRequested}; undefined otherwise. The SDK reads the exporter, endpoint,
 * protocol (`http/protobuf`, `http/json`, `grpc`), sampler and propagators from the environment itself; the
 * service is named `webinar-server` unless `OTEL_SERVICE_NAME` (or `service.name` in
 * `OTEL_RESOURCE_ATTRIBUTES`) names it.
 *
 * @example
 * const tracing = await startTracing(process.env);
 * const server = await startServer(config, { tracer: tracing?.tracer });
 */
export async function startTracing(env: Env): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const named = env.OTEL_SERVICE_NAME !== undefined || (env.OTEL_RESOURCE_ATTRIBUTES ?? "").includes("service.name=");
  const sdk = new NodeSDK({
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
    contextManager: new NoContextManager(),
    ...(named ? {} : { serviceName: "webinar-server" }),
  });
  sdk.start();
  return { tracer: trace.getTracer("@org/webinar-server"), shutdown: () => sdk.shutdown() };
}
