import type { EventPayload, Result } from '../../../src-shared/bridge/contract.js';
import type { ConnectionState } from '../../bridge/bridgeTypes.js';
import type { AppState, SliceCreator } from '../storeTypes.js';
import { replaceMessages } from './chatSlice.js';
import { sortLayers } from './layersSlice.js';

export type AppInfo = Result<'app/info'>;
export type ProjectSnapshot = Result<'project/get'>;
export type ProjectSwitch = EventPayload<'project/switched'>;

export interface AppInfoSlice {
  appInfo: AppInfo | null;
  project: ProjectSnapshot['project'] | null;
  /** Where the project's map was left (the map starts there); null: fit the layers. */
  savedView: ProjectSnapshot['view'];
  /** Layers whose file was missing when the project loaded, until located. */
  missingLayerIds: readonly string[];
  /** Main switched to another project: the window loads it (ProjectBar reloads). */
  projectSwitch: ProjectSwitch | null;
  conversationId: string | null;
  connection: ConnectionState;
  /** Why the last load of app info or project state failed, shown in the status bar. */
  loadError: string | null;
  setAppInfo(info: AppInfo): void;
  /** Replaces everything `project/get` covers, across slices: startup and after a reconnect. */
  applySnapshot(snapshot: ProjectSnapshot): void;
  setConnection(state: ConnectionState): void;
  projectSwitched(change: ProjectSwitch): void;
  /** A missing layer's file was located. */
  markLocated(layerId: string): void;
  setMissingLayerIds(ids: readonly string[]): void;
  setLoadError(message: string | null): void;
}

export const createAppInfoSlice: SliceCreator<AppInfoSlice> = (set) => ({
  appInfo: null,
  project: null,
  savedView: null,
  missingLayerIds: [],
  projectSwitch: null,
  conversationId: null,
  connection: 'connecting',
  loadError: null,
  setAppInfo: (appInfo) => set({ appInfo }, false, 'app/setInfo'),
  applySnapshot: (snapshot) =>
    set(
      (s) => ({
        project: snapshot.project,
        savedView: snapshot.view,
        missingLayerIds: snapshot.missingLayerIds,
        conversationId: snapshot.conversationId,
        loadError: null,
        layers: sortLayers(snapshot.layers),
        ...replaceMessages(s, snapshot.messages),
        run: snapshot.run,
        pendingApprovals: snapshot.pendingApprovals,
      }),
      false,
      'project/loaded',
    ),
  setConnection: (connection) => set({ connection }, false, 'app/setConnection'),
  projectSwitched: (projectSwitch) => set({ projectSwitch }, false, 'project/switched'),
  setMissingLayerIds: (missingLayerIds) => set({ missingLayerIds }, false, 'project/setMissing'),
  markLocated: (layerId) =>
    set((s) => ({ missingLayerIds: s.missingLayerIds.filter((id) => id !== layerId) }), false, 'project/markLocated'),
  setLoadError: (loadError) => set({ loadError }, false, 'app/setLoadError'),
});

export const selectAppInfo = (s: AppState) => s.appInfo;
export const selectModel = (s: AppState) => s.appInfo?.model ?? null;
export const selectConnection = (s: AppState) => s.connection;
export const selectLoadError = (s: AppState) => s.loadError;
export const selectProjectName = (s: AppState) => s.project?.name ?? null;
export const selectProject = (s: AppState) => s.project;
export const selectMissingLayerIds = (s: AppState) => s.missingLayerIds;
export const selectProjectSwitch = (s: AppState) => s.projectSwitch;
