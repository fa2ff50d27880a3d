/**
 * A span for every database statement run under a sampled span: a Kysely dialect whose connections run each
 * statement (transaction control included) inside a span, child of the active span (the request's, or the
 * batch's, tracing/batch-spans.ts). A statement with no active span, or under one that is not recorded (a request
 * the sampler left out), makes no span at all: it would be a root trace of its own, or dropped anyway. Used only
 * when tracing is on: without it, the dialect is the database's own and costs nothing.
 *
 * A span never carries a parameter value. It names the statement by its summary (its verb and the table it
 * writes, or else reads first: `INSERT viewers`). A statement of fixed text (db/statements.ts) adds the name it
 * is prepared under (one per text) instead of the text itself: the busiest statements are the fixed ones, and
 * their texts, the same in every span, were most of what a span cost to send. A statement built per call carries
 * its text with its placeholders.
 */
import { SpanKind, trace, type Tracer } from "@opentelemetry/api";
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from "kysely";
import type { NamedQuery } from "../db/statements";
import { endWhenSettled } from "./settled-span";

/** Longest statement text a span carries; the rest is cut (a statement's text never holds a value). */
const MAX_TEXT = 2000;

const VERB = /^\s*(\w+)/;
/** The first table a statement writes (a `with` statement's included), else the first it reads. */
const WRITTEN = /\b(insert\s+into|update|delete\s+from)\s+("?\w+"?(?:\."?\w+"?)?)/i;
const READ = /\bfrom\s+("?\w+"?(?:\."?\w+"?)?)/i;

/** What a statement is: its first word (the span's name), and its summary. */
interface StatementDescription {
  verb: string;
  summary: string;
}

function describeText(sql: string): StatementDescription {
  const verb = VERB.exec(sql)?.[1]?.toUpperCase() ?? "SQL";
  const written = WRITTEN.exec(sql);
  // A `with` that writes nothing reads.
  const does = written?.[1]?.split(/\s/)[0]?.toUpperCase() ?? (verb === "WITH" ? "SELECT" : verb);
  const table = (written?.[2] ?? READ.exec(sql)?.[1])?.replaceAll('"', "");
  return { verb, summary: table === undefined ? does : `${does} ${table}` };
}

/** `INSERT viewers`, `SELECT api_keys`, `BEGIN`: what a statement does, to what, in a few words. */
export function statementSummary(sql: string): string {
  return describeText(sql).summary;
}

/** Descriptions of the fixed statements, by prepared name: each worked out once, not on every run. */
const fixedDescriptions = new Map<string, StatementDescription>();

function describeStatement(query: CompiledQuery) {
  const name = (query as Partial<NamedQuery<unknown>>).statementName;
  if (name === undefined) {
    const { verb, summary } = describeText(query.sql);
    return { verb, attributes: { "db.query.summary": summary, "db.query.text": query.sql.slice(0, MAX_TEXT) } };
  }
  let description = fixedDescriptions.get(name);
  if (description === undefined) {
    description = describeText(query.sql);
    fixedDescriptions.set(name, description);
  }
  return {
    verb: description.verb,
    attributes: { "db.query.summary": description.summary, "webinar.statement_name": name },
  };
}

function traceStatement<R>(tracer: Tracer, query: CompiledQuery, run: () => Promise<QueryResult<R>>) {
  if (trace.getActiveSpan()?.isRecording() !== true) return run();
  const { verb, attributes } = describeStatement(query);
  const span = tracer.startSpan(`db ${verb}`, {
    kind: SpanKind.CLIENT,
    attributes: { "db.system.name": "postgresql", "db.operation.name": verb, ...attributes },
  });
  return endWhenSettled(span, run(), (error) => (error as { code?: string }).code ?? "query failed");
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
