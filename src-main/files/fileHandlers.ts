import type { MethodHandlers } from '../../src-shared/bridge/contract.js';
import { toolError, type ToolResult } from '../../src-shared/tools/toolResult.js';
import type { NewAuditEntry } from '../store/auditRepo.js';
import { FileTokens } from './fileTokens.js';
import { browseRoot, FolderListingError, listFolder } from './folderListing.js';
import { ImportUploads } from './importUploads.js';
import { recentLabel, type RecentFiles } from './recentFiles.js';

export interface FileHandlerDeps {
  isPrivate(path: string): boolean;
  recent: RecentFiles;
  /** Runs a tool as the person with input main chose itself (createToolHost.ts `runForPerson`). */
  runForPerson(entry: string, params: Record<string, unknown>): Promise<ToolResult>;
  /** The host's native open dialog (Electron); absent in the web host. */
  chooseFiles?: () => Promise<string[]>;
  outputsDir(): string;
  env?: Record<string, string | undefined>;
}

type FileMethods = Pick<MethodHandlers, 'files/list' | 'files/recent' | 'files/choose' | 'files/load' | 'layers/locate'>;

/**
 * The bridge side of adding data without the chat (issue #15), and the web host's upload of
 * dropped files. Every path the renderer can load from here is one main issued a token for.
 */
export function createFileHandlers(d: FileHandlerDeps) {
  const tokens = new FileTokens();
  const uploads = new ImportUploads(d.outputsDir);
  const root = browseRoot(d.env);

  const handlers: FileMethods = {
    'files/list': async ({ dir }) => {
      try {
        return await listFolder({ root, isPrivate: d.isPrivate, issueToken: (p) => tokens.issue(p) }, dir);
      } catch (err) {
        // Only our own refusals carry words for the person; anything else is said plainly.
        throw err instanceof FolderListingError ? err : new Error('The folder could not be read.');
      }
    },
    'files/recent': async () => ({
      files: d.recent.list().map((f) => ({ ...f, name: recentLabel(f.path), token: tokens.issue(f.path) })),
    }),
    'files/choose': async () => {
      if (!d.chooseFiles) return { available: false, files: [] };
      const paths = await d.chooseFiles();
      return { available: true, files: paths.map((path) => ({ path, token: tokens.issue(path) })) };
    },
    'files/load': async ({ token }) => {
      const path = tokens.resolve(token);
      if (!path) return toolError('invalid_params', 'That file choice has expired; pick the file again.', false);
      return d.runForPerson('layers.load', { path });
    },
    // "Locate…" for a missing file, picked in the same browser: the person's own choice, not asked.
    'layers/locate': async ({ layerId, token }) => {
      const path = tokens.resolve(token);
      if (!path) return toolError('invalid_params', 'That file choice has expired; pick the file again.', false);
      return d.runForPerson('layers.locate', { layer: layerId, path });
    },
  };

  return {
    handlers,
    /** After every audited call: a successful `layers.load`, by anyone, becomes a recent file. */
    noteAudited(entry: NewAuditEntry): void {
      if (entry.toolId !== 'layers.load' || entry.outcome !== 'ok') return;
      const path = (entry.args as { path?: unknown } | null)?.path;
      if (typeof path === 'string') d.recent.add(path);
    },
    /** Stores one dropped file (web host); the token loads it with `files/load`. */
    async importFile(req: { batch?: string; name: string; body: AsyncIterable<Uint8Array> }) {
      const stored = await uploads.store(req);
      return { batch: stored.batch, name: stored.path.split(/[\\/]/).pop() ?? '', token: tokens.issue(stored.path) };
    },
  };
}
