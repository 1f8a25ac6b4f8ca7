/**
 * The JSON Schema of a zod schema, as the places that publish one want it: draft-07 (what the
 * MCP SDK writes for a tool's schema, and what VS Code reads in a manifest), the input side,
 * and without what says nothing: no `$schema` line, no `propertyNames: {type: "string"}` (JSON
 * keys are strings), no `additionalProperties: {}`, no safe-integer bounds on an integer. Every
 * word of a meta-tool's schema rides in every tools/list.
 */
import * as z from 'zod/mini';

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: z.ZodMiniType): JsonSchema {
  const json: JsonSchema = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'input',
    override: ({ jsonSchema }) => withoutNoise(jsonSchema as JsonSchema),
  });
  delete json.$schema;
  return json;
}

function withoutNoise(s: JsonSchema): void {
  const names = s.propertyNames as JsonSchema | undefined;
  if (names && Object.keys(names).length === 1 && names.type === 'string') delete s.propertyNames;
  const extra = s.additionalProperties;
  if (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0) delete s.additionalProperties;
  if (s.type === 'integer') {
    if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
    if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  }
}
