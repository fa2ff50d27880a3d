/**
 * A span for every database statement run under a sampled span: a Kysely dialect whose connections run each
 * statement (transaction control included) inside a span, child of the active span (the request's, or the
 * batch's, tracing/batch-spans.ts). A statement with no active span, or under one that is not recorded (a request
 * the sampler left out), makes no span at all: it would be a root trace of its own, or dropped anyway. The span
 * carries the statement's text with its placeholders, never its parameter values. Used only when tracing is on:
 * without it, the dialect is the database's own and costs nothing.
 */
import { SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from "kysely";

/** Longest statement text a span carries; the rest is cut (a statement's text never holds a value). */
const MAX_TEXT = 2000;

function traceStatement<R>(tracer: Tracer, query: CompiledQuery, run: () => Promise<QueryResult<R>>) {
  if (trace.getActiveSpan()?.isRecording() !== true) return run();
  const verb = /^\s*(\w+)/.exec(query.sql)?.[1]?.toUpperCase() ?? "SQL";
  const span = tracer.startSpan(`db ${verb}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "db.system.name": "postgresql",
      "db.operation.name": verb,
      "db.query.text": query.sql.slice(0, MAX_TEXT),
    },
  });
  return run().then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as { code?: string }).code ?? "query failed" });
      span.end();
      throw error;
    },
  );
}

/** The connection a traced driver hands out; the driver's own is kept for its release. */
class TracedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly tracer: Tracer,
  ) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return traceStatement(this.tracer, query, () => this.inner.executeQuery<R>(query));
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const innerOf = (connection: DatabaseConnection) =>
  connection instanceof TracedConnection ? connection.inner : connection;

function tracedDriver(driver: Driver, tracer: Tracer): Driver {
  return {
    init: () => driver.init(),
    acquireConnection: async () => new TracedConnection(await driver.acquireConnection(), tracer),
    // Transaction control goes through the traced connection, so BEGIN and COMMIT are spans too.
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    ...(driver.savepoint && { savepoint: (c, name, compile) => driver.savepoint!(c, name, compile) }),
    ...(driver.rollbackToSavepoint && {
      rollbackToSavepoint: (c, name, compile) => driver.rollbackToSavepoint!(c, name, compile),
    }),
    ...(driver.releaseSavepoint && {
      releaseSavepoint: (c, name, compile) => driver.releaseSavepoint!(c, name, compile),
    }),
    // Drivers recognize their own connection object on release.
    releaseConnection: (connection) => driver.releaseConnection(innerOf(connection)),
    destroy: () => driver.destroy(),
  };
}

/**
 * @example
 * const db = new Kysely<Database>({ dialect: tracedDialect(new PostgresDialect({ pool }), tracer) });
 */
export function tracedDialect(dialect: Dialect, tracer: Tracer): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => tracedDriver(dialect.createDriver(), tracer),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}
