/**
 * Server affinity: a session that uses one tool of a server tends to use that server's other
 * tools. Scores each tool by its share of its server's calls, averaged over the servers the
 * session has used. Needs `server` on the observed calls; calls without it are ignored.
 */
import { bump, topPredictions } from './ranking';
import type { ObservedCall, PredictContext, Prediction, Predictor } from './types';

export class ServerAffinityPredictor implements Predictor {
  private readonly serverOf = new Map<string, string>();
  private readonly toolsOf = new Map<string, Map<string, number>>();
  private readonly callsOf = new Map<string, number>();

  observe(calls: Iterable<ObservedCall>): void {
    for (const c of calls) {
      if (c.server === undefined) continue;
      this.serverOf.set(c.toolKey, c.server);
      bump(this.toolsOf, c.server, c.toolKey);
      this.callsOf.set(c.server, (this.callsOf.get(c.server) ?? 0) + 1);
    }
  }

  predict(context: PredictContext, k: number): Prediction[] {
    const servers = [...new Set(context.sessionTools.map((t) => this.serverOf.get(t)).filter((s) => s !== undefined))];
    const scores = new Map<string, number>();
    for (const server of servers) {
      const n = this.callsOf.get(server) ?? 0;
      for (const [tool, count] of this.toolsOf.get(server) ?? []) {
        scores.set(tool, (scores.get(tool) ?? 0) + count / n / servers.length);
      }
    }
    return topPredictions(scores, k, (key) => `used with other ${this.serverOf.get(key) ?? 'server'} tools`);
  }

  reset(): void {
    this.serverOf.clear();
    this.toolsOf.clear();
    this.callsOf.clear();
  }
}
