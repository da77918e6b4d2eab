/**
 * snake_case column names → camelCase fields (for rows read with plain SQL on hot paths). `row`
 * is the statement's declared row type; `T` the record whose fields are those columns, camelCased.
 */
export function camelRow<T>(row: object): T {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v])) as T;
}

/**
 * TypeORM answers UPDATE/DELETE … RETURNING with `[rows, affectedCount]` and other
 * statements with the rows: this gives the rows either way.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
