import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';

/** The tools of one plugin version: title, id, and what the policy reads (safety, risk, network). */
export function PluginToolList({ tools }: { tools: PluginInfo['tools'] }) {
  if (tools.length === 0) return null;
  return (
    <ul className="plugin-tools" aria-label="Tools">
      {tools.map((tool) => (
        <li key={tool.id} className="plugin-tool" data-testid="plugin-tool" data-tool-id={tool.id}>
          <span className="plugin-tool__title">{tool.title}</span>
          <code className="plugin-tool__id">{tool.id}</code>
          <span className={`safety-badge safety-badge--${tool.safety}`} title="What it may change">
            {tool.safety}
          </span>
          <span className={`risk-badge risk-badge--${tool.riskLevel}`} title="Risk level">
            {tool.riskLevel} risk
          </span>
          {tool.network && (
            <span className="risk-badge risk-badge--network" title="Reaches the network">
              network
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
