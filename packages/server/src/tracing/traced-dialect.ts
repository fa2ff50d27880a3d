/**
 * Statement spans, passed explicitly: a database handle made for one span (a sampled request's, or a background
 * batch's, tracing/batch-spans.ts) runs each of its statements (transaction control included) inside a span, child
 * of that span. It shares the server database's driver, and so its pool: a handle is a few small objects, made
 * only for a span that is recorded. The server's own database makes no span at all, so a request the sampler left
 * out, and work that belongs to no request (a cache filled for whoever asks next), cost nothing. No asynchronous
 * context is kept anywhere: on Node 20 and 22, keeping one (AsyncLocalStorage) costs a hook on every promise of
 * the process, sampled or not.
 *
 * A span never carries a parameter value. It names the statement by its summary (its verb and the table it
 * writes, or else reads first: `INSERT viewers`). A statement of fixed text (db/statements.ts) adds the name it
 * is prepared under (one per text) instead of the text itself: the busiest statements are the fixed ones, and
 * their texts, the same in every span, were most of what a span cost to send. A statement built per call carries
 * its text with its placeholders.
 */
import { ROOT_CONTEXT, type Span, SpanKind, trace, type Tracer } from "@opentelemetry/api";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type QueryResult,
} from "kysely";
import type { Database } from "../db/schema";
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

/** The connection a span's handle hands out: the driver's own, each statement in a child span of `parent`. */
class SpanConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly tracer: Tracer,
    private readonly parent: Span,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { verb, attributes } = describeStatement(query);
    const span = this.tracer.startSpan(
      `db ${verb}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { "db.system.name": "postgresql", "db.operation.name": verb, ...attributes },
      },
      trace.setSpan(ROOT_CONTEXT, this.parent),
    );
    return endWhenSettled(
      span,
      this.inner.executeQuery<R>(query),
      (error) => (error as { code?: string }).code ?? "query failed",
    );
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * A driver over the server database's own: the same connections, wrapped for `parent`. It neither starts nor
 * ends the shared driver; the server database does.
 */
function spanDriver(shared: Driver, tracer: Tracer, parent: Span): Driver {
  const innerOf = (connection: DatabaseConnection) =>
    connection instanceof SpanConnection ? connection.inner : connection;
  return {
    init: async () => undefined,
    acquireConnection: async () => new SpanConnection(await shared.acquireConnection(), tracer, parent),
    // Transaction control goes through the span's connection, so BEGIN and COMMIT are spans too.
    beginTransaction: (connection, settings) => shared.beginTransaction(connection, settings),
    commitTransaction: (connection) => shared.commitTransaction(connection),
    rollbackTransaction: (connection) => shared.rollbackTransaction(connection),
    ...(shared.savepoint && { savepoint: (c, name, compile) => shared.savepoint!(c, name, compile) }),
    ...(shared.rollbackToSavepoint && {
      rollbackToSavepoint: (c, name, compile) => shared.rollbackToSavepoint!(c, name, compile),
    }),
    ...(shared.releaseSavepoint && {
      releaseSavepoint: (c, name, compile) => shared.releaseSavepoint!(c, name, compile),
    }),
    // Drivers recognize their own connection object on release.
    releaseConnection: (connection) => shared.releaseConnection(innerOf(connection)),
    destroy: async () => undefined,
  };
}

/** The server's database for a span: the same pool, every statement a child span of it. */
export type DatabaseUnder = (span: Span) => Kysely<Database>;

/** Statement spans for the server's database; see the module comment. */
export interface TracedDatabase {
  /** Wraps the dialect the server's database is opened with, to learn its driver; changes nothing else. */
  wrapDialect(dialect: Dialect): Dialect;
  /** A handle whose statements are spans under `span`; only once the server's database is open. */
  under: DatabaseUnder;
}

/**
 * @example
 * const traced = tracedDatabase(tracer);
 * const db = new Kysely<Database>({ dialect: traced.wrapDialect(new PostgresDialect({ pool })) });
 * await traced.under(requestSpan).selectFrom("viewers").selectAll().execute(); // a span `db SELECT`
 */
export function tracedDatabase(tracer: Tracer): TracedDatabase {
  let opened: { dialect: Dialect; driver: Driver } | undefined;
  return {
    wrapDialect: (dialect) => ({
      createAdapter: () => dialect.createAdapter(),
      createDriver: () => {
        const driver = dialect.createDriver();
        opened = { dialect, driver };
        return driver;
      },
      createIntrospector: (db) => dialect.createIntrospector(db),
      createQueryCompiler: () => dialect.createQueryCompiler(),
    }),
    under(span) {
      if (opened === undefined) throw new Error("tracedDatabase: the server's database is not open yet");
      const { dialect, driver } = opened;
      return new Kysely<Database>({
        dialect: {
          createAdapter: () => dialect.createAdapter(),
          createDriver: () => spanDriver(driver, tracer, span),
          createIntrospector: (db) => dialect.createIntrospector(db),
          createQueryCompiler: () => dialect.createQueryCompiler(),
        },
      });
    },
  };
}
