import { z } from 'zod';
import { ToolResult } from '../tools/toolResult.js';

/** A token main issued for a path it chose itself (src-main/files/fileTokens.ts). */
const FileToken = z.string().min(8).max(64);

const FolderEntry = z.object({
  name: z.string(),
  kind: z.enum(['dir', 'file']),
  size: z.number(),
  gis: z.boolean(),
  token: FileToken.optional(),
});

const RecentFile = z.object({ path: z.string(), name: z.string(), at: z.string(), token: FileToken });

/**
 * Adding data without the chat (issue #15). The renderer browses folders main lists under the
 * person's home and gets a token per file; `files/load` with a token runs `layers.load` as the
 * person on main's own path, without asking. A path the person types goes through
 * `entries/trigger` instead and is asked for, like any path the interface sends.
 */
export const filesMethods = {
  /** One folder under the browse root (the home folder; none given: the root itself). */
  'files/list': {
    params: z.object({ dir: z.string().max(4096).optional() }).strict(),
    result: z.object({ dir: z.string(), parent: z.string().nullable(), entries: z.array(FolderEntry), truncated: z.boolean() }),
  },
  /** The person's recent files, newest first, each with a token to load it again. */
  'files/recent': {
    params: z.object({}).strict(),
    result: z.object({ files: z.array(RecentFile) }),
  },
  /** Electron's native open dialog; the web host answers `available: false`. */
  'files/choose': {
    params: z.object({}).strict(),
    result: z.object({ available: z.boolean(), files: z.array(z.object({ path: z.string(), token: FileToken })) }),
  },
  /** Loads the file a token stands for (`layers.load` as the person; audited, undoable). */
  'files/load': {
    params: z.object({ token: FileToken }).strict(),
    result: ToolResult,
  },
};
