/** Index: embedding mode, progress, embedded/total, last refresh, and "Pull model" when it is missing. */
import type { IndexStatus } from '../../../protocol/model';
import type { DashboardEvents } from '../../../protocol/webviewProtocol';
import { card, formatTime, h, replaceChildren } from '../dom';
import type { DashboardMessenger } from '../messenger/messenger';

export class IndexView {
  readonly element = card('index', 'Index');
  private readonly body = h('div');
  private readonly pullLine = h('div', { class: 'muted' });
  private pulling = false;

  constructor(private readonly messenger: DashboardMessenger) {
    this.element.append(this.body, this.pullLine);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(index: IndexStatus): void {
    const e = index.embedder;
    const facts = h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Search mode'),
      h('dd', { class: 'index-mode' }, index.mode.label),
      h('dt', {}, 'State'),
      h('dd', {}, index.state),
      h('dt', {}, 'Tools embedded'),
      h('dd', {}, `${index.toolsEmbedded} / ${index.toolsTotal}`),
      h('dt', {}, 'Last refresh'),
      h('dd', {}, formatTime(index.lastRefresh)),
      e && h('dt', {}, 'Embedder'),
      e &&
        h(
          'dd',
          {},
          e.kind === 'none'
            ? 'none'
            : `${e.kind}${e.model ? `: ${e.model}` : ''}${e.reachable ? '' : ' (unreachable)'}`,
        ),
    );
    const progress =
      index.state === 'indexing'
        ? h('progress', { attrs: { max: '1', value: String(index.progress ?? 0), 'aria-label': 'Indexing progress' } })
        : null;
    const error = index.error ?? e?.error;
    let pull: HTMLElement | null = null;
    if (e?.modelMissing) {
      const button = h('button', {}, this.pulling ? 'Pulling…' : `Pull model${e.model ? ` ${e.model}` : ''}`);
      button.disabled = this.pulling;
      button.addEventListener('click', () => void this.pull());
      pull = h('div', { class: 'row' }, button);
    }
    replaceChildren(this.body, facts, progress, error && h('div', { class: 'error-text' }, error), pull);
  }

  /** Progress of a model pull, pushed by the host. */
  pullProgress(p: DashboardEvents['pullProgress']): void {
    const pct = p.total ? ` ${Math.round(((p.completed ?? 0) / p.total) * 100)}%` : '';
    replaceChildren(
      this.pullLine,
      p.error ? h('span', { class: 'error-text' }, `${p.model}: ${p.error}`) : `${p.model}: ${p.status}${pct}`,
    );
    if (p.done) this.pulling = false;
  }

  private async pull(): Promise<void> {
    this.pulling = true;
    replaceChildren(this.pullLine, 'Starting pull…');
    try {
      const r = await this.messenger.request('pullModel', {});
      if (!r.ok) {
        this.pulling = false;
        replaceChildren(this.pullLine, h('span', { class: 'error-text' }, r.error ?? 'Pull failed'));
      }
    } catch (err) {
      this.pulling = false;
      replaceChildren(
        this.pullLine,
        h('span', { class: 'error-text' }, err instanceof Error ? err.message : String(err)),
      );
    }
    this.update(await this.messenger.request('indexStatus', {}));
  }
}
