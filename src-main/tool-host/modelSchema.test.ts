import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { modelSchema } from './modelSchema.js';

const full = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });

describe('modelSchema: the parameters as the model reads them', () => {
  it('drops constraints that only cost characters and keeps the ones a call needs', () => {
    const schema = full(
      z.object({
        layer: z.string().min(1).describe('Layer'),
        code: z.string().min(3).max(12).describe('Code'),
        sql: z.string().min(1).max(20_000).describe('SQL'),
        band: z.number().int().min(1).describe('Band'),
        limit: z.number().int().min(1).max(1000).default(50).describe('Limit'),
        kind: z.enum(['a', 'b']).describe('Kind'),
      }),
    );
    assert.deepEqual(modelSchema(schema), {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        layer: { type: 'string', description: 'Layer' },
        code: { type: 'string', minLength: 3, maxLength: 12, description: 'Code' },
        sql: { type: 'string', description: 'SQL' },
        band: { type: 'integer', minimum: 1, description: 'Band' },
        limit: { type: 'integer', minimum: 1, maximum: 1000, default: 50, description: 'Limit' },
        kind: { type: 'string', enum: ['a', 'b'], description: 'Kind' },
      },
      required: ['layer', 'code', 'sql', 'band', 'kind'],
    });
  });

  it('turns a tuple of one type into an array of that length, and leaves mixed tuples alone', () => {
    const bbox = modelSchema(full(z.tuple([z.number(), z.number(), z.number(), z.number()])));
    assert.deepEqual(bbox, {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      items: { type: 'number' },
      minItems: 4,
      maxItems: 4,
    });
    const mixed = modelSchema(full(z.tuple([z.string(), z.number()]))) as Record<string, unknown>;
    assert.ok(Array.isArray(mixed.prefixItems));
  });

  it('keeps property names that look like keywords (a field called minLength)', () => {
    const out = modelSchema(full(z.object({ minLength: z.string().describe('A field'), items: z.number().describe('B') }))) as {
      properties: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(out.properties), ['minLength', 'items']);
  });

  it('drops an open record’s string-keys boilerplate but not a closed object', () => {
    const out = modelSchema(full(z.record(z.string(), z.unknown()))) as Record<string, unknown>;
    assert.equal(out.propertyNames, undefined);
    assert.equal(out.additionalProperties, undefined);
    assert.equal(out.type, 'object');
  });
});
