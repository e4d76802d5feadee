import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveDependencies, type DependentVersion } from './pluginDependencies.js';

function v(namespace: string, version: string, ...depends_on: string[]): DependentVersion {
  return { namespace, version, manifest: { depends_on } };
}

function byNamespace(...versions: DependentVersion[]): Map<string, DependentVersion[]> {
  const out = new Map<string, DependentVersion[]>();
  for (const x of versions) out.set(x.namespace, [...(out.get(x.namespace) ?? []), x]);
  return out;
}

const keptIds = (kept: Map<string, DependentVersion[]>) => [...kept.values()].flat().map((x) => `${x.namespace}@${x.version}`);

describe('plugin dependencies (depends_on)', () => {
  it('keeps a version whose dependency has a version in range', () => {
    const { kept, reasons } = resolveDependencies(byNamespace(v('base', '1.4.0'), v('app', '1.0.0', 'base@^1.2.0')));
    assert.deepEqual(keptIds(kept), ['base@1.4.0', 'app@1.0.0']);
    assert.equal(reasons.size, 0);
  });

  it('names a missing dependency, and one installed only outside the range', () => {
    const { kept, reasons } = resolveDependencies(
      byNamespace(v('base', '2.0.0'), v('app', '1.0.0', 'base@^1.0.0'), v('other', '1.0.0', 'ghost')),
    );
    assert.deepEqual(keptIds(kept), ['base@2.0.0']);
    assert.equal(reasons.get('app@1.0.0'), 'needs base@^1.0.0; installed: 2.0.0');
    assert.equal(reasons.get('other@1.0.0'), 'needs ghost@*, which is not installed or not available');
  });

  it('removes a chain to a fixed point, and a cycle whose ring has a missing link', () => {
    const { kept, reasons } = resolveDependencies(
      byNamespace(v('a', '1.0.0', 'b'), v('b', '1.0.0', 'c'), v('c', '1.0.0', 'missing'), v('x', '1.0.0', 'y'), v('y', '1.0.0', 'x')),
    );
    // x and y need each other and both exist: a cycle that is whole is kept.
    assert.deepEqual(keptIds(kept).sort(), ['x@1.0.0', 'y@1.0.0']);
    assert.match(reasons.get('a@1.0.0') ?? '', /needs b@\*, whose version 1\.0\.0 cannot be offered/);
    assert.match(reasons.get('c@1.0.0') ?? '', /needs missing@\*/);
  });

  it('a switched-off namespace is absent for its dependents, and not kept itself', () => {
    const { kept, reasons } = resolveDependencies(byNamespace(v('base', '1.0.0'), v('app', '1.0.0', 'base')), new Set(['base']));
    assert.deepEqual(keptIds(kept), []);
    assert.equal(reasons.get('app@1.0.0'), 'needs base@*, which is switched off in this project');
    assert.equal(reasons.has('base@1.0.0'), false, 'being switched off is the plugin panel’s own state, not a reason');
  });

  it('keeps the versions of a namespace whose needs are met and drops the others', () => {
    const { kept, reasons } = resolveDependencies(
      byNamespace(v('base', '1.0.0'), v('app', '2.0.0', 'base@>=2.0.0'), v('app', '1.0.0', 'base@1.x')),
    );
    assert.deepEqual(keptIds(kept), ['base@1.0.0', 'app@1.0.0']);
    assert.equal(reasons.get('app@2.0.0'), 'needs base@>=2.0.0; installed: 1.0.0');
  });
});
