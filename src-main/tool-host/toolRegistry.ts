import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HANDLE_NAMES } from '../../src-shared/tools/handles.js';
import { wireName, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { editDistance } from '../../src-shared/text/editDistance.js';
import { checkParamRules, checkRuleTypes } from '../../src-shared/tools/paramRules/paramRules.js';

export interface RegisteredTool {
  def: ToolDefinition;
  wireName: string;
  /** JSON Schema of the input, as the model sees it. */
  inputSchema: Record<string, unknown>;
  /** Hash of everything the person approved when granting: a changed definition revokes grants. */
  definitionHash: string;
}

const ID = /^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/;

/**
 * All tools, checked once at start-up. Registration fails loudly, naming the culprit,
 * rather than letting a broken declaration reach the model.
 */
export class ToolRegistry implements ToolSet {
  private readonly byId = new Map<string, RegisteredTool>();
  private readonly byWire = new Map<string, RegisteredTool>();
  /** Tools that come and go at run time (a plugin version's), by group; the built-in ones have none. */
  private readonly groups = new Map<string, string[]>();
  /** Plugin namespace → version → its tools, for conversations pinned to an older version. */
  private readonly alternates = new Map<string, Map<string, RegisteredTool[]>>();

  constructor(defs: readonly ToolDefinition[]) {
    for (const def of defs) this.register(def);
  }

  /**
   * Replaces the tools of one group (a plugin version) at once: the new declarations are all
   * checked first, on a copy, so a broken one leaves the registry as it was and comes back as
   * the reason. An empty list removes the group. Effective for the next request and lookup.
   */
  setGroup(group: string, defs: readonly ToolDefinition[]): { ok: true } | { ok: false; reason: string } {
    const trial = new ToolRegistry([]);
    for (const t of this.all()) if (!this.groups.get(group)?.includes(t.def.id)) trial.adopt(t);
    try {
      for (const def of defs) trial.register(def);
    } catch (err) {
      return { ok: false, reason: err instanceof Error ? err.message : String(err) };
    }
    for (const id of this.groups.get(group) ?? []) this.forget(id);
    for (const def of defs) this.adopt(trial.byId.get(def.id)!);
    if (defs.length)
      this.groups.set(
        group,
        defs.map((d) => d.id),
      );
    else this.groups.delete(group);
    return { ok: true };
  }

  private adopt(entry: RegisteredTool): void {
    this.byId.set(entry.def.id, entry);
    this.byWire.set(entry.wireName, entry);
  }

  private forget(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    this.byWire.delete(entry.wireName);
  }

  private register(def: ToolDefinition): void {
    if (!ID.test(def.id)) throw new Error(`Tool id '${def.id}' must be 'namespace.name' in lowercase snake_case`);
    if (this.byId.has(def.id)) throw new Error(`Duplicate tool id '${def.id}'`);
    const wire = wireName(def.id);
    const clash = this.byWire.get(wire);
    if (clash) throw new Error(`Tool '${def.id}' has the wire name '${wire}' of '${clash.def.id}'`);
    if (!(def.input instanceof z.ZodObject)) throw new Error(`Tool '${def.id}' needs a zod object input schema`);
    if (!def.description.trim()) throw new Error(`Tool '${def.id}' has no description`);
    if (def.safety !== 'read' && typeof def.summary !== 'function') throw new Error(`Write tool '${def.id}' has no summary`);
    if (!def.title?.trim() || !def.group?.trim() || !def.icon?.trim())
      throw new Error(`Tool '${def.id}' needs a title, a group and an icon`);
    if (!['main', 'worker', 'renderer'].includes(def.exec))
      throw new Error(`Tool '${def.id}' has an unknown exec channel '${String(def.exec)}'`);
    if (typeof def.execute !== 'function') throw new Error(`Tool '${def.id}' has no execute handler`);
    for (const h of def.handles) {
      if (!HANDLE_NAMES.includes(h)) throw new Error(`Tool '${def.id}' asks for unknown handle '${String(h)}'`);
    }
    const inputSchema = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    delete inputSchema.$schema;
    if (def.rules) checkRules(def.id, def.rules, def.input.shape, inputSchema);
    const definitionHash = createHash('sha256')
      .update(
        JSON.stringify([
          def.id,
          def.version,
          def.description,
          inputSchema,
          def.safety,
          def.network ?? false,
          def.caller ?? 'user_and_model',
          def.exec,
          // Only where declared, so built-in tools keep their hashes (and the grants tied to them).
          ...(def.riskLevel ? [def.riskLevel] : []),
          ...(def.origins?.length ? [def.origins] : []),
          // The rules decide which calls reach the dialog at all: part of what was approved.
          ...(def.rules && Object.keys(def.rules).length ? [canonicalRules(def.rules)] : []),
        ]),
      )
      .digest('hex')
      .slice(0, 16);
    this.adopt({ def, wireName: wire, inputSchema, definitionHash });
  }

  /** By id (`layers.load`) or wire name (`layers_load`). */
  find(name: string): RegisteredTool | undefined {
    return this.byId.get(name) ?? this.byWire.get(name);
  }

  all(): RegisteredTool[] {
    return [...this.byId.values()];
  }

  forModel(options: ForModelOptions = {}): RegisteredTool[] {
    return offerable(this.all(), options);
  }

  nearest(name: string, count = 3): string[] {
    return nearestNames(this.all(), name, count);
  }

  /**
   * Older versions of a plugin namespace kept beside the current one (whose tools are the
   * group's), for conversations pinned to them. Each version's declarations are checked like
   * the current ones; a version refused comes back with its reason and is not kept.
   */
  setAlternates(namespace: string, versions: ReadonlyMap<string, readonly ToolDefinition[]>): Map<string, string> {
    const refused = new Map<string, string>();
    const kept = new Map<string, RegisteredTool[]>();
    for (const [version, defs] of versions) {
      const trial = new ToolRegistry([]);
      for (const t of this.all()) if (namespaceOf(t.def.id) !== namespace) trial.adopt(t);
      try {
        for (const def of defs) trial.register(def);
        kept.set(
          version,
          defs.map((d) => trial.byId.get(d.id)!),
        );
      } catch (err) {
        refused.set(version, err instanceof Error ? err.message : String(err));
      }
    }
    if (kept.size) this.alternates.set(namespace, kept);
    else this.alternates.delete(namespace);
    return refused;
  }

  /**
   * The tools as one conversation sees them: for each pinned plugin namespace whose pinned
   * version is kept beside the current one, that version's tools instead of the current's.
   */
  view(pins: ReadonlyMap<string, string>): ToolSet {
    const swapped = new Map<string, RegisteredTool[]>();
    for (const [namespace, version] of pins) {
      const tools = this.alternates.get(namespace)?.get(version);
      if (tools) swapped.set(namespace, tools);
    }
    if (swapped.size === 0) return this;
    const list = [...this.all().filter((t) => !swapped.has(namespaceOf(t.def.id))), ...[...swapped.values()].flat()];
    return {
      find: (name) => list.find((t) => t.def.id === name || t.wireName === name),
      all: () => [...list],
      forModel: (options = {}) => offerable(list, options),
      nearest: (name, count = 3) => nearestNames(list, name, count),
    };
  }
}

export interface ForModelOptions {
  readOnly?: boolean;
  offered?: ReadonlySet<string>;
}

/** What the dispatcher and the turn builder need of the tools: the registry, or one conversation's view of it. */
export interface ToolSet {
  find(name: string): RegisteredTool | undefined;
  all(): RegisteredTool[];
  forModel(options?: ForModelOptions): RegisteredTool[];
  nearest(name: string, count?: number): string[];
}

function namespaceOf(id: string): string {
  return id.slice(0, id.indexOf('.'));
}

/**
 * What the model may be offered: never `user_only` or deprecated tools (the first wall; the
 * dispatcher is the second), only reads in Plan mode, and only `offered` ids when given.
 */
function offerable(tools: readonly RegisteredTool[], options: ForModelOptions): RegisteredTool[] {
  return tools.filter(
    (t) =>
      t.def.caller !== 'user_only' &&
      !t.def.deprecated &&
      (!options.readOnly || t.def.safety === 'read') &&
      (!options.offered || options.offered.has(t.def.id)),
  );
}

/** A declaration's parameter rules must make sense against its input, or the tool is refused. */
function checkRules(
  id: string,
  rules: Readonly<Record<string, readonly string[]>>,
  shape: Record<string, unknown>,
  inputSchema: Record<string, unknown>,
): void {
  const properties = (inputSchema.properties ?? {}) as Record<string, unknown>;
  const problems = [...checkParamRules(rules, Object.keys(shape)), ...checkRuleTypes(rules, properties)];
  if (problems.length)
    throw new Error(`Tool '${id}' has bad parameter rules: ${problems.map(([param, message]) => `rules.${param}: ${message}`).join('; ')}`);
}

/** The rules in a fixed order, so the hash does not move when a declaration is merely reordered. */
function canonicalRules(rules: Readonly<Record<string, readonly string[]>>): [string, string[]][] {
  return Object.entries(rules)
    .map(([param, texts]): [string, string[]] => [param, [...texts].sort()])
    .sort(([a], [b]) => a.localeCompare(b));
}

/** The closest known wire names, for an `unknown_tool` error the model can recover from. */
function nearestNames(tools: readonly RegisteredTool[], name: string, count: number): string[] {
  return tools
    .map((t) => ({ name: t.wireName, d: editDistance(name.toLowerCase(), t.wireName) }))
    .sort((a, b) => a.d - b.d)
    .slice(0, count)
    .map((x) => x.name);
}
