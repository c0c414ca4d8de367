import { stringify } from 'csv-stringify/sync';

/**
 * A table as CSV (RFC 4180: a header row, CRLF line ends, fields holding a comma, a quote or a line
 * end quoted, quotes doubled; UTF-8, no byte-order mark). Text cells that a spreadsheet would run as
 * a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) are prefixed with `'`,
 * so an exported title or question is shown, never evaluated; numbers are left as they are.
 */
export function csvOf(table: { columns: string[]; rows: Array<Array<string | number | null>> }): string {
  return stringify(table.rows, {
    header: true,
    columns: table.columns,
    record_delimiter: 'windows',
    // Any line end in a field, a lone `\n` or `\r` too, not only the record delimiter.
    quote_record_delimiter: true,
    escape_formulas: true,
  });
}
