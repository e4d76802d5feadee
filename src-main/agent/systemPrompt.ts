import type { BBox, Layer } from '../../src-shared/domain/layer.js';

/**
 * The system prompt, in English, assembled from parts (issue 6): role and rules, the
 * language policy, the one-line skill catalogue, the bodies of the always-loaded skills,
 * then what changes during a conversation — the project summary and the summary of
 * compacted turns. Stable parts come first so providers can cache the prefix.
 */

export interface CatalogueEntry {
  name: string;
  description: string;
}

export interface ViewSummary {
  center: [number, number];
  zoom: number;
  bounds: BBox;
}

export interface PromptParts {
  /** Every skill that can be loaded. */
  catalogue: readonly CatalogueEntry[];
  /** Skills whose instructions are part of the prompt (the always-loaded ones). */
  preloaded: readonly { name: string; body: string }[];
  project: { name: string; layers: readonly Layer[]; view: ViewSummary | null };
  /** The interface language (a code such as `zh-CN`, or a name); replies follow it unless the person writes in another. */
  language: string;
  /** Text of the latest compaction summary, when older turns were folded. */
  earlierSummary?: string | null;
  /** What the person asked to keep, already cut to its budget (memory/memoryExcerpt.ts); none: nothing is added. */
  memories?: string | null;
}

/** Layers listed by name in the summary; the rest are counted (inspect_list_layers has them all). */
const MAX_LAYER_LINES = 25;

const ROLE_AND_RULES = [
  'You are Mapwright, the assistant of a desktop GIS. You work on the open project only through the tools you are given.',
  'Rules:',
  '- Check before acting: read layers, fields and CRS with the inspect tools. Never invent files, fields, values or results.',
  "- Before working in an area, load its skill with skills_load_skill: it brings that area's rules and tools.",
  "- Changes wait for the person's approval. After rejected_by_user, do not retry the call or a variant: say what it would have done and why, and offer alternatives.",
  '- If a tool fails, read its error and hint; fix the call if you can, else say plainly what went wrong.',
  '- If the loaded data cannot answer (a field, indicator, area or period is missing), say so, say what data would answer it, and never silently answer with a different quantity.',
  '- Use paths exactly as given. Give numbers with their units and the CRS or method behind them. Keep replies short.',
].join('\n');

/**
 * The interface language as the prompt names it. For Chinese one more line keeps what tools
 * read unchanged: models answering in Chinese tend to translate field names and paths too.
 * English adds nothing (the prompt budget of the no-skill stage is nearly used).
 */
const LANGUAGE_NAMES: Record<string, { name: string; extra?: string }> = {
  en: { name: 'English' },
  'zh-CN': { name: 'Simplified Chinese', extra: 'Keep tool arguments, field names and paths as they are.' },
};

/** `language`: an interface language code (`en`, `zh-CN`) or a language's English name. */
export function languagePolicy(language: string): string {
  const known = LANGUAGE_NAMES[language];
  const name = known?.name ?? language;
  const policy = `Language: reply in ${name}, the interface language, unless the person writes in another language; then reply in theirs.`;
  return known?.extra ? `${policy} ${known.extra}` : policy;
}

export function skillCatalogueText(catalogue: readonly CatalogueEntry[], preloaded: ReadonlySet<string>): string {
  if (catalogue.length === 0) return 'Skills: none available.';
  // The loaded ones first: what the model already has, then what it may load.
  const ordered = [...catalogue.filter((s) => preloaded.has(s.name)), ...catalogue.filter((s) => !preloaded.has(s.name))];
  const lines = ordered.map((s) => `- ${s.name}${preloaded.has(s.name) ? ' (loaded)' : ''}: ${oneLine(s.description)}`);
  return `Skills (load with skills_load_skill):\n${lines.join('\n')}`;
}

export function projectSummaryText(project: PromptParts['project']): string {
  const layers = [...project.layers].sort((a, b) => b.order - a.order);
  const names = new Map<string, number>();
  for (const l of layers) names.set(l.name, (names.get(l.name) ?? 0) + 1);
  const lines = layers.slice(0, MAX_LAYER_LINES).map((l) => {
    const i = l.info;
    const crs = i.crs?.epsg ? `EPSG:${i.crs.epsg}` : (i.crs?.name ?? 'no CRS');
    const what =
      l.kind === 'vector'
        ? `vector, ${i.geometryType ?? 'geometry?'}, ${i.featureCount ?? '?'} features`
        : l.kind === 'table'
          ? `table (no geometry), ${i.featureCount ?? '?'} rows, ${i.fields.length} columns`
          : `raster ${i.width}×${i.height}, ${i.bands.length} band(s)`;
    // Tools take a name or an id; the id is only worth its length when names repeat.
    const id = (names.get(l.name) ?? 0) > 1 ? ` [id ${l.id}]` : '';
    return `- ${l.name}${id}: ${what}, ${crs}${l.visible ? '' : ', hidden'}${l.editing ? ', edited (working copy)' : ''}`;
  });
  if (layers.length > MAX_LAYER_LINES) lines.push(`- … and ${layers.length - MAX_LAYER_LINES} more (inspect_list_layers lists all)`);
  const head = `Project "${project.name}", layers top first:`;
  const body = lines.length ? lines.join('\n') : '(no layers loaded)';
  return `${head}\n${body}${project.view ? `\n${viewText(project.view)}` : ''}`;
}

function viewText(v: ViewSummary): string {
  const f = (n: number) => n.toFixed(3);
  return `Map view: centre ${f(v.center[1])}°N ${f(v.center[0])}°E, zoom ${v.zoom.toFixed(1)}, bounds W ${f(v.bounds[0])} S ${f(v.bounds[1])} E ${f(v.bounds[2])} N ${f(v.bounds[3])}.`;
}

export function buildSystemPrompt(parts: PromptParts): string {
  const preloadedNames = new Set(parts.preloaded.map((s) => s.name));
  const sections = [
    ROLE_AND_RULES,
    languagePolicy(parts.language),
    skillCatalogueText(parts.catalogue, preloadedNames),
    ...parts.preloaded.map((s) => `Skill ${s.name} (loaded):\n${s.body}`),
    projectSummaryText(parts.project),
  ];
  if (parts.memories) sections.push(parts.memories);
  if (parts.earlierSummary) sections.push(`Earlier in this conversation (summarised):\n${parts.earlierSummary}`);
  return sections.join('\n\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
