import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ApprovalRequest } from '../../src-shared/domain/chat.js';
import { fixtures, haveFixtures, startApp } from '../composition/testApp.js';
import { socketClient, textOf } from './testing/mcpTest.js';

/**
 * The whole main process serving MCP: a client's calls go through the app's own dispatcher,
 * its write raises the app's approval dialog (an event to the connected window), the produced
 * layer joins the project, and with no window a write is refused at once.
 */
describe('Mapwright as an MCP server, composed', { skip: !haveFixtures }, () => {
  it('serves its tools on <home>/mcp.sock; a write asks the window; with none, it is refused', async () => {
    const app = await startApp(null);
    const { services } = app;
    assert.equal(services.mcp.socketPath, join(app.home, 'mcp.sock'));
    assert.equal(services.mcp.http, null, 'HTTP only when MAPWRIGHT_MCP_HTTP asks for it');

    const client = await socketClient(services.mcp.socketPath!, 'inspector', '0.16.0');
    after(() => client.close().catch(() => undefined));
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('layers_load') && names.includes('inspect_list_layers'));

    const pending = client.callTool({ name: 'layers_load', arguments: { path: join(fixtures, 'nc.gpkg') } });
    const request = await app.approval();
    assert.equal(request.toolId, 'layers.load');
    assert.equal((request as ApprovalRequest).preview?.requestedBy, 'MCP client inspector 0.16.0');
    await app.services.invoke('tools/decide', { approvalId: request.id, decision: 'approve', remember: false });
    const loaded = await pending;
    assert.equal(loaded.isError, undefined, textOf(loaded));
    const state = (await app.services.invoke('project/get', {})) as { layers: { name: string }[] };
    assert.deepEqual(
      state.layers.map((l) => l.name),
      ['nc'],
    );

    const listed = await client.callTool({ name: 'inspect_list_layers', arguments: {} });
    assert.match(textOf(listed), /"nc"/);

    const { entries } = (await app.services.invoke('audit/list', { caller: 'client' })) as {
      entries: { toolId: string; client: string | null; decision: string }[];
    };
    assert.deepEqual(
      entries.map((e) => [e.toolId, e.client, e.decision]),
      [
        ['inspect.list_layers', 'inspector 0.16.0', 'not_needed'],
        ['layers.load', 'inspector 0.16.0', 'approved'],
      ],
    );

    app.disconnect();
    const refused = await client.callTool({ name: 'layers_remove', arguments: { layer: 'nc' } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /No Mapwright window is open to approve layers_remove; open the app and try again\./);
    await app.services.close();
  });
});
