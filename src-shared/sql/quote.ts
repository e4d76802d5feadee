/** A name as an SQL identifier: in double quotes, a `"` inside doubled. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"schema"."table"`, each part quoted as an identifier. */
export function quoteQualified(t: { schema: string; table: string }): string {
  return `${quoteIdentifier(t.schema)}.${quoteIdentifier(t.table)}`;
}

/** A text as an SQL string literal: in single quotes, a `'` inside doubled. */
export function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
