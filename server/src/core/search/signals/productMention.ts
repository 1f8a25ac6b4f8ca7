/**
 * Product mentions: a request that names a server's product ("in Sentry", "on GitHub", "the
 * Supabase project") is about that server's tools (productMentions.ts says how a name is
 * recognised). Score × (1 + serverMention × focus) for the tools of a server it names.
 */
import type { IndexedTool } from '../candidates';
import { mentionedServers, serverNames, type ServerName } from '../productMentions';
import { rerankSignal, SAYS_NOTHING } from '../rerankSignal';

export const productMention = rerankSignal({
  name: 'product mentions',
  knobs: [{ name: 'serverMention', grid: [0, 0.25, 0.5, 1, 2], off: { value: 0, ablation: 'product mentions' } }],
  profile(catalog, k) {
    if (k.serverMention === 0) return SAYS_NOTHING;
    const stem = catalog.stem;
    // The servers' names are read at the first search, from what is copied out of the view
    // here, not at every index sync: a warm start's servers launch once its first sync is done.
    let indexed: readonly IndexedTool[] | undefined = catalog.tools.slice();
    let products: ServerName[] | undefined;
    const namesOfServers = (): ServerName[] => {
      if (!products) {
        const tools = indexed!;
        products = serverNames(
          tools.map((t) => t.tool),
          stem,
          tools,
        );
        indexed = undefined;
      }
      return products;
    };
    const servers = catalog.tools.map((t) => t.server);
    return {
      analyse(request) {
        const named = mentionedServers(namesOfServers(), request.split.intent, request.intentWords, stem);
        if (named.size === 0) return undefined;
        const boost = 1 + k.serverMention * request.focus;
        return (doc) => (named.has(servers[doc]!) ? boost : 1);
      },
    };
  },
});
