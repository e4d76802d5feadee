import type { Layer } from '../../src-shared/domain/layer.js';
import { parsePgTable, pgQueryOf, postgisConnectionOf } from '../../src-shared/domain/pgSource.js';
import type { DataResponse } from '../composition/services.js';
import { describePgInput } from './pushdown/describeInput.js';
import { describePgQuery } from './pgQueryTable.js';
import type { PgSessions } from './pgSessions.js';
import { pgVectorTile, type PgTileTable } from './pgVectorTile.js';

/**
 * The data route's side of PostGIS layers (issue 16): each vector tile of a `postgis://`
 * layer is made by its server (pgVectorTile.ts). A table's geometry column, SRID and key are
 * read once per connection and table (a kept query's once per query, pgQueryTable.ts). The answer says `X-Mapwright-Tile: server; …` and is not
 * cached: the table may change on the server at any time.
 */
export function createPgTileService(sessions: PgSessions) {
  const tables = new Map<string, Promise<PgTileTable>>();

  async function tableOf(connectionId: string, layer: Pick<Layer, 'sublayer' | 'info'>): Promise<PgTileTable> {
    const columns = layer.info.fields.map((f) => f.name);
    const query = pgQueryOf(layer.sublayer ?? '');
    const name = query === null ? parsePgTable(layer.sublayer ?? '') : null;
    if (query === null && !name) throw new Error(`A PostGIS layer names its table as <schema>.<table>, not '${layer.sublayer ?? ''}'`);
    const key = JSON.stringify([connectionId, layer.sublayer]);
    let table = tables.get(key);
    if (!table) {
      table = sessions.use(connectionId, async (client) =>
        query !== null ? describePgQuery(client, query, columns) : { ...(await describePgInput(client, name!)), columns },
      );
      tables.set(key, table);
      // A failure is not remembered: the next tile asks again (the table may have been fixed).
      table.catch(() => tables.delete(key));
    }
    return table;
  }

  return {
    async tileResponse(layer: Pick<Layer, 'source' | 'sublayer' | 'info'>, fields: readonly string[], z: number, x: number, y: number) {
      const connectionId = postgisConnectionOf(layer.source);
      if (!connectionId) throw new Error(`${layer.source} is not a PostGIS source`);
      const table = await tableOf(connectionId, layer);
      const tile = await sessions.use(connectionId, (client) => pgVectorTile(client, table, fields, z, x, y));
      const response: DataResponse = {
        status: 200,
        contentType: 'application/x-protobuf',
        body: tile.pbf,
        headers: {
          'Cache-Control': 'no-store',
          'X-Mapwright-Tile': `server; method=${tile.method}; kept=${tile.kept}; dropped=${tile.dropped}; bytes=${tile.pbf.byteLength}`,
        },
      };
      return response;
    },
    /** Forgets what was read of the tables (the saved connections changed). */
    reset(): void {
      tables.clear();
    },
  };
}

export type PgTileService = ReturnType<typeof createPgTileService>;
