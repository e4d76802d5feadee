import type { Result } from '../../../src-shared/bridge/contract.js';
import type { ConnectionState } from '../../bridge/bridgeTypes.js';
import type { AppState, SliceCreator } from '../storeTypes.js';
import { replaceMessages } from './chatSlice.js';
import { sortLayers } from './layersSlice.js';

export type AppInfo = Result<'app/info'>;
export type ProjectSnapshot = Result<'project/get'>;

export interface AppInfoSlice {
  appInfo: AppInfo | null;
  project: ProjectSnapshot['project'] | null;
  conversationId: string | null;
  connection: ConnectionState;
  /** Why the last load of app info or project state failed, shown in the status bar. */
  loadError: string | null;
  setAppInfo(info: AppInfo): void;
  /** Replaces everything `project/get` covers, across slices: startup and after a reconnect. */
  applySnapshot(snapshot: ProjectSnapshot): void;
  setConnection(state: ConnectionState): void;
  setLoadError(message: string | null): void;
}

export const createAppInfoSlice: SliceCreator<AppInfoSlice> = (set) => ({
  appInfo: null,
  project: null,
  conversationId: null,
  connection: 'connecting',
  loadError: null,
  setAppInfo: (appInfo) => set({ appInfo }, false, 'app/setInfo'),
  applySnapshot: (snapshot) =>
    set(
      (s) => ({
        project: snapshot.project,
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
  setLoadError: (loadError) => set({ loadError }, false, 'app/setLoadError'),
});

export const selectAppInfo = (s: AppState) => s.appInfo;
export const selectModel = (s: AppState) => s.appInfo?.model ?? null;
export const selectConnection = (s: AppState) => s.connection;
export const selectLoadError = (s: AppState) => s.loadError;
export const selectProjectName = (s: AppState) => s.project?.name ?? null;
