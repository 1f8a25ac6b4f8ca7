/**
 * package.json's side of the settings, derived from settingsSchema.ts: the
 * `contributes.configuration` VS Code shows in its Settings editor and the restricted
 * configurations of an untrusted workspace. scripts/manifest-contributes.mjs writes them into
 * package.json; test/unit/extensionManifest.test.ts checks package.json holds exactly these.
 */
import { jsonSchemaOf, type JsonSchema } from './jsonSchema';
import { settingLeaves, type SettingLeaf } from './settingsSchema';

const SECTION = 'mcpLens';

/** One setting as a `contributes.configuration` property. */
function property({ schema, info }: SettingLeaf): JsonSchema {
  // The default as the sanitizer gives it (JSON Schema's input side leaves a transformed one out).
  const fallback = schema.safeParse(undefined);
  const p: JsonSchema = { ...jsonSchemaOf(schema), ...info.editor, scope: info.scope };
  if (fallback.success) p.default = fallback.data;
  if (info.order !== undefined) p.order = info.order;
  if (info.enumDescriptions) {
    // An array of choices describes its items' values.
    const target = Array.isArray(p.enum) ? p : (p.items as JsonSchema);
    target.enumDescriptions = [...info.enumDescriptions];
  }
  if (info.description !== undefined) p.description = info.description;
  if (info.markdownDescription !== undefined) p.markdownDescription = info.markdownDescription;
  return p;
}

export function settingsContribution(): {
  configuration: { title: string; properties: Record<string, JsonSchema> };
  restrictedConfigurations: string[];
} {
  const leaves = settingLeaves();
  return {
    configuration: {
      title: 'MCP Lens',
      properties: Object.fromEntries(leaves.map((l) => [`${SECTION}.${l.key}`, property(l)])),
    },
    restrictedConfigurations: leaves.filter((l) => l.info.restricted).map((l) => `${SECTION}.${l.key}`),
  };
}
