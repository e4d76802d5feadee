import { quoteIdentifier } from '../../../src-shared/sql/quote.js';
import { PushdownError } from './types.js';

/**
 * The one way a name reaches the push-down SQL: in double quotes, a `"` inside doubled (the
 * shared quoteIdentifier). Values never do: they are bind parameters.
 */
export function ident(name: string): string {
  // PostgreSQL cannot store a NUL in a name; the driver would fail obscurely.
  if (name.includes('\0')) throw new PushdownError('invalid_params', 'A name cannot contain a NUL character');
  return quoteIdentifier(name);
}

/** `"schema"."table"`. */
export function qualified(t: { schema: string; table: string }): string {
  return `${ident(t.schema)}.${ident(t.table)}`;
}

/** PostgreSQL's NAMEDATALEN - 1: a longer name is cut silently, which could name another table. */
export const MAX_NAME_BYTES = 63;

/** An output name that the server keeps exactly as given, or a clear refusal. */
export function checkNewName(name: string, what: string): void {
  if (!name.trim()) throw new PushdownError('invalid_params', `The ${what} name is empty`);
  if (/\p{Cc}/u.test(name)) throw new PushdownError('invalid_params', `The ${what} name contains a control character`);
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > MAX_NAME_BYTES)
    throw new PushdownError(
      'invalid_params',
      `The ${what} name '${name}' is ${bytes} bytes long; PostgreSQL keeps at most ${MAX_NAME_BYTES} and would cut it`,
    );
}
