import { z } from 'zod';
import { MapView } from '../domain/mapView.js';
import { ToolResult } from '../tools/toolResult.js';

const ProjectPath = z.string().min(1).max(4096);
const FileToken = z.string().min(8).max(64);

const RecentProject = z.object({
  path: z.string(),
  name: z.string(),
  at: z.string(),
  /** False when the file is gone: the list shows it greyed out. */
  exists: z.boolean(),
  current: z.boolean(),
});

/**
 * Projects (issue #15): new, open, save as, recent; the map view kept with the project; a
 * layer whose file is missing pointed at its new place. Opening or saving answers first and
 * then switches every service to the other project; `project/switched` tells the windows to
 * load it. A project file is the app's own format, checked before it is opened; its layers'
 * sources pass the same boundary as any other (the GIS worker's source rules, the egress gate).
 */
export const projectMethods = {
  'project/recent': {
    params: z.object({}).strict(),
    result: z.object({ projects: z.array(RecentProject) }),
  },
  /** A fresh untitled project in the data folder (`projects/untitled-N.mapwright`); Save as places it. */
  'project/new': {
    params: z.object({}).strict(),
    result: z.object({ path: z.string() }),
  },
  'project/open': {
    params: z.object({ path: ProjectPath }).strict(),
    result: z.object({ path: z.string() }),
  },
  /** Copies the project (and its outputs folder) to `path`, which must not exist, and opens the copy. */
  'project/save-as': {
    params: z.object({ path: ProjectPath }).strict(),
    result: z.object({ path: z.string() }),
  },
  /**
   * Where the map is: saved with the project as the person moves it. `projectId` is the project
   * the window shows: a view sent while main switches project is not written into the next one.
   */
  'project/set-view': {
    params: z.object({ view: MapView, projectId: z.string().max(100).optional() }).strict(),
    result: z.object({ saved: z.boolean() }),
  },
  /** "Locate…" with a file the folder browser listed: `layers.locate` as the person, without asking. */
  'layers/locate': {
    params: z.object({ layerId: z.string().min(1).max(100), token: FileToken }).strict(),
    result: ToolResult,
  },
} satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export const projectEvents = {
  /** Main now serves another project: the windows load it (the renderer reloads). */
  'project/switched': z.object({ path: z.string(), error: z.string().nullable() }),
};
