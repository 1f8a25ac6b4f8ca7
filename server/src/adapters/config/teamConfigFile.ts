/**
 * Reads the team's configuration file (`serve --http --team FILE`) through the one config file
 * reader, and says every problem with the file's name and where in it. The operator names this
 * file; it holds no secret (the introspection secret is read from the variable it names).
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseTeamConfig, type TeamConfig } from '../../core/team/teamConfig';
import { readConfigFile } from './configFileReader';

export function readTeamConfig(file: string): TeamConfig {
  const absolute = resolve(file);
  const read = readConfigFile(absolute);
  if ('missing' in read) throw new Error(`team configuration ${absolute}: no such file`);
  if ('refused' in read) throw new Error(`team configuration ${absolute}: not read: ${read.refused}`);
  let raw: unknown;
  try {
    raw = JSON.parse(read.text);
  } catch (err) {
    throw new Error(`team configuration ${absolute}: not valid JSON (${(err as Error).message})`);
  }
  const { config, problems } = parseTeamConfig(raw);
  if (!config) {
    const lines = problems.map((p) => `  ${p.path || '(top)'}: ${p.message}`);
    throw new Error(`team configuration ${absolute} has ${problems.length} problem(s):\n${lines.join('\n')}`);
  }
  // The audit file is relative to the configuration, as a person reading it would expect; by
  // default beside it.
  const auditFile = config.audit.file ?? 'audit.jsonl';
  config.audit.file = isAbsolute(auditFile) ? auditFile : resolve(dirname(absolute), auditFile);
  return config;
}
