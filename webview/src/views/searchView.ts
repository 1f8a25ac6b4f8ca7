/** Search: live results as the user types, each with its signals, schema and a "Try it" form. */
import { plural } from '../../../protocol/figureText';
import type { NoMatchHint, SearchHit, SearchResponse } from '../../../protocol/model';
import { card, formatTokens, h, replaceChildren } from '../dom';
import type { DashboardMessenger } from '../messenger/messenger';
import { exampleArguments } from './exampleArguments';

const DEBOUNCE_MS = 200;

/** Why a server's tools are not searched right now. */
const STATE_TEXT: Record<NoMatchHint['unavailable'][number]['state'], string> = {
  'awaiting-approval': 'is awaiting approval',
  starting: 'is still starting',
  error: 'failed',
  stopped: 'is stopped',
  idle: 'is idle (starts on its first call)',
  disabled: 'is disabled',
  ready: 'is ready',
  'needs-sign-in': 'needs sign-in',
};

export class SearchView {
  readonly element = card('search', 'Search tools', true);
  private readonly input = h('input', {
    attrs: {
      type: 'search',
      placeholder: 'Describe what you want to do, e.g. "add two numbers"',
      'aria-label': 'Search tools',
    },
  });
  private readonly meta = h('div', { class: 'search-meta', attrs: { 'aria-live': 'polite' } });
  private readonly list = h('ul', { class: 'hits' });
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Only the newest query's answer is shown; older ones that arrive late are dropped. */
  private generation = 0;

  constructor(
    private readonly messenger: DashboardMessenger,
    initialQuery: string,
    private readonly onQueryChange: (query: string) => void,
  ) {
    this.element.append(this.input, this.meta, this.list);
    this.input.value = initialQuery;
    this.input.addEventListener('input', () => this.schedule());
    if (initialQuery) void this.run(initialQuery);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(this.input.value), DEBOUNCE_MS);
  }

  private async run(raw: string): Promise<void> {
    const query = raw.trim();
    this.onQueryChange(raw);
    const generation = ++this.generation;
    if (!query) {
      replaceChildren(this.meta);
      replaceChildren(this.list);
      return;
    }
    replaceChildren(this.meta, 'Searching…');
    try {
      const response = await this.messenger.request('search', { query });
      if (generation === this.generation) this.render(response);
    } catch (err) {
      if (generation === this.generation)
        replaceChildren(this.meta, h('span', { class: 'error-text' }, errorText(err)));
    }
  }

  private render(r: SearchResponse): void {
    const parts = [plural(r.hits.length, 'result'), r.mode.label, `${Math.round(r.tookMs)} ms`];
    if (r.tokenMetrics)
      parts.push(
        `answer ${formatTokens(r.tokenMetrics.returned_tokens)} tokens, every tool ${formatTokens(r.tokenMetrics.baseline_tokens)}`,
      );
    replaceChildren(this.meta, parts.join(' · '));
    if (r.hits.length === 0) {
      replaceChildren(
        this.list,
        h('li', { class: 'empty' }, `No tools match "${r.query}".`),
        ...(r.noMatch ? this.noMatch(r.noMatch) : []),
      );
      return;
    }
    replaceChildren(this.list, ...r.hits.map((hit, i) => this.hitRow(hit, { rank: i + 1, of: r.hits.length })));
  }

  /** Where to look when nothing matched: close names (with Try it), servers not searched now, and each server's words. */
  private noMatch(hint: NoMatchHint): HTMLElement[] {
    const rows: HTMLElement[] = [
      h(
        'li',
        { class: 'no-match-help muted' },
        "Say what the tool should do in other words: the words each server's tools use are below.",
      ),
    ];
    if (hint.closeNames.length)
      rows.push(h('li', { class: 'no-match-head' }, 'Close names'), ...hint.closeNames.map((hit) => this.hitRow(hit)));
    if (hint.unavailable.length) {
      rows.push(
        h('li', { class: 'no-match-head' }, 'Not searched now'),
        ...hint.unavailable.map((s) =>
          h(
            'li',
            { class: 'no-match-server', attrs: { 'data-server': s.name } },
            h('span', { class: 'server-name' }, s.name),
            ` ${STATE_TEXT[s.state]}`,
            s.error ? `: ${s.error}` : '',
          ),
        ),
      );
    }
    if (hint.servers.length) {
      rows.push(h('li', { class: 'no-match-head' }, "Words the servers' tools use"));
      for (const s of hint.servers) {
        const words = s.words.map((w) =>
          h(
            'button',
            { class: 'word secondary', attrs: { title: `Search for "${w}"` }, on: { click: () => this.searchFor(w) } },
            w,
          ),
        );
        rows.push(
          h(
            'li',
            { class: 'no-match-server', attrs: { 'data-server': s.name } },
            h('span', { class: 'server-name' }, s.name),
            h('span', { class: 'muted' }, ` ${plural(s.tools, 'tool')}`),
            h('span', { class: 'words' }, ...words),
          ),
        );
      }
    }
    return rows;
  }

  private searchFor(word: string): void {
    this.input.value = word;
    this.input.focus();
    void this.run(word);
  }

  /** `ranked`: its place in the answer; a close name offered when nothing matched has none. */
  private hitRow(hit: SearchHit, ranked?: { rank: number; of: number }): HTMLElement {
    const schema = hit.inputSchema ?? { type: 'object' };
    return h(
      'li',
      { class: 'hit', attrs: { 'data-tool': hit.name } },
      h(
        'div',
        { class: 'hit-head' },
        h('span', { class: 'hit-name' }, hit.originalName),
        h('span', { class: 'hit-server' }, `on ${hit.server}`),
        ...hit.signals.map((s) => h('span', { class: `badge ${s}` }, s)),
        // The rank says where it stands; the score behind it compares only within one search.
        ranked &&
          h(
            'span',
            {
              class: 'hit-rank',
              attrs: {
                title: `Rank ${ranked.rank} of ${ranked.of} in this search (score ${hit.score.toFixed(2)}: higher ranks first; scores compare only within one search)`,
                'aria-label': `rank ${ranked.rank} of ${ranked.of}`,
              },
            },
            `#${ranked.rank}`,
          ),
      ),
      h('div', { class: 'hit-desc' }, hit.description || '(no description)'),
      hit.why && h('div', { class: 'hit-why' }, hit.why),
      h('details', {}, h('summary', {}, 'Schema'), h('pre', { class: 'schema' }, JSON.stringify(schema, null, 2))),
      this.tryForm(hit.name, schema),
    );
  }

  private tryForm(name: string, schema: Record<string, unknown>): HTMLElement {
    const args = h('textarea', { attrs: { 'aria-label': `Arguments for ${name}`, spellcheck: 'false' } });
    args.value = JSON.stringify(exampleArguments(schema), null, 2);
    const output = h('pre', { class: 'try-result' });
    output.hidden = true;
    const run = h('button', {}, 'Call');
    run.addEventListener('click', () => void this.call(name, args.value, run, output));
    return h(
      'details',
      { class: 'try-it' },
      h('summary', {}, 'Try it'),
      h('div', { class: 'try' }, args, h('div', { class: 'row' }, run), output),
    );
  }

  private async call(name: string, rawArgs: string, button: HTMLButtonElement, output: HTMLPreElement): Promise<void> {
    output.hidden = false;
    let args: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(rawArgs || '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new Error('arguments must be a JSON object');
      args = parsed as Record<string, unknown>;
    } catch (err) {
      output.className = 'try-result error';
      output.textContent = `Invalid arguments: ${errorText(err)}`;
      return;
    }
    button.disabled = true;
    output.className = 'try-result';
    output.textContent = 'Calling…';
    try {
      const outcome = await this.messenger.request('callTool', { name, arguments: args });
      output.className = outcome.isError ? 'try-result error' : 'try-result ok';
      output.textContent = `${outcome.isError ? 'Error' : 'Result'} (${Math.round(outcome.durationMs)} ms)\n${contentText(outcome.content, outcome.structuredContent)}`;
    } catch (err) {
      output.className = 'try-result error';
      output.textContent = errorText(err);
    } finally {
      button.disabled = false;
    }
  }
}

/** Text parts as they are, anything else (images, resources) as JSON. */
function contentText(content: unknown[], structured: unknown): string {
  const parts = content.map((c) => {
    const item = c as { type?: string; text?: unknown };
    return item.type === 'text' && typeof item.text === 'string' ? item.text : JSON.stringify(c, null, 2);
  });
  if (parts.length === 0 && structured !== undefined) parts.push(JSON.stringify(structured, null, 2));
  return parts.join('\n');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
