import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { AnnotationRepo } from './annotationRepo.js';
import { AuditRepo } from './auditRepo.js';
import { ConversationRepo } from './conversationRepo.js';
import { SettingsRepo } from './settingsRepo.js';
import { SnapshotRepo } from './snapshotRepo.js';
import { LayerRepo } from './layerRepo.js';
import { PluginPinRepo } from './pluginPinRepo.js';
import { PluginChoicesRepo } from './pluginChoicesRepo.js';
import { NetworkOriginRepo } from './networkOriginRepo.js';
import { openProjectDb, type Db, type OpenOptions } from './openProjectDb.js';
import { projectRelativePaths } from './projectRelativePaths.js';
import { projectName } from './projectFile.js';
import { MapView } from '../../src-shared/domain/mapView.js';

export interface ProjectInfo {
  id: string;
  name: string;
  path: string;
}

/** Where tools write their outputs: beside the project file, never over a source. */
export function outputsDirOf(projectPath: string): string {
  return join(dirname(projectPath), `${basename(projectPath, '.mapwright')}-outputs`);
}

/** The project a first start opens: `projects/untitled.mapwright` in the data folder. */
export function defaultProjectPath(home: string): string {
  return join(home, 'projects', 'untitled.mapwright');
}

const VIEW_KEY = 'map.view';

/**
 * One project = one SQLite file (DESIGN §2), anywhere on disk (issue #15: new, open, save as).
 * Sources below the file's folder are stored relative to it (projectRelativePaths.ts).
 */
export class ProjectStore {
  readonly layers: LayerRepo;
  readonly conversations: ConversationRepo;
  readonly audit: AuditRepo;
  readonly snapshots: SnapshotRepo;
  readonly settings: SettingsRepo;
  readonly pluginPins: PluginPinRepo;
  /** Plugins switched off, MCP tools marked read-only, origins approved (pluginChoicesRepo.ts). */
  readonly pluginChoices: PluginChoicesRepo;
  /** Network origins approved for this project's map sources (networkOriginRepo.ts). */
  readonly networkOrigins: NetworkOriginRepo;
  /** Notes, arrows and highlights over the map (issue #14), saved with every undo snapshot. */
  readonly annotations: AnnotationRepo;
  readonly info: ProjectInfo;
  /** The conversation new messages go to; its row is written with its first message. */
  conversationId: string;

  private constructor(
    private readonly db: Db,
    path: string,
  ) {
    this.layers = new LayerRepo(db, projectRelativePaths(dirname(path)));
    this.conversations = new ConversationRepo(db);
    this.audit = new AuditRepo(db);
    this.snapshots = new SnapshotRepo(db, this.layers);
    this.settings = new SettingsRepo(db);
    this.pluginPins = new PluginPinRepo(db);
    this.pluginChoices = new PluginChoicesRepo(db);
    this.networkOrigins = new NetworkOriginRepo(db);
    this.annotations = new AnnotationRepo(db);
    this.snapshots.attachAnnotations(this.annotations);
    let row = db.prepare('SELECT id, name FROM project LIMIT 1').get() as { id: string; name: string } | undefined;
    if (!row) {
      const name = projectName(path);
      row = { id: randomUUID(), name: /^untitled$/i.test(name) ? 'Untitled project' : name };
      db.prepare('INSERT INTO project (id, name, created_at) VALUES (?, ?, ?)').run(row.id, row.name, new Date().toISOString());
    }
    this.info = { ...row, path };
    // Nothing runs yet: a card a killed process left mid-way gets its real outcome now.
    this.conversations.settleInterrupted();
    this.conversationId = this.conversations.latestId() ?? randomUUID();
  }

  static openInHome(home: string, options: OpenOptions = {}): ProjectStore {
    return ProjectStore.open(defaultProjectPath(home), options);
  }

  /** Opens (or creates) the project file at `path`; check a file the person named with checkProjectFile first. */
  static open(path: string, options: OpenOptions = {}): ProjectStore {
    return new ProjectStore(openProjectDb(path, options), path);
  }

  /** The map's centre, zoom, bearing and pitch when the project was last looked at; null before. */
  view(): MapView | null {
    const parsed = MapView.safeParse(this.settings.get<unknown>(VIEW_KEY, null));
    return parsed.success ? parsed.data : null;
  }

  setView(view: MapView): void {
    this.settings.set(VIEW_KEY, MapView.parse(view));
  }

  /** A consistent copy of the whole file at `target` (which must not exist), while it stays open. */
  copyTo(target: string): void {
    this.db.prepare('VACUUM INTO ?').run(target);
  }

  close(): void {
    this.db.close();
  }
}
