import type { PluginInfo } from '../../src-shared/bridge/pluginContract.js';
import { originLabel } from './pluginFormat.js';
import { PluginToolList } from './PluginToolList.js';

/** One plugin version: what it is, where it lives, its tools, and why it is unavailable if it is. */
export function PluginItem({ plugin }: { plugin: PluginInfo }) {
  return (
    <li
      className={`plugin-item plugin-item--${plugin.state}`}
      data-testid="plugin-item"
      data-plugin-id={plugin.id}
      data-state={plugin.state}
    >
      <div className="plugin-item__head">
        <span className="plugin-item__name">{plugin.name || plugin.namespace}</span>
        <span className="plugin-item__version">{plugin.version ? `v${plugin.version}` : 'no version'}</span>
        <span className={`plugin-state plugin-state--${plugin.state}`}>{plugin.state}</span>
      </div>
      {plugin.description && <p className="plugin-item__description">{plugin.description}</p>}
      <dl className="plugin-item__facts">
        <dt>Id</dt>
        <dd>
          <code>{plugin.id}</code>
        </dd>
        <dt>From</dt>
        <dd>{originLabel(plugin.origin)}</dd>
        <dt>Folder</dt>
        <dd className="plugin-item__dir" title={plugin.dir}>
          <code>{plugin.dir}</code>
        </dd>
      </dl>
      {plugin.sandboxed === false && (
        <p className="plugin-item__unsandboxed" data-testid="plugin-unsandboxed">
          Runs unsandboxed: no OS sandbox (bubblewrap) here, so its commands are not cut off from the network or your files.
        </p>
      )}
      {plugin.reasons.length > 0 && <PluginReasons reasons={plugin.reasons} />}
      <PluginToolList tools={plugin.tools} />
    </li>
  );
}

/** Why a plugin is not offered to the model, each line naming its file and culprit. */
function PluginReasons({ reasons }: { reasons: readonly string[] }) {
  return (
    <ul className="plugin-item__reasons" data-testid="plugin-reasons" aria-label="Why it is unavailable">
      {reasons.map((reason) => (
        <li key={reason}>{reason}</li>
      ))}
    </ul>
  );
}
