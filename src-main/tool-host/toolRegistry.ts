import { createHash } from 'node:crypto';
import { z } from 'zod';
import { HANDLE_NAMES } from '../../src-shared/tools/handles.js';
import { wireName, type ToolDefinition } from '../../src-shared/tools/toolSdk.js';
import { editDistance } from '../../src-shared/text/editDistance.js';

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
export class ToolRegistry {
  private readonly byId = new Map<string, RegisteredTool>();
  private readonly byWire = new Map<string, RegisteredTool>();

  constructor(defs: readonly ToolDefinition[]) {
    for (const def of defs) this.register(def);
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
        ]),
      )
      .digest('hex')
      .slice(0, 16);
    const entry: RegisteredTool = { def, wireName: wire, inputSchema, definitionHash };
    this.byId.set(def.id, entry);
    this.byWire.set(wire, entry);
  }

  /** By id (`layers.load`) or wire name (`layers_load`). */
  find(name: string): RegisteredTool | undefined {
    return this.byId.get(name) ?? this.byWire.get(name);
  }

  all(): RegisteredTool[] {
    return [...this.byId.values()];
  }

  /**
   * What the model may be offered: never `user_only` or deprecated tools (the first wall; the
   * dispatcher is the second), only reads in Plan mode, and only `offered` ids when given.
   */
  forModel(options: { readOnly?: boolean; offered?: ReadonlySet<string> } = {}): RegisteredTool[] {
    return this.all().filter(
      (t) =>
        t.def.caller !== 'user_only' &&
        !t.def.deprecated &&
        (!options.readOnly || t.def.safety === 'read') &&
        (!options.offered || options.offered.has(t.def.id)),
    );
  }

  /** The closest known wire names, for an `unknown_tool` error the model can recover from. */
  nearest(name: string, count = 3): string[] {
    return this.all()
      .map((t) => ({ name: t.wireName, d: editDistance(name.toLowerCase(), t.wireName) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, count)
      .map((x) => x.name);
  }
}
