import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { z } from 'zod';
import { pluginManifestSchema } from '../src-shared/plugins/pluginManifest.js';

/**
 * `npm run plugin-schema`: writes plugins/plugin.schema.json, the JSON Schema of plugin.yaml
 * for editors (a `# yaml-language-server: $schema=…` line picks it up), generated from the zod
 * meta-model so the two cannot disagree. Formatted as the repo's Prettier would, so the lint
 * check passes on the file as written; plugin-schema.test.ts fails when it is stale.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PLUGIN_SCHEMA_FILE = join(root, 'plugins', 'plugin.schema.json');

export async function pluginSchemaText(): Promise<string> {
  // `input`: what an author writes, so defaulted fields are optional. Cross-field rules (a
  // rule naming a parameter, placeholders) are not expressible here; the app reports them.
  const schema = z.toJSONSchema(pluginManifestSchema, { io: 'input', target: 'draft-2020-12' });
  return format(JSON.stringify(schema, null, 2), { ...(await resolveConfig(PLUGIN_SCHEMA_FILE)), filepath: PLUGIN_SCHEMA_FILE });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(PLUGIN_SCHEMA_FILE, await pluginSchemaText());
  process.stdout.write(`wrote ${PLUGIN_SCHEMA_FILE}\n`);
}
