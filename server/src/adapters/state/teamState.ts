/**
 * What replicas of `serve --http` share, opened together from one PostgreSQL URL: the audit
 * sink, approvals, search lessons and upstream sign-in records (sealed with the operator's
 * key). The URL comes from `--state` or MCP_LENS_DATABASE_URL (the option wins; the variable is
 * what a Kubernetes Secret sets, and keeps the password out of `ps`). Sign-in records already
 * in the database and no key to open them: refused at start, since serving on would mean
 * every person signing in again and the sealed records being overwritten.
 */
import type { Logger } from '../../core/logger';
import type { AuditSink } from '../audit/auditSink';
import { MemoryOAuthStore, type OAuthStore } from '../upstream/auth/oauthStore';
import { PgApprovals } from './pgApprovals';
import { PgAuditSink } from './pgAuditSink';
import { PgLessons } from './pgLessons';
import { PgOAuthStore } from './pgOAuthStore';
import { StateDatabase, replicaName } from './stateDatabase';
import { poolSize } from './stateUrl';
import { stateKeyFromEnv } from './stateKey';

export interface TeamState {
  db: StateDatabase;
  audit: AuditSink;
  approvals: PgApprovals;
  lessons: PgLessons;
  oauth: OAuthStore;
  close(): Promise<void>;
}

export async function openTeamState(o: {
  url: string;
  workspaceFolder: string;
  log: Logger;
  env?: NodeJS.ProcessEnv;
}): Promise<TeamState> {
  const env = o.env ?? process.env;
  const key = stateKeyFromEnv(env);
  const db = await StateDatabase.open({ url: o.url, log: o.log, poolSize: poolSize(env), replica: replicaName(env) });
  try {
    const oauth = key ? new PgOAuthStore(db, key, o.log) : await unsealedStore(db, o.log);
    const approvals = await PgApprovals.open(db, o.workspaceFolder);
    const lessons = await PgLessons.open(db, o.workspaceFolder, o.log);
    return {
      db,
      audit: new PgAuditSink(db),
      approvals,
      lessons,
      oauth,
      async close() {
        await lessons.settled();
        approvals.close();
        lessons.close();
        await db.close();
      },
    };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** No key: refuse when sealed records exist, else keep sign-ins in this replica's memory and say so. */
async function unsealedStore(db: StateDatabase, log: Logger): Promise<OAuthStore> {
  const rows = await db.query<{ n: string }>('counting sign-in records', 'SELECT count(*) AS n FROM mcp_lens_oauth');
  const n = Number(rows[0]?.n ?? 0);
  if (n > 0)
    throw new Error(
      `state database ${db.name} holds ${n} sealed sign-in record(s) and no state key was given: set MCP_LENS_STATE_KEY or MCP_LENS_STATE_KEY_FILE to the key they were sealed with`,
    );
  log.warn(
    `no state key (MCP_LENS_STATE_KEY or MCP_LENS_STATE_KEY_FILE): sign-ins to remote servers stay in this replica's memory and are not shared`,
  );
  return new MemoryOAuthStore();
}
