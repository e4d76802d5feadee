import type { ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { bivariate } from './bivariate.js';
import { categorize } from './categorize.js';
import { extrude } from './extrude.js';
import { graduate } from './graduate.js';
import { heatmap } from './heatmap.js';
import { labels } from './labels.js';
import { rasterGrey } from './rasterGrey.js';
import { rasterHillshade } from './rasterHillshade.js';
import { rasterPseudocolor } from './rasterPseudocolor.js';
import { rasterRgb } from './rasterRgb.js';
import { rules } from './rules.js';
import { setSimpleStyle } from './setSimple.js';

/** The style family (write tools that change how layers are drawn). */
export const styleTools: readonly ToolDefinition[] = [
  setSimpleStyle,
  categorize,
  graduate,
  rules,
  labels,
  heatmap,
  bivariate,
  rasterPseudocolor,
  rasterHillshade,
  rasterRgb,
  rasterGrey,
  extrude,
];
