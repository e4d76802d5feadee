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

export interface ProjectInfo {
  id: string;
  name: string;
  path: string;
}

/** Where tools write their outputs: beside the project file, never over a source. */
export function outputsDirOf(projectPath: string): string {
  return join(dirname(projectPath), `${basename(projectPath, '.mapwright')}-outputs`);
}

/**
 * One project = one SQLite file (DESIGN §2). Until projects can be saved elsewhere, the
 * working project lives in the data folder as `projects/untitled.mapwright`.
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
    this.layers = new LayerRepo(db);
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
      row = { id: randomUUID(), name: 'Untitled project' };
      db.prepare('INSERT INTO project (id, name, created_at) VALUES (?, ?, ?)').run(row.id, row.name, new Date().toISOString());
    }
    this.info = { ...row, path };
    // Nothing runs yet: a card a killed process left mid-way gets its real outcome now.
    this.conversations.settleInterrupted();
    this.conversationId = this.conversations.latestId() ?? randomUUID();
  }

  static openInHome(home: string, options: OpenOptions = {}): ProjectStore {
    const path = join(home, 'projects', 'untitled.mapwright');
    return new ProjectStore(openProjectDb(path, options), path);
  }

  close(): void {
    this.db.close();
  }
}
