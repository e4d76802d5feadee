import { pluginDependencies, type PluginManifest } from '../../src-shared/plugins/pluginManifest.js';
import { satisfies } from '../../src-shared/plugins/semver.js';

/** What dependency resolution needs of a plugin version. */
export interface DependentVersion {
  namespace: string;
  version: string;
  /** Without a manifest (never the case for a checked version) a version needs nothing. */
  manifest?: Pick<PluginManifest, 'depends_on'>;
}

/**
 * Which plugin versions may be offered once `depends_on` is honoured: a version whose every
 * dependency has an offered version in its range. Removing one version can strand another
 * (a chain, or a cycle of plugins needing each other), so this runs to a fixed point. A
 * namespace the person switched off counts as absent for its dependents.
 * Returns the versions kept (per namespace, in the order given) and, per `namespace@version`
 * left out, the reason in words the plugin panel shows.
 */
export function resolveDependencies<V extends DependentVersion>(
  candidates: ReadonlyMap<string, readonly V[]>,
  switchedOff: ReadonlySet<string> = new Set(),
): { kept: Map<string, V[]>; reasons: Map<string, string> } {
  const kept = new Map<string, V[]>();
  for (const [namespace, versions] of candidates) if (!switchedOff.has(namespace)) kept.set(namespace, [...versions]);
  const reasons = new Map<string, string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [namespace, versions] of kept) {
      const stay = versions.filter((v) => {
        const missing = unmet(v, kept, candidates, switchedOff);
        if (missing) reasons.set(`${v.namespace}@${v.version}`, missing);
        return missing === null;
      });
      if (stay.length === versions.length) continue;
      changed = true;
      if (stay.length) kept.set(namespace, stay);
      else kept.delete(namespace);
    }
  }
  return { kept, reasons };
}

function unmet<V extends DependentVersion>(
  v: V,
  kept: ReadonlyMap<string, readonly V[]>,
  candidates: ReadonlyMap<string, readonly V[]>,
  switchedOff: ReadonlySet<string>,
): string | null {
  for (const dep of v.manifest ? pluginDependencies(v.manifest) : []) {
    if ((kept.get(dep.namespace) ?? []).some((d) => satisfies(d.version, dep.range))) continue;
    const need = `needs ${dep.namespace}@${dep.range}`;
    if (switchedOff.has(dep.namespace)) return `${need}, which is switched off in this project`;
    const present = candidates.get(dep.namespace) ?? [];
    if (present.length === 0) return `${need}, which is not installed or not available`;
    const inRange = present.filter((d) => satisfies(d.version, dep.range));
    if (inRange.length === 0) return `${need}; installed: ${present.map((d) => d.version).join(', ')}`;
    return `${need}, whose version ${inRange.map((d) => d.version).join(', ')} cannot be offered (its own dependencies)`;
  }
  return null;
}
