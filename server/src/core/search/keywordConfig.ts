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
 * | shipped (keywordWeights.json) | 0.689/0.815 | 0.695/0.822 | 0.692/0.818 | 0.433/0.531 | 0.433/0.533 | 0.433/0.532 | 0.352/0.811 | 0.371/0.854 | 0.362/0.832 | 0.629/0.736 | 0.648/0.764 | 0.639/0.750 |
 * | − literal values as intent words (literal 1) | 0.696/0.820 | 0.692/0.815 | 0.694/0.817 | 0.434/0.531 | 0.433/0.533 | 0.433/0.532 | 0.360/0.822 | 0.371/0.854 | 0.366/0.838 | 0.536/0.678 | 0.648/0.752 | 0.593/0.715 |
 * | − action agreement | 0.621/0.762 | 0.682/0.808 | 0.651/0.785 | 0.439/0.535 | 0.436/0.535 | 0.437/0.535 | 0.355/0.811 | 0.371/0.855 | 0.363/0.833 | 0.553/0.682 | 0.568/0.712 | 0.560/0.697 |
 * | − action synonyms | 0.628/0.774 | 0.689/0.816 | 0.658/0.795 | 0.434/0.530 | 0.432/0.532 | 0.433/0.531 | 0.352/0.811 | 0.371/0.854 | 0.362/0.832 | 0.616/0.727 | 0.648/0.762 | 0.632/0.745 |
 * | − product mentions | 0.652/0.785 | 0.671/0.798 | 0.662/0.792 | 0.433/0.531 | 0.433/0.533 | 0.433/0.532 | 0.356/0.814 | 0.378/0.863 | 0.367/0.839 | 0.629/0.733 | 0.636/0.755 | 0.632/0.744 |
 * | − literal kind ↔ parameter | 0.683/0.808 | 0.695/0.821 | 0.689/0.814 | 0.433/0.531 | 0.433/0.533 | 0.433/0.532 | 0.352/0.811 | 0.369/0.851 | 0.361/0.831 | 0.629/0.736 | 0.636/0.757 | 0.632/0.747 |
 * | − platform rule (context for every server) | 0.583/0.745 | 0.678/0.802 | 0.631/0.773 | 0.433/0.531 | 0.433/0.533 | 0.433/0.532 | 0.352/0.811 | 0.371/0.854 | 0.362/0.832 | 0.586/0.695 | 0.605/0.733 | 0.596/0.714 |
 * | − sibling context | 0.689/0.815 | 0.689/0.818 | 0.689/0.817 | 0.433/0.531 | 0.433/0.533 | 0.433/0.532 | 0.346/0.800 | 0.363/0.842 | 0.355/0.821 | 0.616/0.729 | 0.648/0.768 | 0.632/0.749 |
 * | − synonyms | 0.679/0.805 | 0.692/0.817 | 0.686/0.811 | 0.428/0.524 | 0.428/0.527 | 0.428/0.525 | 0.349/0.804 | 0.371/0.852 | 0.360/0.828 | 0.616/0.708 | 0.605/0.727 | 0.610/0.718 |
 * | − bigrams | 0.686/0.813 | 0.720/0.834 | 0.703/0.823 | 0.433/0.531 | 0.435/0.535 | 0.434/0.533 | 0.334/0.788 | 0.353/0.826 | 0.343/0.807 | 0.629/0.740 | 0.648/0.767 | 0.639/0.753 |
 * | − name coverage | 0.679/0.806 | 0.678/0.811 | 0.679/0.808 | 0.426/0.526 | 0.427/0.528 | 0.427/0.527 | 0.347/0.803 | 0.367/0.843 | 0.357/0.823 | 0.591/0.717 | 0.648/0.763 | 0.620/0.740 |
 * | − query coverage | 0.679/0.810 | 0.695/0.823 | 0.687/0.817 | 0.426/0.526 | 0.427/0.529 | 0.426/0.528 | 0.354/0.809 | 0.381/0.865 | 0.368/0.837 | 0.616/0.723 | 0.636/0.757 | 0.626/0.740 |
 * | − Porter2 stemming | 0.734/0.834 | 0.713/0.829 | 0.723/0.832 | 0.397/0.482 | 0.388/0.476 | 0.393/0.479 | 0.340/0.793 | 0.386/0.873 | 0.363/0.833 | 0.578/0.675 | 0.648/0.764 | 0.614/0.720 |
 *
 * What the table says (R@1, all requests): action agreement is the largest single gain on real
 * MCP catalogs (mcp-servers 0.651 → 0.692, workspace-19 0.560 → 0.639) and costs metatool
 * 0.004; the platform rule (no sibling context on servers with more than contextMaxTools
 * tools) is next (mcp-servers 0.631 → 0.692); literal values are what workspace-19's editor
 * requests need (0.593 → 0.639) while mcp-servers and toolbench are indifferent; product
 * mentions lift mcp-servers (0.662 → 0.692) and cost toolbench's held-out half (its server
 * names are common words: "Finance Data", "Email Validator"). A tool that names no action gets
 * the candidates' mean agreement (metatool's plugins mostly name none: +0.010 R@1 there).
 * Stemming is a trade: Porter2 is worth 0.04 R@1 on metatool's conversational requests and
 * costs mcp-servers 0.03, whose tool names are exact identifiers; the tuner keeps it because
 * every set must hold.
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
  /** Weight of the other words of the action the request leads with (actions.ts); 0 = off. */
  actionSynonyms: number;
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
