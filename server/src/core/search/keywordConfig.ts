/**
 * The keyword ranking's parameters, and the measurements behind them.
 *
 * The ranking (keywordIndex.ts) is BM25F over a tool's name, server, description and parameters
 * (plus its siblings' words on small servers), then a re-rank of the top 100 by what the request
 * says beyond its words: its literal values (queryLiterals.ts), its action against the tool's
 * (actions.ts), the product it names, and which parameter its values fit. Numbers are learned,
 * not hand-set: server/src/bench/tuneKeyword.ts runs coordinate ascent on the *dev* halves of
 * mcp-servers, workspace-19, toolbench and metatool (benchSplit.ts), keeps a move only when the
 * mean objective rises and no set falls by more than 0.002, and writes keywordWeights.json.
 *
 * Ablation (`node --import tsx server/src/bench/ablation.ts`): the shipped configuration with
 * each step switched off, recall@1 / MRR@10 on the dev half, the held-out half and all requests:
 *
 * | step | mcp-servers dev | held-out | all | metatool dev | held-out | all | toolbench dev | held-out | all | workspace-19 dev | held-out | all |
 * |---|---|---|---|---|---|---|---|---|---|---|---|---|
 * | bm25-reference | 0.570/0.704 | 0.520/0.675 | 0.545/0.689 | 0.392/0.471 | 0.386/0.466 | 0.389/0.468 | 0.327/0.769 | 0.353/0.808 | 0.340/0.788 | 0.477/0.613 | 0.586/0.728 | 0.532/0.671 |
 * | MCP Lens 0.1.0 ranking | 0.465/0.621 | 0.502/0.672 | 0.483/0.646 | 0.434/0.532 | 0.436/0.535 | 0.435/0.534 | 0.360/0.817 | 0.395/0.881 | 0.377/0.849 | 0.447/0.571 | 0.500/0.632 | 0.474/0.602 |
 * | shipped (keywordWeights.json) | 0.676/0.803 | 0.699/0.825 | 0.687/0.814 | 0.429/0.527 | 0.429/0.529 | 0.429/0.528 | 0.355/0.811 | 0.372/0.854 | 0.363/0.832 | 0.603/0.710 | 0.605/0.737 | 0.604/0.724 |
 * | − literal values as intent words (literal 1) | 0.689/0.813 | 0.695/0.818 | 0.692/0.815 | 0.429/0.527 | 0.429/0.530 | 0.429/0.528 | 0.361/0.819 | 0.372/0.854 | 0.366/0.836 | 0.523/0.657 | 0.630/0.740 | 0.577/0.699 |
 * | − action agreement | 0.583/0.735 | 0.675/0.800 | 0.629/0.768 | 0.435/0.532 | 0.435/0.534 | 0.435/0.533 | 0.357/0.810 | 0.371/0.853 | 0.364/0.831 | 0.553/0.671 | 0.556/0.698 | 0.554/0.685 |
 * | − product mentions | 0.645/0.777 | 0.664/0.795 | 0.655/0.786 | 0.429/0.527 | 0.429/0.529 | 0.429/0.528 | 0.358/0.814 | 0.381/0.866 | 0.369/0.840 | 0.597/0.702 | 0.605/0.737 | 0.601/0.720 |
 * | − literal kind ↔ parameter | 0.676/0.801 | 0.699/0.822 | 0.687/0.812 | 0.429/0.527 | 0.429/0.529 | 0.429/0.528 | 0.355/0.810 | 0.370/0.852 | 0.362/0.831 | 0.603/0.710 | 0.605/0.737 | 0.604/0.724 |
 * | − platform rule (context for every server) | 0.607/0.758 | 0.671/0.803 | 0.639/0.781 | 0.429/0.527 | 0.429/0.529 | 0.429/0.528 | 0.355/0.811 | 0.372/0.854 | 0.363/0.832 | 0.574/0.680 | 0.599/0.716 | 0.586/0.698 |
 * | − sibling context | 0.669/0.800 | 0.699/0.826 | 0.684/0.813 | 0.429/0.527 | 0.429/0.529 | 0.429/0.528 | 0.348/0.799 | 0.367/0.845 | 0.358/0.822 | 0.603/0.710 | 0.617/0.743 | 0.610/0.727 |
 * | − synonyms | 0.642/0.778 | 0.699/0.817 | 0.670/0.798 | 0.427/0.521 | 0.427/0.525 | 0.427/0.523 | 0.353/0.807 | 0.370/0.852 | 0.362/0.829 | 0.616/0.707 | 0.623/0.734 | 0.620/0.721 |
 * | − bigrams | 0.669/0.802 | 0.699/0.824 | 0.684/0.813 | 0.429/0.528 | 0.432/0.531 | 0.431/0.529 | 0.330/0.782 | 0.349/0.820 | 0.340/0.801 | 0.616/0.718 | 0.605/0.736 | 0.610/0.727 |
 * | − name coverage | 0.672/0.800 | 0.675/0.811 | 0.674/0.805 | 0.422/0.521 | 0.423/0.523 | 0.422/0.522 | 0.352/0.805 | 0.360/0.834 | 0.356/0.820 | 0.591/0.699 | 0.630/0.743 | 0.610/0.721 |
 * | − query coverage | 0.683/0.808 | 0.699/0.824 | 0.691/0.816 | 0.424/0.523 | 0.422/0.525 | 0.423/0.524 | 0.353/0.806 | 0.383/0.866 | 0.368/0.836 | 0.591/0.700 | 0.654/0.757 | 0.623/0.729 |
 * | − Porter2 stemming | 0.720/0.826 | 0.709/0.831 | 0.715/0.829 | 0.394/0.479 | 0.387/0.475 | 0.390/0.477 | 0.342/0.794 | 0.388/0.874 | 0.365/0.834 | 0.553/0.663 | 0.630/0.746 | 0.592/0.705 |
 *
 * What the table says: action agreement is the largest single gain on real MCP catalogs
 * (mcp-servers R@1 0.629 → 0.687, workspace-19 0.554 → 0.604) and costs metatool 0.006 R@1;
 * the platform rule (no sibling context on servers with more than contextMaxTools tools) is the
 * second (0.639 → 0.687); literal values are what workspace-19 needs (0.577 → 0.604) while
 * mcp-servers and toolbench are indifferent to slightly against; product mentions lift
 * mcp-servers (0.655 → 0.687) and cost toolbench's held-out half (its server names are common
 * words: "Finance Data", "Email Validator"). Stemming is a trade: Porter2 is worth 0.04 R@1 on
 * metatool's conversational requests and costs mcp-servers 0.03, whose tool names are exact
 * identifiers; the tuner keeps it because every set must hold.
 *
 * Tried and not kept (measured in this round): fusing with an unstemmed plain BM25 by
 * reciprocal rank (mcp-servers R@1 +0.009, workspace-19 +0.013, metatool −0.009 at weight 0.25);
 * the unstemmed word as an extra term (`exact` 0.3: mcp-servers +0.019, toolbench MRR −0.008);
 * a description split into its lead sentence and the rest as two fields (within ±0.005); a
 * server relevance score from each server's whole text (+0.005 mcp-servers, toolbench −0.004);
 * sibling context decayed smoothly with server size instead of cut (mcp-servers −0.05);
 * dropping a named product's words once they set the server prior (mcp-servers −0.03). From the
 * 0.1.0 rounds: pseudo-relevance feedback (RM3), WordNet synonyms, a light stemmer, a server
 * boost from the best sibling, coverage over name/description only — each within noise or worse.
 */
import type { FieldConfig } from './bm25f';
import keywordWeights from './keywordWeights.json';

export type Stemmer = 'porter2' | 'light' | 'none';

export interface KeywordConfig {
  fields: FieldConfig;
  k1: number;
  /** Stemming of document and query words: Porter2, a light plural/-ing/-ed stemmer, or none. */
  stem: Stemmer;
  /** Weight of synonym expansions relative to a typed query word; 0 = off. */
  synonyms: number;
  /** Weight of adjacent-word pairs (phrase evidence); 0 = off. */
  bigrams: number;
  /** Weight of the unstemmed word as its own term (exact wording beats a shared stem); 0 = off. */
  exact: number;
  /** Drop request-phrasing words (want, need, help, provide…) from queries. */
  fillerWords: boolean;
  /** Score multiplier 1 + nameBonus × (idf-weighted share of the tool's name words in the query); 0 = off. */
  nameBonus: number;
  /** Score multiplier 1 + coverage × (idf-weighted share of the query's words the tool holds); 0 = off. */
  coverage: number;
  /** Weight of the words of literal values (URLs, paths, selectors, ids, quoted text) in a request; 1 = as any word. */
  literal: number;
  /** Servers with more tools than this lend their tools no sibling context (the context field). */
  contextMaxTools: number;
  /** Score × (1 + action × agreement of the request's action with the tool's, −1..1, actions.ts); 0 = off. */
  action: number;
  /** Score × (1 + serverMention) for tools of a server the request names; 0 = off. */
  serverMention: number;
  /** Score × (1 + slots × share of the request's literal kinds the tool has a parameter for); 0 = off. */
  slots: number;
  /** Query-term frequency saturation (BM25's k3): a word the query repeats weighs more; 0 = each word once. */
  queryK3: number;
}

/**
 * The shipped parameters: learned by server/src/bench/tuneKeyword.ts (coordinate ascent on the
 * dev halves of bench/datasets, every set held to its level) and written to
 * keywordWeights.json. Edit by re-running the tuner, not by hand.
 */
export const DEFAULT_KEYWORD_CONFIG: KeywordConfig = keywordWeights as KeywordConfig;
