import { approval } from './approval.js';
import { audit } from './audit.js';
import { chat } from './chat.js';
import { common } from './common.js';
import { project } from './project.js';
import { layerItem } from './layerItem.js';
import { layers } from './layers.js';
import { map } from './map.js';
import { memory } from './memory.js';
import { plugins } from './plugins.js';
import { postgis } from './postgis.js';
import { print } from './print.js';
import { recipes } from './recipes.js';
import { qa } from './qa.js';
import { settings } from './settings.js';
import { status } from './status.js';
import { style } from './style.js';
import { table } from './table.js';
import { tools } from './tools.js';

/** Every area's catalogue; each becomes an i18next namespace of the same name (see ../i18n.ts). */
export const catalogues = {
  approval,
  audit,
  chat,
  common,
  project,
  layerItem,
  layers,
  map,
  memory,
  plugins,
  postgis,
  print,
  recipes,
  qa,
  settings,
  status,
  style,
  table,
  tools,
} as const;
