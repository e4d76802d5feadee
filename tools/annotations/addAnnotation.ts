import { z } from 'zod';
import {
  AnnotationColor,
  AnnotationGeometry,
  AnnotationKind,
  DEFAULT_ANNOTATION_COLOR,
  GEOMETRY_OF_KIND,
  kindMismatch,
  MAX_ANNOTATION_TEXT,
} from '../../src-shared/domain/annotation.js';
import { ToolFailure } from '../../src-shared/tools/toolResult.js';
import { defineTool } from '../../src-shared/tools/toolSdk.js';
import { annotationFacts, quoted } from './annotationFacts.js';

/** Model-facing words are kept short: every request carries them (npm run prompt-report). */
export const addAnnotation = defineTool({
  id: 'annotations.add',
  version: '1.0.0',
  group: 'annotations',
  icon: 'map',
  title: 'Add annotation',
  description:
    'Adds an annotation over the map, in EPSG:4326 degrees: a text note (Point), an arrow (LineString, head at its end) ' +
    'or a highlight (Polygon). Only the person can move or delete it. Returns its id.',
  input: z.object({
    kind: AnnotationKind.describe('Sets the geometry type'),
    text: z.string().max(MAX_ANNOTATION_TEXT).default('').describe('Label; required for a note'),
    // Loose here, checked in full in `prepare`: the full GeoJSON schema would triple what
    // every request carries, for rules a refusal explains just as well.
    geometry: z
      .object({ type: z.enum(['Point', 'LineString', 'Polygon']), coordinates: z.array(z.unknown()) })
      .describe('GeoJSON, [lon, lat] degrees'),
    color: AnnotationColor.optional().describe('#rrggbb'),
  }),
  safety: 'write',
  userVisible: true,
  exec: 'main',
  handles: ['project'],
  summary: (a) => `Add ${a.kind}${a.text ? ` ${quoted(a.text)}` : ''}`,
  async prepare(args) {
    const parsed = AnnotationGeometry.safeParse(args.geometry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ToolFailure('invalid_params', `geometry.${issue.path.join('.')}: ${issue.message}`, false, 'Use [lon, lat] in degrees.');
    }
    const geometry = parsed.data;
    const mismatch = kindMismatch(args.kind, geometry);
    if (mismatch)
      throw new ToolFailure('invalid_params', `geometry: ${mismatch}.`, false, `Give the ${args.kind} a ${GEOMETRY_OF_KIND[args.kind]}.`);
    if (args.kind === 'note' && !args.text.trim()) throw new ToolFailure('invalid_params', 'text: a note needs text.', false);
    const text = args.text.trim();
    return { args: { ...args, text, geometry }, preview: { kind: args.kind, colour: args.color ?? DEFAULT_ANNOTATION_COLOR } };
  },
  async execute(args, { handles, caller }) {
    const added = handles.project.addAnnotation({
      kind: args.kind,
      text: args.text,
      geometry: AnnotationGeometry.parse(args.geometry),
      color: args.color ?? DEFAULT_ANNOTATION_COLOR,
      createdBy: caller,
    });
    return { annotation: annotationFacts(added) };
  },
});
