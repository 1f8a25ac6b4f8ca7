/**
 * Search quality, live: how often the tool an agent picked right after find_tools was the
 * answer's first match, or in its top 5, and how many calls came without a find_tools at all,
 * over the most recent sessions; with the trend, and what to do when the rate falls.
 */
import type { RetrievalStats, SearchModeInfo, UsageStats } from '../../../protocol/model';
import {
  RETRIEVAL_EXPLAINED,
  UNSEARCHED_EXPLAINED,
  retrievalAdviceFor,
  retrievalRates,
  trendText,
  windowText,
} from '../../../protocol/retrievalText';
import { plural } from '../../../protocol/figureText';
import { card, h, replaceChildren, type Child } from '../dom';

export class RetrievalView {
  readonly element = card('retrieval', 'Search quality', true);
  private readonly body = h('div');
  private usage: UsageStats | null | undefined;
  private mode: SearchModeInfo['kind'] | undefined;

  constructor() {
    this.element.append(this.body);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(usage: UsageStats | null | undefined): void {
    this.usage = usage;
    this.render();
  }

  /** The advice depends on whether search already uses meaning (Ollama). */
  setMode(mode: SearchModeInfo['kind']): void {
    if (mode === this.mode) return;
    this.mode = mode;
    if (this.usage !== undefined) this.render();
  }

  private render(): void {
    const usage = this.usage;
    if (!usage) {
      replaceChildren(
        this.body,
        h('div', { class: 'empty' }, 'Search quality is measured from recorded usage, which is not available here.'),
      );
    } else if (!usage.enabled) {
      replaceChildren(
        this.body,
        h(
          'div',
          { class: 'empty' },
          'Usage recording is off (setting mcpLens.usage.enabled), so search quality is not measured.',
        ),
      );
    } else if (!usage.retrieval) {
      replaceChildren(
        this.body,
        h('div', { class: 'empty' }, 'No agent calls through MCP Lens yet.'),
        h('p', { class: 'muted explain' }, RETRIEVAL_EXPLAINED),
      );
    } else {
      replaceChildren(this.body, ...this.figures(usage.retrieval));
    }
  }

  private figures(r: RetrievalStats): Child[] {
    const w = r.recent;
    const rates = retrievalRates(w);
    const picked = w.picks > 0;
    const kpis = h(
      'div',
      { class: 'kpis' },
      picked && rate('hit-1', rates.top1, 'picked tool ranked 1st', rates.top1Of, r.trend),
      picked && rate('hit-5', rates.top5, "picked tool in find_tools' top 5", rates.top5Of, r.trend),
      rate('unsearched', rates.unsearched, 'calls without a find_tools first', rates.unsearchedOf),
    );
    const scope = h(
      'div',
      { class: 'muted' },
      `Over ${windowText(w, 'last')}: ${plural(w.calls, 'agent call')}, ${plural(w.picks, 'pick')} from a find_tools answer.`,
    );
    const trend = trendText(r);
    const falling = r.trend === 'falling';
    const advice = retrievalAdviceFor(r, this.mode);
    return [
      kpis,
      scope,
      trend
        ? h(
            'p',
            { class: falling ? 'trend falling' : 'trend', attrs: { role: falling ? 'alert' : 'status' } },
            falling ? `▼ ${trend}` : trend,
          )
        : null,
      advice && h('p', { class: 'advice' }, advice),
      h('p', { class: 'muted explain' }, `${RETRIEVAL_EXPLAINED} ${UNSEARCHED_EXPLAINED}`),
    ];
  }
}

/** One rate as a figure with its label and sample size; a falling trend marks the hit rates. */
function rate(id: string, value: string, label: string, of: string, trend?: RetrievalStats['trend']): HTMLElement {
  const falling = trend === 'falling';
  return h(
    'div',
    {
      class: 'kpi',
      attrs: {
        'data-rate': id,
        role: 'group',
        'aria-label': `${label}: ${value} (${of})${falling ? ', falling' : ''}`,
      },
    },
    h('div', { class: falling ? 'value cost' : 'value' }, value),
    h('div', { class: 'label' }, label),
    h('div', { class: 'label' }, of),
  );
}
