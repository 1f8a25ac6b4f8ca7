/**
 * The LanceDB tool table's columns (lanceToolStore.ts): its schema, the check that a table on
 * disk is one we wrote, and rows read and written column by column.
 */
import type * as lancedb from '@lancedb/lancedb';
import type { Schema, Table as ArrowTable } from 'apache-arrow';
import type { LanceModules } from './lanceModule';
import type { StoredTool, StoredVector } from './toolStore';

export const TABLE = 'tools';
const COLUMNS = ['id', 'server', 'tool', 'text', 'input_schema', 'content_hash', 'model', 'vector'] as const;
/** What the index reads back: text and schema are kept for people inspecting the store, not re-read. */
const READ_COLUMNS = ['id', 'server', 'content_hash', 'model', 'vector'] as const;
export function schemaFor(
  { Field, FixedSizeList, Float32, Schema, Utf8 }: LanceModules['arrow'],
  dimension: number,
): Schema {
  const text = (name: string) => new Field(name, new Utf8(), false);
  return new Schema([
    ...COLUMNS.slice(0, -1).map(text),
    new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
  ]);
}

export function vectorDimension({ FixedSizeList }: LanceModules['arrow'], schema: Schema): number {
  const names = new Set(schema.fields.map((f) => f.name));
  const missing = COLUMNS.filter((c) => !names.has(c));
  if (missing.length) throw new Error(`table "${TABLE}" lacks column(s) ${missing.join(', ')}`);
  const type = schema.fields.find((f) => f.name === 'vector')!.type;
  if (!(type instanceof FixedSizeList)) throw new Error(`column "vector" is ${String(type)}, not a fixed-size list`);
  return type.listSize;
}

/**
 * Reads column by column from Arrow: no row objects, and each vector is one copy out of the
 * batch. Without `vectors` the vector column is not even read.
 */
export async function readRows(table: lancedb.Table, vectors = true): Promise<StoredVector[]> {
  const columns = vectors ? READ_COLUMNS : READ_COLUMNS.filter((c) => c !== 'vector');
  const data = (await table
    .query()
    .select([...columns])
    .toArrow()) as unknown as ArrowTable;
  const out: StoredVector[] = [];
  for (const batch of data.batches) {
    const [id, server, hash, model] = READ_COLUMNS.slice(0, 4).map((c) => batch.getChild(c));
    const vector = vectors ? batch.getChild('vector') : undefined;
    if (!id || !server || !hash || !model || (vectors && !vector)) throw new Error(`table "${TABLE}" lacks a column`);
    for (let i = 0; i < batch.numRows; i++) {
      const row: StoredVector = {
        id: String(id.get(i)),
        server: String(server.get(i)),
        contentHash: String(hash.get(i)),
        model: String(model.get(i)),
      };
      if (vector) {
        const v = vector.get(i) as { toArray(): Float32Array } | null;
        row.vector = v ? Float32Array.from(v.toArray()) : new Float32Array(0);
      }
      out.push(row);
    }
  }
  return out;
}

export function toRecord(row: StoredTool): Record<string, unknown> {
  return {
    id: row.id,
    server: row.server,
    tool: row.tool,
    text: row.text,
    input_schema: row.inputSchemaJson,
    content_hash: row.contentHash,
    model: row.model,
    vector: Array.from(row.vector),
  };
}
