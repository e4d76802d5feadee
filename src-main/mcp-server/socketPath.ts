import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * Where the running app serves MCP to local clients (`npm run mcp` connects there):
 * `<home>/mcp.sock`, or on Windows a named pipe named after the data folder.
 */
export function mcpSocketPath(home: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') {
    const id = createHash('sha256').update(home.toLowerCase()).digest('hex').slice(0, 16);
    return `\\\\.\\pipe\\mapwright-mcp-${id}`;
  }
  return join(home, 'mcp.sock');
}
