/**
 * A table of records that reads at any width: a plain table on a wide screen, and on a phone's width (styles.css)
 * one block per row, each cell a line labelled with its column's header, so nothing scrolls sideways. A row may
 * open a detail under it (the request log's canonical string), as wide as the table.
 */
import { Fragment, type ReactNode } from "react";
import { useIntl } from "react-intl";
import type { MessageKey } from "../i18n/catalogue";

export interface Column<Row> {
  header: MessageKey;
  cell(row: Row): ReactNode;
  className?: string;
}

export interface DataTableProps<Row> {
  columns: Column<Row>[];
  rows: Row[];
  rowKey(row: Row): string;
  /** Shown to screen readers only; the section's heading names the table for everyone. */
  caption?: MessageKey;
  /** `data-*` attributes of a row, for the tests to find it by its record. */
  rowData?(row: Row): Record<`data-${string}`, string | number>;
  detail?(row: Row): { id: string; content: ReactNode } | null;
  testId?: string;
}

export function DataTable<Row>({ columns, rows, rowKey, caption, rowData, detail, testId }: DataTableProps<Row>) {
  const { formatMessage } = useIntl();
  return (
    <table className="data-table" data-testid={testId}>
      {caption === undefined ? null : <caption className="visually-hidden">{formatMessage({ id: caption })}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {formatMessage({ id: column.header })}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const opened = detail?.(row) ?? null;
          return (
            <Fragment key={rowKey(row)}>
              <tr {...rowData?.(row)}>
                {columns.map((column) => (
                  <td
                    key={column.header}
                    data-label={formatMessage({ id: column.header })}
                    className={column.className}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
              {opened === null ? null : (
                <tr id={opened.id} className="detail">
                  <td colSpan={columns.length}>{opened.content}</td>
                </tr>
              )}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
