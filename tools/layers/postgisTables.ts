import { z } from 'zod';
import { databaseParam } from '../../src-shared/security/paramCapabilities.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';

/**
 * The model's way to the person's PostGIS servers (issue 16): the saved connections by id
 * (nothing is connected to), and one connection's spatial tables with the `source` to give
 * `layers_load`. Naming a connection is a network call to its server: asked the first time,
 * then remembered for the project.
 */
const CONNECTION = 'A connection id from this list; leave out to list the connections only';

export const postgisTables = defineTool({
  id: 'layers.postgis_tables',
  version: '1.0.0',
  group: 'layers',
  icon: 'layers',
  title: 'PostGIS tables',
  description:
    'Lists the PostGIS connections the person saved (id, name, server, results schema) and, with connection, that ' +
    "database's tables and views with geometry. Returns connections and tables (table, source for layers_load, geometry, srid, rows, view).",
  input: z.object({
    connection: databaseParam(CONNECTION).optional().describe(CONNECTION),
  }),
  safety: 'read',
  exec: 'main',
  handles: ['postgis'],
  timeoutMs: 60_000,
  summary: (a) => (a.connection ? `PostGIS tables of ${a.connection}` : 'PostGIS connections'),
  async execute(args, { handles }) {
    return handles.postgis.tables(args.connection ?? null);
  },
});
