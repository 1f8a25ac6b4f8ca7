// Untrusted text made safe (protocol/untrustedText.ts) and names compared as people read them
// (core/nameSkeleton.ts, core/config/toolFilter.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  cleanReplyInPlace,
  cleanReplyText,
  escapeForDisplay,
  hasHiddenCharacters,
  normalizeName,
  oneLine,
  quotedForDisplay,
  stripControls,
} from '../../protocol/untrustedText';
import { nameSkeleton, patternSkeleton } from '../../server/src/core/nameSkeleton';
import { createToolFilter } from '../../server/src/core/config/toolFilter';

test('stripControls removes escapes, controls, bidi and invisible characters, and keeps letters and lines', () => {
  assert.equal(stripControls('a\u001b[31mred\u001b[0m\u0000b\u202ec\u200bd\ufeffe\u00adf\u2028g'), 'aredbcdef\ng');
  assert.equal(stripControls('日本語 ünï\ttab\nline'), '日本語 ünï\ttab\nline');
  assert.equal(oneLine('a\nb\u2029c\u0007'), 'a b c');
});

test('escapeForDisplay writes every hidden character out, so a prompt line stays one line', () => {
  assert.equal(escapeForDisplay('x\ny\r\u001b[8m\u202e\u200b\\'), 'x\\ny\\r\\e[8m\\u{202e}\\u{200b}\\\\');
  assert.equal(quotedForDisplay('say "hi"\n'), '"say \\"hi\\"\\n"');
  assert.doesNotMatch(escapeForDisplay('\u0000\u0085\u2028\ufe0f'), /[\u0000-\u001f\u0085\u2028]|\ufe0f/);
});

test('hasHiddenCharacters: exactly what escapeForDisplay would write out (backslashes aside)', () => {
  for (const name of ['github', 'my.server', 'ünïcødé 名前', 'a\\b', 'say "hi"']) assert.equal(hasHiddenCharacters(name), false, name);
  for (const name of ['evil\u202etxt', 'git\u200bhub', 'a\nb', 'tab\tx', 'x\u001b[31m', 'v\ufe0f', 'c1\u0085', 'ls\u2028', 'tag\udb40\udc41']) {
    assert.equal(hasHiddenCharacters(name), true, JSON.stringify(name));
  }
});

test('cleanReplyText: escapes, controls but tab/LF/CR, bidi controls and tag characters go; data stays', () => {
  assert.equal(
    cleanReplyText('a\u001b[31mred\u001b[0m b\u001b]0;title\u0007c \u0000\u0085\u009b \u202eX\u2066y\u2069 \udb40\udc48\udb40\udc49!'),
    'ared bc  Xy !',
  );
  const kept = 'tab\tcr\r\nline \u{1f468}\u200d\u{1f4bb} \u200fRTL\u2028next \u0627\u200c\u0628 ✔\ufe0f';
  assert.equal(cleanReplyText(kept), kept);
  assert.equal(cleanReplyText('keep \u001b]no terminator, so only ESC ] goes'), 'keep no terminator, so only ESC ] goes');
});

test('cleanReplyInPlace: every string and key at any depth, nothing else; a key never becomes a prototype', () => {
  const reply = JSON.parse('{"a\\u202eb": ["x\\u0007", {"n": 1, "t": true, "z": null, "s": "y\\u2066"}], "__pro\\u202eto__": {"polluted": 1}}') as Record<
    string,
    unknown
  >;
  assert.equal(cleanReplyInPlace(reply), reply);
  assert.deepEqual(reply, { ab: ['x', { n: 1, t: true, z: null, s: 'y' }], ['__proto__']: { polluted: 1 } });
  assert.equal(Object.getPrototypeOf(reply), Object.prototype);
  assert.equal(Object.prototype.hasOwnProperty.call(reply, '__proto__'), true);
  let deep: unknown = 'bottom\u202e';
  for (let i = 0; i < 100_000; i++) deep = { d: [deep] };
  cleanReplyInPlace(deep);
  let at = deep as { d: unknown[] } | string;
  while (typeof at !== 'string') at = at.d[0] as typeof at;
  assert.equal(at, 'bottom', 'no depth escapes it');
});

test('normalizeName: NFKC, no invisible characters', () => {
  assert.equal(normalizeName('ｄｅｌｅｔｅ_repo'), 'delete_repo');
  assert.equal(normalizeName('delete\u200b_re\u00adpo'), 'delete_repo');
  assert.equal(normalizeName('\ud835\udc1d\ud835\udc1e\ud835\udc25'), 'del');
});

test('nameSkeleton folds look-alikes (TR39) and case; patternSkeleton keeps glob syntax', () => {
  assert.equal(nameSkeleton('d\u0435lete_repo'), nameSkeleton('delete_repo'));
  assert.equal(nameSkeleton('DELETE_REPO'), nameSkeleton('delete_repo'));
  assert.equal(nameSkeleton('de1ete'), nameSkeleton('delete'));
  assert.notEqual(nameSkeleton('create_repo'), nameSkeleton('delete_repo'));
  assert.equal(patternSkeleton('*/del|ete_*'), `*/${nameSkeleton('del')}|${nameSkeleton('ete_')}*`);
});

test('exclude meets the raw, normalized and look-alike name; include only the normalized one', () => {
  const f = createToolFilter(['gh/*'], ['*/delete_*']);
  for (const t of ['delete_repo', 'delete\u200b_repo', 'd\u0435lete_repo', 'ｄｅｌｅｔｅ_x', 'Delete_Repo']) assert.equal(f('gh', t), false, t);
  assert.equal(f('gh', 'list_repos'), true);
  assert.equal(f('ｇｈ', 'list_repos'), true, 'fullwidth is the same name');
  assert.equal(f('g\u0068\u200b', 'list_repos'), true, 'an invisible character changes nothing');
  assert.equal(f('gһ', 'list_repos'), false, 'a Cyrillic look-alike is another server: include does not let it in');
});
