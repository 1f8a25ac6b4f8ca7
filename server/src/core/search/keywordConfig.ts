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
 * | 0.1.0's parameters (today's tokenizer) | 0.465/0.621 | 0.523/0.680 | 0.494/0.651 | 0.435/0.531 | 0.436/0.534 | 0.435/0.532 | 0.360/0.818 | 0.395/0.882 | 0.377/0.850 | 0.447/0.571 | 0.500/0.633 | 0.474/0.602 |
 * | shipped (keywordWeights.json) | 0.707/0.823 | 0.709/0.833 | 0.708/0.828 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.365/0.827 | 0.387/0.877 | 0.376/0.851 | 0.641/0.750 | 0.648/0.765 | 0.645/0.757 |
 * | − literal values as intent words (literal 1) | 0.713/0.828 | 0.699/0.822 | 0.706/0.825 | 0.439/0.535 | 0.436/0.535 | 0.438/0.535 | 0.370/0.833 | 0.385/0.876 | 0.378/0.855 | 0.536/0.682 | 0.636/0.747 | 0.586/0.715 |
 * | − action agreement | 0.621/0.765 | 0.689/0.817 | 0.655/0.791 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.369/0.827 | 0.387/0.875 | 0.378/0.851 | 0.553/0.688 | 0.580/0.717 | 0.567/0.703 |
 * | − action synonyms | 0.652/0.789 | 0.709/0.833 | 0.680/0.811 | 0.438/0.533 | 0.435/0.533 | 0.436/0.533 | 0.363/0.824 | 0.389/0.878 | 0.376/0.851 | 0.616/0.739 | 0.660/0.768 | 0.639/0.754 |
 * | − product mentions | 0.679/0.803 | 0.692/0.814 | 0.686/0.808 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.366/0.828 | 0.392/0.884 | 0.379/0.856 | 0.635/0.741 | 0.636/0.756 | 0.635/0.749 |
 * | − literal kind ↔ parameter | 0.707/0.821 | 0.709/0.832 | 0.708/0.826 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.365/0.826 | 0.387/0.877 | 0.376/0.851 | 0.641/0.750 | 0.648/0.764 | 0.645/0.757 |
 * | − platform rule (context for every server) | 0.580/0.748 | 0.675/0.799 | 0.627/0.774 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.365/0.827 | 0.387/0.877 | 0.376/0.851 | 0.599/0.709 | 0.630/0.752 | 0.615/0.731 |
 * | − sibling context | 0.717/0.829 | 0.709/0.834 | 0.713/0.831 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.357/0.814 | 0.380/0.865 | 0.368/0.839 | 0.616/0.736 | 0.660/0.776 | 0.639/0.756 |
 * | − synonyms | 0.696/0.815 | 0.699/0.824 | 0.698/0.819 | 0.433/0.528 | 0.432/0.530 | 0.432/0.529 | 0.365/0.824 | 0.382/0.872 | 0.374/0.848 | 0.616/0.708 | 0.605/0.727 | 0.610/0.718 |
 * | − bigrams | 0.703/0.821 | 0.726/0.843 | 0.715/0.832 | 0.439/0.536 | 0.439/0.537 | 0.439/0.537 | 0.347/0.806 | 0.361/0.845 | 0.354/0.825 | 0.641/0.751 | 0.660/0.775 | 0.651/0.763 |
 * | − name coverage | 0.689/0.810 | 0.678/0.815 | 0.684/0.813 | 0.431/0.530 | 0.431/0.531 | 0.431/0.530 | 0.363/0.823 | 0.365/0.849 | 0.364/0.836 | 0.603/0.728 | 0.660/0.769 | 0.632/0.749 |
 * | − query coverage | 0.689/0.814 | 0.702/0.829 | 0.696/0.822 | 0.433/0.532 | 0.430/0.532 | 0.432/0.532 | 0.366/0.827 | 0.391/0.884 | 0.379/0.855 | 0.629/0.740 | 0.660/0.772 | 0.645/0.756 |
 * | − Porter2 stemming | 0.748/0.844 | 0.726/0.842 | 0.737/0.843 | 0.399/0.483 | 0.389/0.477 | 0.394/0.480 | 0.352/0.812 | 0.392/0.888 | 0.372/0.850 | 0.578/0.691 | 0.660/0.769 | 0.620/0.730 |
 * | − id shapes (shapes 0) | 0.700/0.818 | 0.702/0.827 | 0.701/0.822 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.356/0.813 | 0.380/0.865 | 0.368/0.839 | 0.641/0.750 | 0.648/0.765 | 0.645/0.757 |
 * | − one-tool-server rule (soloAction 1) | 0.707/0.823 | 0.709/0.833 | 0.708/0.828 | 0.434/0.531 | 0.432/0.532 | 0.433/0.532 | 0.365/0.827 | 0.386/0.875 | 0.375/0.851 | 0.641/0.750 | 0.648/0.765 | 0.645/0.757 |
 * | − synonyms in coverage (coverageSynonyms 0, nameSynonyms 0) | 0.693/0.817 | 0.702/0.828 | 0.698/0.822 | 0.439/0.535 | 0.437/0.536 | 0.438/0.536 | 0.365/0.826 | 0.382/0.873 | 0.373/0.849 | 0.629/0.743 | 0.636/0.760 | 0.632/0.751 |
 *
 * What the table says (R@1, all requests): action agreement is the largest single gain on real
 * MCP catalogs (mcp-servers 0.655 → 0.708, workspace-19 0.567 → 0.645); the platform rule (no
 * sibling context on servers with more than contextMaxTools tools) is next (mcp-servers 0.627
 * → 0.708); literal values are what workspace-19's editor requests need (0.586 → 0.645) while
 * mcp-servers and toolbench are indifferent; product mentions lift mcp-servers (0.686 → 0.708)
 * and cost toolbench's held-out half (its server names are common words: "Finance Data",
 * "Email Validator"). A tool that names no action gets the candidates' mean agreement. A
 * server that is one tool (a plugin) is not held to the action of its description's lead
 * (soloAction 0): metatool, all one-tool plugins, 0.433 → 0.437 R@1, the others unchanged.
 * An id shaped like one a tool documents (shapes: "tt1234567" ↔ "ex: tt0000002", "ENG-482" ↔
 * "e.g., ABC-123") lifts toolbench MRR 0.839 → 0.851 and mcp-servers R@1 0.701 → 0.708.
 * Crediting a request word the tool says as a synonym in name and query coverage lifts
 * mcp-servers 0.698 → 0.708 and workspace-19 0.632 → 0.645 (metatool −0.001).
 * Stemming is a trade: Porter2 is worth 0.04 R@1 on metatool's conversational requests and
 * costs mcp-servers 0.03, whose tool names are exact identifiers; the tuner keeps it because
 * every set must hold. The last three rows are the same cells with the knob reset (ablation.ts
 * does not list them yet).
 *
 * Tried and not kept (measured in this round): fusing with an unstemmed plain BM25 by
 * reciprocal rank (mcp-servers R@1 +0.009, workspace-19 +0.013, metatool −0.009 at weight 0.25);
 * the unstemmed word as an extra term (`exact` 0.3: mcp-servers R@1 +0.030, toolbench MRR
 * −0.007 — it does not hold on every set); the light stemmer instead of Porter2 (mcp-servers
 * +0.023, workspace-19 −0.032); the action vocabulary as synonym groups for every action-like
 * word rather than the request's leading action only (±0.01, and "email" a field name pulled in
 * every send tool);
 * a description split into its lead sentence and the rest as two fields (within ±0.005); a
 * server relevance score from each server's whole text (+0.005 mcp-servers, toolbench −0.004);
 * sibling context decayed smoothly with server size instead of cut (mcp-servers −0.05);
 * dropping a named product's words once they set the server prior (mcp-servers −0.03). From the
 * 0.1.0 rounds: pseudo-relevance feedback (RM3), WordNet synonyms, a light stemmer, a server
 * boost from the best sibling, coverage over name/description only — each within noise or worse.
 * Tried with the id shapes and not kept: a literal value's words as intent by kind (ids:
 * toolbench MRR +0.004, workspace-19 R@1 −0.018; paths and quoted text: workspace-19 −0.03,
 * −0.006); "how do I VERB" questions taking VERB's action instead of a read (+0.001 metatool,
 * moot once one-tool servers are exempt); a product name shared by several servers naming
 * them all (toolbench MRR −0.002); the server field dropped on one-tool servers, where it
 * repeats the name (toolbench MRR −0.007); request qualifiers (specific, certain, various…)
 * as filler (within ±0.001).
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
  /** Share of a name word's idf that name coverage credits when the request says only a synonym of it; 0 = off (the default when absent). */
  nameSynonyms?: number;
  /** Share of a query word's idf that query coverage credits when the tool holds only a synonym of it; 0 = off (the default when absent). */
  coverageSynonyms?: number;
  /** Weight of the words of literal values (URLs, paths, selectors, ids, quoted text) in a request; 1 = as any word. */
  literal: number;
  /** Servers with more tools than this lend their tools no sibling context (the context field). */
  contextMaxTools: number;
  /** Score × (1 + action × agreement of the request's action with the tool's, −1..1, actions.ts); 0 = off. */
  action: number;
  /** Weight of the other words of the action the request leads with (actions.ts); 0 = off. */
  actionSynonyms: number;
  /** Share of `action` applied to a tool that is its server's only tool (a plugin); 1 = as any tool (the default when absent). */
  soloAction?: number;
  /** Score × (1 + serverMention) for tools of a server the request names; 0 = off. */
  serverMention: number;
  /** Score × (1 + slots × share of the request's literal kinds the tool has a parameter for); 0 = off. */
  slots: number;
  /** Weight of a request's generated id (tt1234567) as its shape (tt#), matched to id examples a tool documents; 0 = off (the default when absent). */
  shapes?: number;
  /** Query-term frequency saturation (BM25's k3): a word the query repeats weighs more; 0 = each word once. */
  queryK3: number;
}

/**
 * The shipped parameters: learned by server/src/bench/tuneKeyword.ts (coordinate ascent on the
 * dev halves of bench/datasets, every set held to its level) and written to
 * keywordWeights.json. Edit by re-running the tuner, not by hand.
 */
export const DEFAULT_KEYWORD_CONFIG: KeywordConfig = keywordWeights as KeywordConfig;
