/** A name as an SQL identifier: in double quotes, a `"` inside doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A text as an SQL string literal: in single quotes, a `'` inside doubled. */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
