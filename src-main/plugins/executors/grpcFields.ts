import type * as protoLoader from '@grpc/proto-loader';
import { ToolFailure } from '../../../src-shared/tools/toolResult.js';

/*
 * The request message's fields checked against its .proto definition before encoding: the
 * protobuf encoder silently drops fields a message does not have, so an argument the plugin's
 * proto does not know would vanish instead of being refused (grpcExecutor.ts).
 */

/** Refuses arguments naming fields the request message (or a nested one) does not have: ToolFailure('invalid_params'). */
export function checkRequestFields(
  args: Readonly<Record<string, unknown>>,
  type: DescriptorProtoLike,
  service: string,
  defs: protoLoader.PackageDefinition,
): void {
  const fullName = resolveName(type.name ?? '', service, defs) ?? lastResort(type.name ?? '', defs);
  checkFields(args, { type, fullName }, defs, '');
}

/** The parts of a DescriptorProto (as proto-loader gives it, an object) the field check reads. */
export interface DescriptorProtoLike {
  name?: string;
  field?: { name: string; type?: string; typeName?: string; label?: string }[];
  nestedType?: DescriptorProtoLike[];
  options?: { mapEntry?: boolean } | null;
}

/** A message type and its full name (field type names are written relative to it). */
interface Scoped {
  type: DescriptorProtoLike;
  /** Full name without the leading dot; '' when unknown (nested types then are not checked). */
  fullName: string;
}

/**
 * Refuses keys the message does not have (protobuf's own encoding drops them silently), in
 * nested messages, repeated messages and map values too. Types it cannot find are left to
 * the encoder.
 */
function checkFields(value: unknown, msg: Scoped, defs: protoLoader.PackageDefinition, path: string): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value)) return;
  const { type } = msg;
  const fields = new Map((type.field ?? []).map((f) => [f.name, f]));
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = fields.get(key);
    const where = path ? `${path}.${key}` : key;
    if (!field) {
      throw new ToolFailure(
        'invalid_params',
        `The ${type.name ?? 'request'} message has no field '${where}' (its fields: ${[...fields.keys()].join(', ') || 'none'}).`,
      );
    }
    if (field.type !== 'TYPE_MESSAGE' || v === null || v === undefined || !field.typeName) continue;
    const entry = type.nestedType?.find((n) => n.name === field.typeName && n.options?.mapEntry);
    if (entry) {
      const valueField = entry.field?.find((f) => f.name === 'value');
      const valueType =
        valueField?.type === 'TYPE_MESSAGE' && valueField.typeName ? messageType(valueField.typeName, msg, defs) : undefined;
      if (valueType && typeof v === 'object' && !Array.isArray(v)) {
        for (const [k, item] of Object.entries(v as Record<string, unknown>)) checkFields(item, valueType, defs, `${where}.${k}`);
      }
      continue;
    }
    const nested = messageType(field.typeName, msg, defs);
    if (!nested) continue;
    if (Array.isArray(v)) v.forEach((item, i) => checkFields(item, nested, defs, `${where}[${i}]`));
    else checkFields(v, nested, defs, where);
  }
}

/** A field's message type, its name looked up as protobuf does: from the innermost scope outwards. */
function messageType(typeName: string, parent: Scoped, defs: protoLoader.PackageDefinition): Scoped | undefined {
  if (!parent.fullName && !typeName.startsWith('.')) return undefined;
  const fullName = resolveName(typeName, parent.fullName, defs);
  const type = fullName ? lookupType(fullName, defs) : undefined;
  return fullName && type ? { type, fullName } : undefined;
}

function resolveName(typeName: string, scope: string, defs: protoLoader.PackageDefinition): string | undefined {
  if (typeName.startsWith('.')) return lookupType(typeName.slice(1), defs) ? typeName.slice(1) : undefined;
  const parts = scope ? scope.split('.') : [];
  for (let i = parts.length; i >= 0; i--) {
    const candidate = [...parts.slice(0, i), typeName].join('.');
    if (lookupType(candidate, defs)) return candidate;
  }
  return undefined;
}

/** A message by full name: a top-level one from the package definition, a nested one (not listed there) from its parent's nestedType. */
function lookupType(fullName: string, defs: protoLoader.PackageDefinition): DescriptorProtoLike | undefined {
  const parts = fullName.split('.');
  for (let i = parts.length; i > 0; i--) {
    const def = defs[parts.slice(0, i).join('.')] as { format?: string; type?: unknown } | undefined;
    if (!def) continue;
    if (def.format !== 'Protocol Buffer 3 DescriptorProto') return undefined;
    let type: DescriptorProtoLike | undefined = def.type as DescriptorProtoLike;
    for (const name of parts.slice(i)) type = type?.nestedType?.find((n) => n.name === name);
    return type;
  }
  return undefined;
}

/** The request type from another package (e.g. google.protobuf.Empty): the one message of that name, or ''. */
function lastResort(name: string, defs: protoLoader.PackageDefinition): string {
  const found = Object.keys(defs).filter(
    (k) => (k === name || k.endsWith(`.${name}`)) && (defs[k] as { format?: string }).format === 'Protocol Buffer 3 DescriptorProto',
  );
  return found.length === 1 ? (found[0] ?? '') : '';
}
